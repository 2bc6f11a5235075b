import BuntingCore
import BuntingJSON
import BuntingRules
import BuntingRuntime

extension Targeting {
    /// What decided whether an item applies to a user, as an explanation tells it.
    enum Decision: Equatable {
        case matches
        case notStarted(start: Double)
        case ended(end: Double)
        case targetingFalse
        case targetingFailed(String)
    }

    /// `matches(_:context:at:budget:)` with the reason when it does not.
    func decision(_ id: String, context: JSON, at now: Double, budget: inout WorkBudget) -> Decision {
        if let start = schedule.start, now < start { return .notStarted(start: start) }
        if let end = schedule.end, now >= end { return .ended(end: end) }
        guard let rule else { return .matches }
        let flagd = FlagdProperties(flagKey: id, timestamp: Int64(now.rounded(.down)))
        do {
            return try rule.isSatisfied(by: context, flagd: flagd, budget: &budget) ? .matches : .targetingFalse
        } catch {
            return .targetingFailed(error.description)
        }
    }

    /// The explanation of a decision other than `.matches`.
    static func explain(_ decision: Decision) -> (Explanation.Outcome, String) {
        switch decision {
        case .matches: (.shown, "shown")
        case .notStarted(let start): (.notStarted, "its schedule starts at \(Explanation.time(start))")
        case .ended(let end): (.ended, "its schedule ended at \(Explanation.time(end))")
        case .targetingFalse: (.notTargeted, "its targeting is false for this user")
        case .targetingFailed(let why): (.targetingError, "its targeting failed to evaluate (\(why)): counted as false")
        }
    }

    /// Why the control group takes the user, for explanations.
    var controlWhy: String {
        "the user is in its control group (controlShare \(controlShare))"
    }
}
