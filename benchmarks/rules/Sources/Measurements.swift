import BuntingJSON
import BuntingRules

/// The Swift side of the benchmark.
enum Measurements {
    /// JSONLogic evaluations per second: every flag's rule for every context.
    static func evaluationsPerSecond(flags count: Int, contexts: [JSON]) throws -> Double {
        let rules = try (0..<count).map { try JSONLogicRule(Workload.rule($0)) }
        let properties = (0..<count).map { FlagdProperties(flagKey: Workload.flagKey($0), timestamp: Workload.timestamp) }
        var truthy = 0
        let clock = ContinuousClock()
        let start = clock.now
        for context in contexts {
            for index in 0..<count {
                if try rules[index].evaluate(context, flagd: properties[index]) == "on" { truthy += 1 }
            }
        }
        let seconds = seconds(clock.now - start)
        // Keeps the optimizer from dropping the loop.
        if truthy < 0 { print(truthy) }
        return Double(count * contexts.count) / seconds
    }

    /// The time to resolve every flag for one user, per user.
    static func resolveAllTimes(flags count: Int, contexts: [JSON]) throws -> [Double] {
        let flagSet = try FlagSet(document: Workload.document(flags: count))
        precondition(flagSet.problems.isEmpty, "\(flagSet.problems)")
        var times: [Double] = []
        times.reserveCapacity(contexts.count)
        var matches = 0
        let clock = ContinuousClock()
        for context in contexts {
            let start = clock.now
            let results = flagSet.resolveAll(context: context, timestamp: Workload.timestamp)
            times.append(seconds(clock.now - start))
            matches += results.count
        }
        if matches < 0 { print(matches) }
        return times.sorted()
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}
