import BuntingJSON

/// What a `$ref` names, as the compiler sees it.
enum ReferenceResolution {
    case compiled(Node, depth: Int)
    case unknown
    case cycle([String])
    case invalid(RuleCompileError)
}

/// Looks up `$ref`s for the compiler: in finished `RuleEvaluators`, or in
/// `$evaluators` still being compiled, where it compiles on first use and
/// tracks the chain of names being compiled to catch cycles.
final class ReferenceResolver {
    private let definitions: JSONObject
    private let pointerPrefix: String
    private let maxDepth: Int
    private let attributes: AttributeTable
    private(set) var compiled: [String: RuleEvaluators.Compiled]
    private(set) var failures: [String: RuleCompileError]
    private var inProgress: [String] = []

    /// Resolves against evaluators compiled earlier.
    init(_ evaluators: RuleEvaluators) {
        definitions = JSONObject()
        pointerPrefix = ""
        maxDepth = 0
        attributes = AttributeTable()
        compiled = evaluators.compiled
        failures = evaluators.failures
    }

    /// Compiles `definitions` on demand.
    init(definitions: JSONObject, pointerPrefix: String, maxDepth: Int, attributes: AttributeTable) {
        self.attributes = attributes
        self.definitions = definitions
        self.pointerPrefix = pointerPrefix
        self.maxDepth = maxDepth
        compiled = [:]
        failures = [:]
    }

    func resolve(_ name: String) -> ReferenceResolution {
        if let done = compiled[name] { return .compiled(done.node, depth: done.depth) }
        if let failure = failures[name] { return .invalid(failure) }
        if let start = inProgress.firstIndex(of: name) {
            return .cycle(Array(inProgress[start...]) + [name])
        }
        guard let rule = definitions[name] else { return .unknown }

        inProgress.append(name)
        defer { inProgress.removeLast() }
        var compiler = Compiler(
            references: self, attributes: attributes, maxDepth: maxDepth,
            pointerPrefix: pointerPrefix + JSONPointer(tokens: [name]).description)
        do {
            let node = try compiler.compile(rule)
            compiled[name] = RuleEvaluators.Compiled(node: node, depth: compiler.deepest)
            return .compiled(node, depth: compiler.deepest)
        } catch {
            failures[name] = error
            return .invalid(error)
        }
    }
}
