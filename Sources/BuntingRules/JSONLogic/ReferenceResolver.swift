import BuntingJSON

/// What a `$ref` names, as the compiler sees it.
enum ReferenceResolution {
    case compiled(Node, depth: Int, operations: Int)
    case unknown
    /// The evaluator was refused; `cause` is the first problem of the chain
    /// that refused it (never a message that quotes another's, so that a
    /// chain of n refusals costs n short messages, not n² characters).
    case invalid(cause: RuleCompileError)
}

/// Looks up `$ref`s for the compiler: in finished `RuleEvaluators`, or in
/// `$evaluators` being compiled in `EvaluatorOrder`, which compiles each
/// evaluator after those it names, so that a lookup finds them finished.
final class ReferenceResolver {
    private let definitions: JSONObject
    private let pointerPrefix: String
    private let maxDepth: Int
    private let attributes: AttributeTable
    private(set) var compiled: [ExactString: RuleEvaluators.Compiled]
    /// Each refused evaluator's own problem, and the first problem of its chain.
    private(set) var failures: [ExactString: RuleEvaluators.Failure]

    /// Resolves against evaluators compiled earlier.
    init(_ evaluators: RuleEvaluators) {
        definitions = JSONObject()
        pointerPrefix = ""
        maxDepth = 0
        attributes = AttributeTable()
        compiled = evaluators.compiled
        failures = evaluators.failures
    }

    /// Compiles `definitions` as `compile(_:)` is called, in `EvaluatorOrder`.
    init(definitions: JSONObject, pointerPrefix: String, maxDepth: Int, attributes: AttributeTable) {
        self.attributes = attributes
        self.definitions = definitions
        self.pointerPrefix = pointerPrefix
        self.maxDepth = maxDepth
        compiled = [:]
        failures = [:]
    }

    func resolve(_ name: String) -> ReferenceResolution {
        let key = ExactString(name)
        if let done = compiled[key] { return .compiled(done.node, depth: done.depth, operations: done.operations) }
        if let failure = failures[key] { return .invalid(cause: failure.cause) }
        // Not compiled (yet): `EvaluatorOrder` compiles what an evaluator
        // names before it, so this is a name that is not an evaluator.
        return .unknown
    }

    /// Compiles the evaluator `name`, whose references are compiled or refused already.
    func compile(_ name: String) {
        guard let rule = definitions[name] else { return }
        var compiler = Compiler(
            references: self, attributes: attributes, maxDepth: maxDepth,
            pointerPrefix: pointerPrefix + JSONPointer(tokens: [name]).description)
        do {
            let node = try compiler.compile(rule)
            compiled[ExactString(name)] = RuleEvaluators.Compiled(
                node: node, depth: compiler.deepest, operations: compiler.operations)
        } catch {
            failures[ExactString(name)] = RuleEvaluators.Failure(
                problem: error, cause: compiler.refusedReference ?? error)
        }
    }

    /// Refuses `name` before compiling it (a cycle, a chain too long).
    func refuse(_ name: String, at tokens: [String], _ message: String) {
        let problem = RuleCompileError(
            pointer: pointerPrefix + JSONPointer(tokens: [name] + tokens).description, message: message)
        failures[ExactString(name)] = RuleEvaluators.Failure(problem: problem, cause: problem)
    }
}
