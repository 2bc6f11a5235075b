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
        switch loop {
        case "evaluate":
            let kind = getenv("KIND").flatMap { Int(String(cString: $0)) }
            let rules = try (0..<flags).map { index in
                try JSONLogicRule(Workload.rule(kind.map { index / 8 * 8 + $0 } ?? index))
            }
            let properties = (0..<flags).map { FlagdProperties(flagKey: Workload.flagKey($0), timestamp: Workload.timestamp) }
            print("on: \(evaluateLoop(rules, properties, contexts))")
        case "resolve":
            let flagSet = try FlagSet(document: Workload.document(flags: flags))
            print("matches: \(resolveLoop(flagSet, contexts))")
        default:
            print("profile evaluate|resolve N")
            exit(2)
        }
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
