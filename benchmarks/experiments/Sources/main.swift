import BuntingExperiments
import BuntingJSON
import Glibc

// bunting-experiments-bench: the benchmark of BuntingExperiments, run by benchmarks/experiments/run.
//
//   bunting-experiments-bench workload DIR     writes payload-100.json, payload-1000.json, users.ndjson
//   bunting-experiments-bench measure DIR K    times every feature for each user, writes swift-K.json
//   bunting-experiments-bench report DIR N     prints both sides and ratios, best of rounds 1…N
//                                              (swift-K.json and python-K.json, written by growthbook_bench.py)
//   bunting-experiments-bench profile N        every feature of the 1,000-feature payload for N users,
//                                              untimed, for callgrind (see README.md)

let userCount = 2_000
let featureCounts = [100, 1_000]

func workload(_ directory: String) throws {
    for count in featureCounts {
        try FileIO.write(Workload.payload(features: count).encoded(), to: "\(directory)/payload-\(count).json")
    }
    var lines: [UInt8] = []
    for user in Workload.users(count: userCount) {
        user.encode(appendingTo: &lines)
        lines.append(UInt8(ascii: "\n"))
    }
    try FileIO.write(lines, to: "\(directory)/users.ndjson")
    let meta: JSON = ["featureCounts": .array(featureCounts.map { .int($0) }), "users": .int(userCount)]
    try FileIO.write(meta.encoded(), to: "\(directory)/workload.json")
}

/// Per user, the seconds it took to evaluate every feature of the payload.
func evaluateAllTimes(_ payload: GrowthBookPayload, users: [JSON]) -> [Double] {
    var times: [Double] = []
    times.reserveCapacity(users.count)
    var on = 0
    let clock = ContinuousClock()
    for user in users {
        let start = clock.now
        var evaluator = GrowthBookEvaluator(payload: payload, context: EvaluationContext(attributes: user))
        for result in evaluator.evaluateAll() where result.on { on += 1 }
        times.append(seconds(clock.now - start))
    }
    // Keeps the optimizer from dropping the loop.
    if on < 0 { print(on) }
    return times.sorted()
}

func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
}

func measure(_ directory: String, round: Int) throws {
    let users = try readUsers(directory)
    var results = JSONObject()
    for count in featureCounts {
        let payload = try GrowthBookPayload(text: try FileIO.read("\(directory)/payload-\(count).json"))
        precondition(payload.problems.isEmpty, "\(payload.problems)")
        _ = evaluateAllTimes(payload, users: Array(users.prefix(200)))
        let times = evaluateAllTimes(payload, users: users)
        let median = percentile(times, 0.5)
        let p99 = percentile(times, 0.99)
        let rate = Double(count * users.count) / times.reduce(0, +)
        print("swift  \(count) features: every feature for one user: median \(format(median * 1e6, 1)) µs, "
            + "p99 \(format(p99 * 1e6, 1)) µs; \(format(rate / 1e6, 2)) M features/s")
        results["median-\(count)"] = .real(median)
        results["p99-\(count)"] = .real(p99)
        results["featuresPerSecond-\(count)"] = .real(rate)
    }
    try FileIO.write(JSON.object(results).encoded(), to: "\(directory)/swift-\(round).json")
}

func readUsers(_ directory: String) throws -> [JSON] {
    let text = try FileIO.read("\(directory)/users.ndjson")
    return try text.split(separator: UInt8(ascii: "\n")).map { try JSON.parse(Array($0)) }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// The best of several rounds: the highest rate, the lowest time.
func best(_ rounds: [JSON]) -> JSON {
    var merged = JSONObject()
    for round in rounds {
        guard case .object(let object) = round else { continue }
        for (key, value) in object {
            guard let number = value.doubleValue, let previous = merged[key]?.doubleValue else {
                if merged[key] == nil { merged[key] = value }
                continue
            }
            merged[key] = .real(key.hasPrefix("featuresPerSecond") ? max(number, previous) : min(number, previous))
        }
    }
    return .object(merged)
}

func report(_ directory: String, rounds: Int) throws {
    let swift = best(try (1...rounds).map { try JSON.parse(try FileIO.read("\(directory)/swift-\($0).json")) })
    let python = best(try (1...rounds).map { try JSON.parse(try FileIO.read("\(directory)/python-\($0).json")) })
    func number(_ value: JSON, _ key: String) -> Double { value[key]?.doubleValue ?? .nan }
    print("")
    print("BuntingExperiments vs growthbook \(python["version"]?.stringValue ?? "?") (Python, in-process; "
        + "\(userCount) users, release build, best of \(rounds) alternating rounds)")
    print(pad("metric", 44) + pad("Bunting", 16) + pad("growthbook", 16) + "ratio")
    for count in featureCounts {
        for (label, key) in [("median", "median-\(count)"), ("p99", "p99-\(count)")] {
            let ours = number(swift, key)
            let theirs = number(python, key)
            print(row("every feature of \(count) for one user, \(label)", "\(format(ours * 1e6, 1)) µs", "\(format(theirs * 1e6, 1)) µs", theirs / ours))
        }
        let ours = number(swift, "featuresPerSecond-\(count)")
        let theirs = number(python, "featuresPerSecond-\(count)")
        print(row("features evaluated/s, \(count) features", "\(format(ours / 1e6, 2)) M", "\(format(theirs / 1e6, 3)) M", ours / theirs))
    }
    print("ratio > 1: Bunting is faster (target: 20×). Bunting: a GrowthBookEvaluator per user, evaluateAll();")
    print("growthbook: one GrowthBook instance, set_attributes per user, eval_feature for every key.")
}

func row(_ label: String, _ ours: String, _ theirs: String, _ ratio: Double) -> String {
    pad(label, 44) + pad(ours, 16) + pad(theirs, 16) + "\(format(ratio, 1))×"
}

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}

func format(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let fraction = text[text.index(after: dot)...]
        if fraction.count < decimals { text += String(repeating: "0", count: decimals - fraction.count) }
    }
    return text
}

/// The untimed loop callgrind counts (`--toggle-collect='*profileLoop*'`).
@inline(never)
func profileLoop(_ payload: GrowthBookPayload, _ users: [JSON]) -> Int {
    var on = 0
    for user in users {
        var evaluator = GrowthBookEvaluator(payload: payload, context: EvaluationContext(attributes: user))
        for result in evaluator.evaluateAll() where result.on { on += 1 }
    }
    return on
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("workload", 3):
        try workload(arguments[2])
    case ("measure", 4):
        try measure(arguments[2], round: Int(arguments[3]) ?? 1)
    case ("report", 4):
        try report(arguments[2], rounds: Int(arguments[3]) ?? 1)
    case ("profile", 3):
        let payload = try GrowthBookPayload(document: Workload.payload(features: 1_000))
        let users = Workload.users(count: Int(arguments[2]) ?? 100)
        print("on: \(profileLoop(payload, users))")
    default:
        print("usage: bunting-experiments-bench workload DIR | measure DIR ROUND | report DIR ROUNDS | profile USERS")
        exit(2)
    }
} catch {
    print("bunting-experiments-bench: \(error)")
    exit(1)
}
