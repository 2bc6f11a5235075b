/// The work budget of a round of evaluations: every flag of a user change,
/// every banner or card of a refresh. Each evaluation is bounded by
/// `EvaluationLimits.maxSteps` on its own; without a bound on the round, 200
/// flags each spending nearly all of theirs held a user change for seconds.
/// Once the round's budget is spent, the evaluations left fail as an
/// evaluation past its own budget fails.
///
/// The budget grows with the items of the round, so that a large document of
/// ordinary rules (5–50 units each) never comes near it: at least
/// `minimumUnits`, and `unitsPerItem` for each item.
public struct WorkBudget: Sendable {
    public private(set) var remaining: Int
    /// The units the round started with.
    public let units: Int

    /// About 50–150 ms of the costliest work in a release build.
    public static let minimumUnits = 4_000_000
    /// Four times what the costliest ordinary rule takes.
    public static let unitsPerItem = 200

    public init(units: Int) {
        self.units = max(0, units)
        remaining = self.units
    }

    /// The budget of a round over `items` items.
    public static func forRound(of items: Int) -> WorkBudget {
        let (perItem, overflow) = max(0, items).multipliedReportingOverflow(by: unitsPerItem)
        return WorkBudget(units: max(minimumUnits, overflow ? Int.max / 2 : min(perItem, Int.max / 2)))
    }

    /// No bound beyond each evaluation's own.
    public static var unbounded: WorkBudget { WorkBudget(units: Int.max / 2) }

    public var isSpent: Bool { remaining <= 0 }

    /// The limits of the next evaluation: its own, or what is left of the round if less.
    public func limits(for limits: EvaluationLimits) -> EvaluationLimits {
        guard remaining < limits.maxSteps else { return limits }
        var bounded = limits
        bounded.maxSteps = max(0, remaining)
        return bounded
    }

    public mutating func spend(_ units: Int) {
        remaining -= min(max(0, units), remaining)
    }

    /// What an evaluation that found the round's budget spent reports.
    public var spentMessage: String {
        "the work budget of this round of evaluations (\(units) units for all its items) is spent; "
            + "a rule of the document costs far more than targeting rules do"
    }
}
