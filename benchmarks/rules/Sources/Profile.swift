import Glibc
import BuntingJSON
import BuntingRules

/// A fixed, untimed workload for instruction counts and profiles:
///
///     valgrind --tool=callgrind --toggle-collect='*Profile*loop*' \
///         bunting-rules-bench profile evaluate 200
///
/// Only the loops are counted (compiling the rules and generating the
/// contexts are not), so that two builds compare exactly. The loops do what
/// `Measurements` times, without the clock. KIND=k (0–7) gives every flag
/// the rule of `Workload.rule(k)`'s kind, to count one kind alone.
enum Profile {
    static let flags = 1000

    static func run(_ loop: String, contexts count: Int) throws {
        let contexts = Workload.contexts(count: count)
        let kind = getenv("KIND").flatMap { Int(String(cString: $0)) }
        // The rule of flag `index`: its own, or one of kind `kind`.
        let ruleIndex = { (index: Int) in kind.map { index / 8 * 8 + $0 } ?? index }
        switch loop {
        case "evaluate":
            let rules = try (0..<flags).map { try JSONLogicRule(Workload.rule(ruleIndex($0))) }
            let properties = (0..<flags).map { FlagdProperties(flagKey: Workload.flagKey($0), timestamp: Workload.timestamp) }
            let start = ContinuousClock.now
            let on = evaluateLoop(rules, properties, contexts)
            report(start, rules: flags * contexts.count, "on: \(on)")
        case "resolve":
            var document = Workload.document(flags: flags)
            if kind != nil {
                var flagObjects = JSONObject()
                for index in 0..<flags {
                    var flag = document["flags"]?[Workload.flagKey(index)]?.objectValue ?? JSONObject()
                    flag["targeting"] = Workload.rule(ruleIndex(index))
                    flagObjects[Workload.flagKey(index)] = .object(flag)
                }
                document = ["flags": .object(flagObjects)]
            }
            let flagSet = try FlagSet(document: document)
            let start = ContinuousClock.now
            let matches = resolveLoop(flagSet, contexts)
            report(start, rules: flags * contexts.count, "results: \(matches)")
        default:
            print("profile evaluate|resolve N")
            exit(2)
        }
    }

    /// The loop's time per rule, for a quick look (the benchmark proper
    /// alternates rounds with datalogic-py).
    static func report(_ start: ContinuousClock.Instant, rules: Int, _ check: String) {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let nanoseconds = (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(rules)
        print("\(check); \(Int(nanoseconds * 10) / 10).\(Int(nanoseconds * 10) % 10) ns per rule")
    }

    @inline(never)
    static func evaluateLoop(_ rules: [JSONLogicRule], _ properties: [FlagdProperties], _ contexts: [JSON]) -> Int {
        var truthy = 0
        for context in contexts {
            for index in rules.indices {
                if (try? rules[index].evaluate(context, flagd: properties[index])) == "on" { truthy += 1 }
            }
        }
        return truthy
    }

    @inline(never)
    static func resolveLoop(_ flagSet: FlagSet, _ contexts: [JSON]) -> Int {
        var matches = 0
        for context in contexts {
            matches += flagSet.resolveAll(context: context, timestamp: Workload.timestamp).count
        }
        return matches
    }
}
