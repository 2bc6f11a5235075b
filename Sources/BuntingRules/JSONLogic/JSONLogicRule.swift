import BuntingJSON

/// A JSONLogic rule, compiled once from JSON and evaluated any number of
/// times, from any thread.
///
/// Semantics are json-logic-js's (JavaScript's coercions and truthiness),
/// with flagd's operators (`fractional`, `sem_ver`, `starts_with`,
/// `ends_with`) and the proposals `val`, `exists`, `??`, `try`, `throw` and
/// `preserve`. Where json-logic-js gives NaN, throws, or ignores operands,
/// the newer engines' answer is taken: comparisons chain over any number of
/// operands, `-` `/` `%` chain, `*` of nothing is 1, `reduce`'s initial value
/// is evaluated, `and`/`or` of nothing are false. The README (JSONLogic compatibility)
/// lists the differences.
///
/// Refused at compile time, with a pointer to the offending part:
/// - an object with more than one key where an operation is expected (an
///   empty object is a literal);
/// - an unknown operator;
/// - the wrong number of arguments where the count is fixed or bounded:
///   `var` ≤ 2; `!`, `!!` ≤ 1; `==` `===` `!=` `!==` `<` `<=` `>` `>=` ≥ 2;
///   `-` `/` `min` `max` ≥ 1; `%` ≥ 2; `map` `filter` `all` `some` `none` `in`
///   `missing_some` = 2; `reduce` `substr` 2–3; `log` `throw` = 1; `try` ≥ 1;
/// - a `var` path that is not a string, number, null or operation, and a
///   `val`/`exists` segment that is not a string, number or operation;
/// - a `$ref` that is not a string, names no evaluator, names one that does
///   not compile, closes a cycle of evaluators, or ends a chain of more than
///   `EvaluatorOrder.maxChain` `$ref`s;
/// - more than `maxOperations` operations, `$ref`s inlined;
/// - nesting deeper than `maxDepth` (arrays and objects, `$ref`s inlined).
///
/// flagd's operators are not refused for what flagd answers with null (the
/// wrong number of arguments, an unknown `sem_ver` comparison, malformed
/// fractions): they evaluate to null, as in flagd.
public struct JSONLogicRule: Sendable {
    let root: Node
    /// Which `fractional` generation the rule's document chose.
    public let fractionalHashing: FractionalHashing

    /// Arrays and objects may nest this deep in a rule by default.
    public static let defaultMaxDepth = 256

    /// A rule may stand for at most this many operations once its `$ref`s
    /// are inlined, each shared evaluator counted every time it is used:
    /// far beyond a rule a person writes (tens), and a bound on what a few
    /// kilobytes of evaluators referring twice to each other can expand to.
    public static let maxOperations = 100_000

    /// Compiles `rule`.
    ///
    /// - Parameters:
    ///   - evaluators: shared fragments for `{"$ref": "name"}`.
    ///   - pointerPrefix: prepended to error pointers, e.g. `/banners/0/targeting`.
    ///   - fractionalHashing: how `fractional` buckets; the document's choice.
    ///   - maxDepth: nesting limit for arrays and objects in the rule.
    public init(
        _ rule: JSON, evaluators: RuleEvaluators = .none, pointerPrefix: String = "",
        fractionalHashing: FractionalHashing = .default, maxDepth: Int = JSONLogicRule.defaultMaxDepth
    ) throws(RuleCompileError) {
        try self.init(
            rule, evaluators: evaluators, pointerPrefix: pointerPrefix, fractionalHashing: fractionalHashing,
            maxDepth: maxDepth, attributes: AttributeTable())
    }

    /// Compiles with a given attribute table (a flag set shares one, so that
    /// resolving all its flags reads each attribute of a context once).
    init(
        _ rule: JSON, evaluators: RuleEvaluators, pointerPrefix: String, fractionalHashing: FractionalHashing,
        maxDepth: Int, attributes: AttributeTable
    ) throws(RuleCompileError) {
        var compiler = Compiler(
            references: ReferenceResolver(evaluators), attributes: attributes, maxDepth: maxDepth,
            pointerPrefix: pointerPrefix)
        root = try compiler.compile(rule)
        self.fractionalHashing = fractionalHashing
    }

    /// Compiles `rule` as one of many from the same document: each part
    /// written the same way as in a rule compiled before with `shared` is
    /// that rule's node (see `SharedRuleParts`), and the rest keeps a copy
    /// of its constants rather than parts of the parsed document.
    /// `shared` also gives the evaluators `$ref` names.
    public init(
        _ rule: JSON, sharing shared: SharedRuleParts, pointerPrefix: String = "",
        fractionalHashing: FractionalHashing = .default, maxDepth: Int = JSONLogicRule.defaultMaxDepth
    ) throws(RuleCompileError) {
        var compiler = Compiler(
            references: ReferenceResolver(shared.evaluators), attributes: shared.attributes, maxDepth: maxDepth,
            pointerPrefix: pointerPrefix, shared: shared)
        root = try compiler.compileRoot(rule)
        self.fractionalHashing = fractionalHashing
    }

    /// Evaluates the rule against `data`.
    ///
    /// - Parameters:
    ///   - flagd: flagd's `$flagd` properties, read by `var` as if they were
    ///     in `data` (which is not copied); nil outside flag evaluation.
    ///   - limits: bounds on the work and the values built.
    /// - Returns: the result; NaN and infinities, which JSON cannot hold,
    ///   come back as null, as `JSON.stringify` writes them.
    public func evaluate(
        _ data: JSON, flagd: FlagdProperties? = nil, limits: EvaluationLimits = .default
    ) throws(RuleEvaluationError) -> JSON {
        let result = try Interpreter.with(data: data, flagd: flagd, hashing: fractionalHashing, limits: limits) {
            (interpreter) throws(RuleEvaluationError) in try root.evaluate(&interpreter)
        }
        switch result {
        case .real, .array, .object: return Self.replacingNonFinite(result)
        default: return result
        }
    }

    /// Evaluates, and says how many work units the evaluation took (see
    /// `EvaluationLimits.maxSteps`): for tests and benchmarks of the budget.
    func evaluateCountingWork(
        _ data: JSON, flagd: FlagdProperties? = nil, limits: EvaluationLimits = .default
    ) throws(RuleEvaluationError) -> (result: JSON, work: Int) {
        try Interpreter.with(data: data, flagd: flagd, hashing: fractionalHashing, limits: limits) {
            (interpreter) throws(RuleEvaluationError) in (try root.evaluate(&interpreter), interpreter.steps)
        }
    }

    /// Evaluates and applies JSONLogic truthiness: what banner and card
    /// targeting asks.
    public func isSatisfied(
        by data: JSON, flagd: FlagdProperties? = nil, limits: EvaluationLimits = .default
    ) throws(RuleEvaluationError) -> Bool {
        try Interpreter.with(data: data, flagd: flagd, hashing: fractionalHashing, limits: limits) {
            (interpreter) throws(RuleEvaluationError) in try root.isTruthy(&interpreter)
        }
    }

    /// `isSatisfied`, as one evaluation of a round: bounded by what `budget`
    /// has left as well as by `limits`, and charged to it.
    public func isSatisfied(
        by data: JSON, flagd: FlagdProperties? = nil, limits: EvaluationLimits = .default, budget: inout WorkBudget
    ) throws(RuleEvaluationError) -> Bool {
        guard !budget.isSpent else { throw .tooManySteps(limit: budget.units) }
        let outcome = Interpreter.with(
            data: data, flagd: flagd, hashing: fractionalHashing, limits: budget.limits(for: limits)
        ) {
            (interpreter) -> (Result<Bool, RuleEvaluationError>, Int) in
            do throws(RuleEvaluationError) {
                return (.success(try root.isTruthy(&interpreter)), interpreter.steps)
            } catch {
                return (.failure(error), interpreter.steps)
            }
        }
        budget.spend(outcome.1)
        return try outcome.0.get()
    }

    /// Non-finite numbers only come from arithmetic, so they sit no deeper
    /// than the rule nests; the walk stops at JSON's depth limit, so that deep
    /// data handed back by `var` cannot exhaust the stack.
    static func replacingNonFinite(_ value: JSON, depth: Int = 0) -> JSON {
        guard depth < JSON.defaultMaxDepth else { return value }
        switch value {
        case .real(let number) where !number.isFinite:
            return .null
        case .array(let elements) where elements.contains(where: { containsNonFinite($0, depth: depth + 1) }):
            return .array(elements.map { replacingNonFinite($0, depth: depth + 1) })
        case .object(let object) where object.contains(where: { containsNonFinite($0.value, depth: depth + 1) }):
            var copy = JSONObject()
            for (key, member) in object { copy[key] = replacingNonFinite(member, depth: depth + 1) }
            return .object(copy)
        default:
            return value
        }
    }

    private static func containsNonFinite(_ value: JSON, depth: Int) -> Bool {
        guard depth < JSON.defaultMaxDepth else { return false }
        switch value {
        case .real(let number): return !number.isFinite
        case .array(let elements): return elements.contains { containsNonFinite($0, depth: depth + 1) }
        case .object(let object): return object.contains { containsNonFinite($0.value, depth: depth + 1) }
        default: return false
        }
    }
}
