/// Bounds on a payload and on one evaluation, so that a hostile payload or
/// hostile attributes cannot hang the process or exhaust its memory. Past a
/// bound, the payload (for its size) or the feature at fault is refused
/// with its pointer; an evaluation that runs out of steps fails closed.
public struct PayloadLimits: Sendable, Hashable {
    /// Bytes of payload text (the plain sections once decrypted).
    public var maxPayloadBytes: Int
    /// Conditions nested in conditions (`$and`, `$or`, `$not`, `$elemMatch`,
    /// `$all`, operator objects, …), the outermost counting as 1.
    public var maxConditionDepth: Int
    /// Entries of `variations`, `weights`, `ranges`, `meta` and bandit
    /// leaves' `weights`.
    public var maxVariations: Int
    /// UTF-16 code units of a `$regex` or `$regexi` pattern.
    public var maxPatternLength: Int
    /// Instructions all of a payload's patterns compile to together (one
    /// pattern compiles to at most 20,000: `a{9999}` is six characters).
    public var maxPatternInstructions: Int
    /// Prerequisites evaluated within prerequisites: a chain of features
    /// each gated on the next is evaluated by recursion, and this bounds it.
    /// Past it the evaluation fails closed, as when it runs out of steps.
    public var maxPrerequisiteDepth: Int
    /// The work of evaluating one feature (its prerequisites included): one
    /// step per condition node, feature and rule visited, and per instruction
    /// a regular expression runs. Past it, conditions not yet decided fail.
    public var maxEvaluationSteps: Int

    public init(
        maxPayloadBytes: Int = 64 << 20, maxConditionDepth: Int = 64, maxVariations: Int = 1_000,
        maxPatternLength: Int = 1_024, maxPatternInstructions: Int = 2_000_000, maxPrerequisiteDepth: Int = 64,
        maxEvaluationSteps: Int = 1_000_000
    ) {
        self.maxPatternInstructions = maxPatternInstructions
        self.maxPrerequisiteDepth = maxPrerequisiteDepth
        self.maxPayloadBytes = maxPayloadBytes
        self.maxConditionDepth = maxConditionDepth
        self.maxVariations = maxVariations
        self.maxPatternLength = maxPatternLength
        self.maxEvaluationSteps = maxEvaluationSteps
    }

    /// 64 MiB payloads, conditions 64 deep, 1,000 variations, 1,024-unit
    /// patterns compiling to 2 million instructions in all, prerequisites 64
    /// deep, a million steps (a few milliseconds at worst) per feature.
    public static let `default` = PayloadLimits()
}
