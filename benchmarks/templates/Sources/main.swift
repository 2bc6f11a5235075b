import BuntingJSON
import BuntingTemplates
import Glibc

// bunting-templates-bench: the benchmark of BuntingTemplates, run by benchmarks/templates/run.
//
//   bunting-templates-bench workload DIR       writes users.ndjson and cards.json (both syntaxes)
//   bunting-templates-bench measure DIR ROUND  renders the card for every user, writes swift-ROUND.json
//   bunting-templates-bench profile N          renders the card for N users, untimed (for callgrind)
//   bunting-templates-bench report DIR N       prints Bunting and python-liquid side by side, best of
//                                              rounds 1...N (swift-K.json, python-K.json)

func workload(_ directory: String) throws {
    var lines: [UInt8] = []
    for user in Workload.users() {
        JSON.object(user).encode(appendingTo: &lines)
        lines.append(UInt8(ascii: "\n"))
    }
    try FileIO.write(lines, to: "\(directory)/users.ndjson")
    let cards: JSON = [
        "braze": ["title": .string(Workload.title), "description": .string(Workload.description)],
        "standard": ["title": .string(Workload.standardTitle), "description": .string(Workload.standardDescription)],
        "now": .real(Workload.now), "users": .int(Workload.userCount),
    ]
    try FileIO.write(cards.encoded(), to: "\(directory)/cards.json")
}

/// Renders the card (title and description) for every user; returns the
/// seconds it took and the bytes it wrote.
func renderAll(_ title: Template, _ description: Template, users: [JSONObject]) throws -> (seconds: Double, bytes: Int) {
    var bytes = 0
    let clock = ContinuousClock()
    let start = clock.now
    for user in users {
        let context = RenderContext(attributes: user, now: Workload.now)
        bytes += try title.render(context).utf8.count
        bytes += try description.render(context).utf8.count
    }
    let elapsed = clock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, bytes)
}

func measure(_ directory: String, round: Int) throws {
    let users = Workload.users()
    let title = try Template(Workload.title)
    let description = try Template(Workload.description)
    // One untimed pass warms caches and the allocator.
    _ = try renderAll(title, description, users: Array(users.prefix(1000)))
    let (seconds, bytes) = try renderAll(title, description, users: users)
    let perCard = seconds / Double(users.count)
    print("bunting        \(users.count) cards: \(format(perCard * 1e6, 2)) µs a card (title and description), \(bytes) bytes")

    // Parsing, once per document load: both templates, 2,000 times.
    let clock = ContinuousClock()
    let parseStart = clock.now
    var parsed = 0
    for _ in 0..<2000 {
        parsed += try Template(Workload.title).isPlainText ? 0 : 1
        parsed += try Template(Workload.description).isPlainText ? 0 : 1
    }
    let parseElapsed = clock.now - parseStart
    let parseSeconds = Double(parseElapsed.components.seconds) + Double(parseElapsed.components.attoseconds) / 1e18
    print("bunting        parse: \(format(parseSeconds / Double(parsed) * 1e6, 2)) µs a template")
    let result: JSON = ["perCard": .real(perCard), "bytes": .int(bytes), "perParse": .real(parseSeconds / Double(parsed))]
    try FileIO.write(result.encoded(), to: "\(directory)/swift-\(round).json")
}

func profile(_ count: Int) throws {
    let users = Workload.users(count: count)
    let title = try Template(Workload.title)
    let description = try Template(Workload.description)
    let (_, bytes) = try renderAll(title, description, users: users)
    print("rendered \(count) cards, \(bytes) bytes")
}

func report(_ directory: String, rounds: Int) throws {
    func best(_ prefix: String, _ key: String) throws -> Double {
        try (1...rounds).map { try JSON.parse(try FileIO.read("\(directory)/\(prefix)-\($0).json"))[key]?.doubleValue ?? .infinity }.min() ?? .nan
    }
    let ours = try best("swift", "perCard")
    let theirs = try best("python", "perCard")
    let ourParse = try best("swift", "perParse")
    let theirParse = try best("python", "perParse")
    let ourBytes = try JSON.parse(try FileIO.read("\(directory)/swift-1.json"))["bytes"]?.integerValue ?? -1
    let theirBytes = try JSON.parse(try FileIO.read("\(directory)/python-1.json"))["bytes"]?.integerValue ?? -2
    let version = try JSON.parse(try FileIO.read("\(directory)/python-1.json"))["version"]?.stringValue ?? "?"
    print("")
    print("BuntingTemplates vs python-liquid \(version) in-process (\(Workload.userCount) users, release build, best of \(rounds) alternating rounds)")
    print(pad("metric", 44) + pad("Bunting", 14) + pad("python-liquid", 16) + "ratio")
    let ratio = theirs / ours
    print(pad("render a card (title + description)", 44) + pad("\(format(ours * 1e6, 2)) µs", 14) + pad("\(format(theirs * 1e6, 2)) µs", 16) + "\(format(ratio, 1))×")
    print(pad("parse a template", 44) + pad("\(format(ourParse * 1e6, 2)) µs", 14) + pad("\(format(theirParse * 1e6, 2)) µs", 16) + "\(format(theirParse / ourParse, 1))×")
    print("same text on both sides: \(ourBytes == theirBytes ? "yes" : "NO") (\(ourBytes) and \(theirBytes) bytes)")
    print("target: render ≥ 10× python-liquid: \(ratio >= 10 ? "met" : "missed")")
    if ourBytes != theirBytes { exit(1) }
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

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("workload", 3): try workload(arguments[2])
    case ("measure", 4): try measure(arguments[2], round: Int(arguments[3]) ?? 1)
    case ("profile", 3): try profile(Int(arguments[2]) ?? 1000)
    case ("report", 4): try report(arguments[2], rounds: Int(arguments[3]) ?? 1)
    default:
        print("usage: bunting-templates-bench workload DIR | measure DIR ROUND | profile N | report DIR ROUNDS")
        exit(2)
    }
} catch {
    print("bunting-templates-bench: \(error)")
    exit(1)
}
