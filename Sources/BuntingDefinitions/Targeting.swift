import BuntingCore
import BuntingJSON
import BuntingRules
import BuntingRuntime

/// The `targeting` of a banner or card: a compiled rule (absent means
/// everyone), and the control share that sends a stable fraction of users to
/// the control group.
struct Targeting: Sendable {
    let rule: JSONLogicRule?
    let schedule: Schedule
    /// In [0, 1]: users whose stable bucket falls below it are in the control group.
    let controlShare: Double

    /// Whether the item applies to `subject` now. A rule that fails to
    /// evaluate (a bound exceeded, its own or the round's `budget`) counts
    /// as not matching.
    func matches(_ id: String, context: JSON, at now: Double, budget: inout WorkBudget) -> Bool {
        guard schedule.contains(now) else { return false }
        guard let rule else { return true }
        let flagd = FlagdProperties(flagKey: id, timestamp: Int64(now.rounded(.down)))
        do {
            return try rule.isSatisfied(by: context, flagd: flagd, budget: &budget)
        } catch {
            log.debug("targeting of \(id) failed to evaluate: \(error.description)")
            return false
        }
    }

    /// Stable per item and user, so a user stays in or out of the control group.
    func isControl(_ id: String, targetingKey: String) -> Bool {
        controlShare > 0 && StableBucketing.unitInterval("\(id):\(targetingKey)") < controlShare
    }
}

extension EvaluationSubject {
    /// The flagd evaluation context: `targetingKey` and the attributes at the top level.
    var context: JSON {
        var object = attributes
        object["targetingKey"] = .string(targetingKey)
        return .object(object)
    }
}
