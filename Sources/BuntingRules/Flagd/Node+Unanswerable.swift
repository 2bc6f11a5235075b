import BuntingJSON

extension Node {
    /// A flagd operator given what it cannot work with at all (`sem_ver` with
    /// two arguments or an unknown comparison, `starts_with` with one): null,
    /// which makes a flag fall back to its default variant. Its operands are
    /// still evaluated, as flagd evaluates every operand before the operator
    /// looks at them, so that their steps and errors are the same.
    final class Unanswerable: Node, @unchecked Sendable {
        let operands: Operands

        init(_ nodes: [Node]) { operands = Operands(nodes) }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            for index in 0..<operands.count { _ = try operands.evaluate(index, &interpreter) }
            return .null
        }
    }
}
