import Glibc
import BuntingJSON
import BuntingRules

// bunting-rules-bench: the benchmark of BuntingRules, run by benchmarks/rules/run.
//
//   bunting-rules-bench workload DIR   writes rules-100.json, rules-1000.json, contexts.ndjson
//   bunting-rules-bench measure DIR    measures, prints, writes swift.json
//   bunting-rules-bench profile evaluate|resolve N
//                                      a fixed workload over N contexts, for
//                                      callgrind or perf (see README.md)
//   bunting-rules-bench hostile [BUDGET [CASE]]
//                                      rules built to spend the work budget slowly, timed
//                                      until stopped, or one case once (see Hostile.swift)
//   bunting-rules-bench report DIR N   prints Swift and datalogic-py side by side, best of
//                                      rounds 1...N (swift-K.json and datalogic-K.json, the
//                                      latter written by datalogic_bench.py)

let contextCount = 10_000
let flagCounts = [100, 1000]

func workload(_ directory: String) throws {
    for count in flagCounts {
        let rules = JSON.array((0..<count).map { Workload.rule($0) })
        try FileIO.write(rules.encoded(), to: "\(directory)/rules-\(count).json")
    }
    var lines: [UInt8] = []
    for context in Workload.contexts(count: contextCount) {
        context.encode(appendingTo: &lines)
        lines.append(UInt8(ascii: "\n"))
    }
    try FileIO.write(lines, to: "\(directory)/contexts.ndjson")
    let meta: JSON = ["timestamp": .integer(Workload.timestamp), "flagCounts": .array(flagCounts.map { .int($0) })]
    try FileIO.write(meta.encoded(), to: "\(directory)/workload.json")
}

func measure(_ directory: String, round: Int) throws {
    let contexts = Workload.contexts(count: contextCount)
    var results = JSONObject()
    for count in flagCounts {
        // One untimed pass warms caches and the allocator.
        _ = try Measurements.evaluationsPerSecond(flags: count, contexts: Array(contexts.prefix(500)))
        let rate = try Measurements.evaluationsPerSecond(flags: count, contexts: contexts)
        print("swift  \(count) flags: \(format(rate / 1e6, 2)) M rule evaluations/s (JSONLogicRule.evaluate)")
        results["evaluationsPerSecond-\(count)"] = .real(rate)
    }
    for count in flagCounts {
        _ = try Measurements.resolveAllTimes(flags: count, contexts: Array(contexts.prefix(200)))
        let times = try Measurements.resolveAllTimes(flags: count, contexts: contexts)
        let median = Measurements.percentile(times, 0.5)
        let p99 = Measurements.percentile(times, 0.99)
        let rate = Double(count * contexts.count) / times.reduce(0, +)
        print("swift  \(count) flags: \(format(rate / 1e6, 2)) M flag resolutions/s (FlagSet.resolveAll); "
            + "all \(count) for one user: median \(format(median * 1e6, 1)) µs, p99 \(format(p99 * 1e6, 1)) µs")
        results["resolutionsPerSecond-\(count)"] = .real(rate)
        results["resolveAllMedian-\(count)"] = .real(median)
        results["resolveAllP99-\(count)"] = .real(p99)
    }
    try FileIO.write(JSON.object(results).encoded(), to: "\(directory)/swift-\(round).json")
}

/// The best of several rounds: the highest rate, the lowest time. The
/// machine may be busy with other work during any one round, for either side.
func best(_ rounds: [JSON]) -> JSON {
    var merged = JSONObject()
    for round in rounds {
        guard case .object(let object) = round else { continue }
        for (key, value) in object {
            guard let number = value.doubleValue, let previous = merged[key]?.doubleValue else {
                if merged[key] == nil { merged[key] = value }
                continue
            }
            let isTime = key.hasPrefix("resolveAll")
            merged[key] = .real(isTime ? min(number, previous) : max(number, previous))
        }
    }
    return .object(merged)
}

func report(_ directory: String, rounds: Int) throws {
    let swift = best(try (1...rounds).map { try JSON.parse(try FileIO.read("\(directory)/swift-\($0).json")) })
    let python = best(try (1...rounds).map { try JSON.parse(try FileIO.read("\(directory)/datalogic-\($0).json")) })
    func number(_ value: JSON, _ key: String) -> Double { value[key]?.doubleValue ?? .nan }
    print("")
    print("BuntingRules vs datalogic-py \(python["version"]?.stringValue ?? "?") "
        + "(\(contextCount) contexts, release build, best of \(rounds) alternating rounds)")
    print(pad("metric", 46) + pad("BuntingRules", 16) + pad("datalogic-py", 16) + "ratio")
    for count in flagCounts {
        let theirs = number(python, "evaluationsPerSecond-\(count)")
        let rules = number(swift, "evaluationsPerSecond-\(count)")
        let flags = number(swift, "resolutionsPerSecond-\(count)")
        print(row("rule evaluations/s, \(count) flags", "\(format(rules / 1e6, 2)) M", "\(format(theirs / 1e6, 2)) M", rules / theirs))
        print(row("flag resolutions/s, \(count) flags", "\(format(flags / 1e6, 2)) M", "\(format(theirs / 1e6, 2)) M", flags / theirs))
    }
    for count in flagCounts {
        for (label, key) in [("median", "resolveAllMedian-\(count)"), ("p99", "resolveAllP99-\(count)")] {
            let ours = number(swift, key)
            let theirs = number(python, key)
            print(row("all \(count) flags for one user, \(label)", "\(format(ours * 1e6, 1)) µs", "\(format(theirs * 1e6, 1)) µs", theirs / ours))
        }
    }
    print("ratio > 1: BuntingRules is faster. Rule evaluations: one JSONLogicRule.evaluate call per rule;")
    print("flag resolutions: FlagSet.resolveAll (rules plus flagd's variant, value and reason);")
    print("datalogic-py: Session.evaluate_many over all rules, one call per user, contexts pre-parsed.")
}

func row(_ label: String, _ ours: String, _ theirs: String, _ ratio: Double) -> String {
    pad(label, 46) + pad(ours, 16) + pad(theirs, 16) + "\(format(ratio, 2))×"
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

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "hostile" {
    do {
        try Hostile.run(
            budget: arguments.count > 2 ? Int(arguments[2]) ?? EvaluationLimits.default.maxSteps : EvaluationLimits.default.maxSteps,
            only: arguments.count > 3 ? Int(arguments[3]) : nil)
    } catch {
        print("bunting-rules-bench: \(error)")
        exit(1)
    }
    exit(0)
}
guard arguments.count >= 3 else {
    print("usage: bunting-rules-bench workload|measure|report DIR [ROUND|ROUNDS]")
    exit(2)
}
do {
    let number = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
    switch arguments[1] {
    case "profile": try Profile.run(arguments[2], contexts: number)
    case "workload": try workload(arguments[2])
    case "measure": try measure(arguments[2], round: number)
    case "report": try report(arguments[2], rounds: number)
    default:
        print("unknown command \(arguments[1])")
        exit(2)
    }
} catch {
    print("bunting-rules-bench: \(error)")
    exit(1)
}
