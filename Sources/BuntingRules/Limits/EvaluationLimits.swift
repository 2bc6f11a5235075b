/// Bounds on one evaluation, so that a hostile rule or hostile data cannot
/// hang the process or exhaust its memory. Exceeding one is a
/// `RuleEvaluationError`, never a crash.
public struct EvaluationLimits: Sendable, Hashable {
    /// Work units per evaluation: one per operation evaluated, one per
    /// iteration of map/filter/reduce/all/some/none, and one per 64 elements or
    /// bytes copied by merge, cat and substr.
    public var maxSteps: Int
    /// UTF-8 bytes of any string an operator builds (cat, substr).
    public var maxStringLength: Int
    /// Elements of any array an operator builds (merge, map, filter).
    public var maxArrayLength: Int

    public init(maxSteps: Int = 1_000_000, maxStringLength: Int = 1 << 20, maxArrayLength: Int = 100_000) {
        self.maxSteps = maxSteps
        self.maxStringLength = maxStringLength
        self.maxArrayLength = maxArrayLength
    }

    /// One million steps, 1 MiB strings, 100,000-element arrays: far beyond any
    /// targeting rule (a typical one takes 5–50 steps), and about 50 ms of
    /// work at worst.
    public static let `default` = EvaluationLimits()
}
