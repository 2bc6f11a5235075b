import BuntingJSON

/// What the rules compiled from one document have in common, compiled once:
/// every rule, or part of a rule, written the same way in several places
/// (`{"var": "country"}`, `["NO", "SE", "DK"]`, `["on", 50]`, a whole
/// targeting copied from flag to flag) becomes one node that all of them
/// share. Nodes are immutable and hold nothing of the place they were
/// written at (pointers only go into compile errors, which are not kept),
/// so a shared node answers as each copy would have. Thousands of flags
/// then cost thousands of small objects less: at 10,000 flags and 10,000
/// cards with the same few rules, the compiled nodes and their constants
/// took most of the 33 MB the loaded document kept.
///
/// One instance serves the rules of one document that use the same
/// evaluators and attribute table, on one thread, while they are compiled;
/// it is dropped afterwards (the rules keep the nodes, not it).
public final class SharedRuleParts: @unchecked Sendable {
    let evaluators: RuleEvaluators
    let attributes: AttributeTable
    /// Each part compiled so far, by its exact JSON, with how many levels it
    /// nests below the place it was compiled at (see `Compiler.compile`) and
    /// the operations it stands for (see `Compiler.operations`).
    private var nodes: [ExactJSON: (node: Node, height: Int, operations: Int)] = [:]

    /// For rules that refer to `evaluators`; each gets a table of its own attributes.
    public convenience init(evaluators: RuleEvaluators = .none) {
        self.init(evaluators: evaluators, attributes: AttributeTable())
    }

    init(evaluators: RuleEvaluators, attributes: AttributeTable) {
        self.evaluators = evaluators
        self.attributes = attributes
    }

    func node(for json: ExactJSON) -> (node: Node, height: Int, operations: Int)? {
        nodes[json]
    }

    func remember(_ node: Node, height: Int, operations: Int, for json: ExactJSON) {
        nodes[json] = (node, height, operations)
    }
}
