import BuntingJSON

/// flagd's shared rule fragments (`$evaluators`), compiled once and inlined
/// wherever a rule says `{"$ref": "name"}`.
///
/// Compiling never fails as a whole: each evaluator that cannot be compiled
/// (a bad rule, an unknown or circular `$ref`) is listed in `problems`, and a
/// rule that refers to it is refused with a pointer to its `$ref`.
public struct RuleEvaluators: Sendable {
    struct Compiled: Sendable {
        let node: Node
        /// Nesting depth of the evaluator's rule, with its own `$ref`s inlined.
        let depth: Int
        /// Operations of the rule with its `$ref`s inlined (see `Compiler.operations`).
        let operations: Int
    }

    struct Failure: Sendable {
        /// Where and why this evaluator was refused.
        let problem: RuleCompileError
        /// The first problem of the chain of `$ref`s that refused it.
        let cause: RuleCompileError
    }

    let compiled: [ExactString: Compiled]
    let failures: [ExactString: Failure]

    /// Every evaluator that could not be compiled, in document order, with
    /// pointers under `pointerPrefix`.
    public let problems: [RuleCompileError]

    /// No shared evaluators: every `$ref` is unknown.
    public static let none = RuleEvaluators(compiled: [:], failures: [:], problems: [])

    /// Compiles the members of a `$evaluators` object.
    ///
    /// - Parameters:
    ///   - definitions: name → JSONLogic rule.
    ///   - pointerPrefix: the pointer of the `$evaluators` object itself.
    ///   - maxDepth: the nesting limit, as for `JSONLogicRule`.
    public init(
        _ definitions: JSONObject, pointerPrefix: String = "/$evaluators",
        maxDepth: Int = JSONLogicRule.defaultMaxDepth
    ) {
        self.init(definitions, pointerPrefix: pointerPrefix, maxDepth: maxDepth, attributes: AttributeTable())
    }

    /// Compiles with the attribute table of the rules that will use them.
    init(_ definitions: JSONObject, pointerPrefix: String, maxDepth: Int, attributes: AttributeTable) {
        let resolver = ReferenceResolver(
            definitions: definitions, pointerPrefix: pointerPrefix, maxDepth: maxDepth, attributes: attributes)
        let order = EvaluatorOrder(definitions)
        for refusal in order.refusals { resolver.refuse(refusal.name, at: refusal.at, refusal.message) }
        for name in order.names { resolver.compile(name) }
        let problems = definitions.keys.compactMap { resolver.failures[ExactString($0)]?.problem }
        self.init(compiled: resolver.compiled, failures: resolver.failures, problems: problems)
    }

    init(compiled: [ExactString: Compiled], failures: [ExactString: Failure], problems: [RuleCompileError]) {
        self.compiled = compiled
        self.failures = failures
        self.problems = problems
    }

    /// The names of the evaluators that compiled.
    public var names: [String] { compiled.keys.map(\.string).sorted() }
}
