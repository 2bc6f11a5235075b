/// Bounds on one evaluation, so that a hostile rule or hostile data cannot
/// hang the process or exhaust its memory. Exceeding one is a
/// `RuleEvaluationError`, never a crash.
public struct EvaluationLimits: Sendable, Hashable {
    /// The work budget of one evaluation (of one flag, when a flag set is
    /// resolved), in work units. A work unit is about the cost of evaluating
    /// one operation, tens of nanoseconds; it counts the work an evaluation
    /// really does, not only the operations:
    /// - each operation evaluated: 1;
    /// - each array element visited or compared: 1 (an iteration of `map`,
    ///   `filter`, `reduce`, `all`, `some`, `none`; an element `in` compares;
    ///   an element of an array spread into arithmetic or turned into a string;
    ///   a key `missing` looks up), and each element built: 2 (by `merge`, an
    ///   array written in the rule, `missing`'s list);
    /// - each 16 bytes of string scanned, compared, parsed, hashed or built:
    ///   1 (`in`'s search, string comparisons, `cat`'s result, `substr`'s text,
    ///   `ToNumber` of a string, `ToString` of an array, a bucketing value),
    ///   and each 4 bytes of a version `sem_ver` reads; strings under 16 bytes
    ///   cost nothing beyond their operation;
    /// - each component of a computed `var` path: 6; each member of the
    ///   context copied to show it whole with `$flagd`: 4; each fraction a
    ///   `fractional` reads at evaluation: 1.
    ///
    /// Stored at most Int.max / 2, so that adding a charge cannot overflow.
    public var maxSteps: Int {
        get { budget }
        set { budget = min(newValue, Int.max / 2) }
    }
    private var budget: Int
    /// UTF-8 bytes of any string an operator builds (cat, substr).
    public var maxStringLength: Int
    /// Elements of any array an operator builds (merge, map, filter).
    public var maxArrayLength: Int

    public init(maxSteps: Int = 1_000_000, maxStringLength: Int = 1 << 20, maxArrayLength: Int = 100_000) {
        budget = min(maxSteps, Int.max / 2)
        self.maxStringLength = maxStringLength
        self.maxArrayLength = maxArrayLength
    }

    /// One million work units, 1 MiB strings, 100,000-element arrays: far
    /// beyond any targeting rule (a typical one takes 5–50 units). The
    /// costliest rule that fits the budget takes about 20–35 ms in a release
    /// build on a 2-core machine (`bunting-rules-bench hostile` measures
    /// rules built to spend it slowly).
    public static let `default` = EvaluationLimits()
}
