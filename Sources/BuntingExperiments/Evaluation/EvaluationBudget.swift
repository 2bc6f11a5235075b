/// The steps one evaluation may still take (see
/// `PayloadLimits.maxEvaluationSteps`), and whether it ran out.
struct EvaluationBudget {
    var steps: Int
    private(set) var exhausted = false

    init(steps: Int) { self.steps = steps }

    /// Takes `count` steps; false (and exhausted from then on) when there were not enough.
    @inline(__always)
    mutating func take(_ count: Int = 1) -> Bool {
        steps -= count
        if steps < 0 {
            steps = 0
            exhausted = true
            return false
        }
        return true
    }

    mutating func markExhausted() {
        steps = 0
        exhausted = true
    }
}
