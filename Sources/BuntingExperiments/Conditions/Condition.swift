import BuntingJSON

/// A GrowthBook targeting condition, compiled once and evaluated as the
/// JavaScript SDK's `evalCondition` evaluates it: the semantics of
/// `mongrule.ts`, JavaScript's coercions included, within a step budget.
public struct Condition: Sendable {
    let root: ConditionNode

    init(root: ConditionNode) { self.root = root }

    /// Compiles `json` against `savedGroups`; a problem (with the pointer of
    /// the value at fault, below `pointer`) for what is out of bounds.
    public init(
        _ json: JSON, savedGroups: SavedGroups = .none, limits: PayloadLimits = .default,
        at pointer: JSONPointer = .root
    ) throws(PayloadProblem) {
        var compiler = ConditionCompiler(savedGroups: savedGroups, limits: limits)
        do {
            root = try compiler.condition(json, at: pointer)
        } catch {
            throw error.problem
        }
    }

    /// Whether `attributes` pass. A condition JavaScript would throw on, or
    /// one whose evaluation runs out of `limits.maxEvaluationSteps`, fails.
    public func evaluate(_ attributes: JSON, limits: PayloadLimits = .default) -> Bool {
        var budget = EvaluationBudget(steps: limits.maxEvaluationSteps)
        return passes(attributes, &budget)
    }

    func passes(_ object: JSON, _ budget: inout EvaluationBudget) -> Bool {
        do {
            return try root.passes(object, &budget)
        } catch {
            return false
        }
    }

    /// Passes for the user's `attributes`, whose values the budget keeps.
    func passes(attributes: JSON, _ budget: inout EvaluationBudget) -> Bool {
        budget.testsAttributes = true
        defer { budget.testsAttributes = false }
        return passes(attributes, &budget)
    }
}

extension PayloadProblem: Error {}
