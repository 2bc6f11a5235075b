import BuntingJSON

/// An operand whose value is only looked at (compared, searched, parsed),
/// never kept. When it is a plain `var` (no default), it is read directly
/// (`Interpreter.withValue(at:_:)`) rather than through the `var` node: no
/// virtual call and no optional to unwrap, and no copy of the value where
/// the compiler sees its whole use (it still copies one that is passed on to
/// a call it cannot see into).
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
        try interpreter.step() // the `var`'s own step
        return try interpreter.withValue(at: path!, body)
    }
}
