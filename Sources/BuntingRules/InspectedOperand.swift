import BuntingJSON

/// An operand whose value is only looked at (compared, searched, parsed),
/// never kept. When it is a plain `var` (no default), its value is read in
/// place where it can be (see `Interpreter.withValue(at:_:)`), so that a
/// string from the context is not retained and released just to be looked
/// at; otherwise the node is evaluated.
struct InspectedOperand: Sendable {
    let node: Node
    /// The path, when `node` is a `var` without a default.
    private let path: DataPath?

    init(_ node: Node) {
        self.node = node
        if let variable = node as? Node.Variable, variable.fallback == nil {
            path = variable.path
        } else {
            path = nil
        }
    }

    /// Calls `body` with the operand's value: the same value, steps and
    /// errors as evaluating `node`.
    @inline(__always)
    func inspect<Result>(
        _ interpreter: inout Interpreter, _ body: (JSON) throws(RuleEvaluationError) -> Result
    ) throws(RuleEvaluationError) -> Result {
        guard path != nil else { return try body(node.evaluate(&interpreter)) }
        try interpreter.step()  // the `var`'s own step
        return try interpreter.withValue(at: path!, body)
    }
}
