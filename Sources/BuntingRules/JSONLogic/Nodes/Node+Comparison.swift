import BuntingJSON

/// The comparison operators' nodes (see `Comparison`).
extension Node {
    /// Any number of operands, chained: `{"<": [a, b, c]}` is a < b < c, and
    /// evaluation stops at the first pair that fails (json-logic-js chains
    /// only `<` and `<=` and ignores a third operand of the others).
    final class ComparisonChain: Node, @unchecked Sendable {
        let comparison: Comparison
        /// At least two.
        let operands: Operands

        init(_ comparison: Comparison, _ nodes: [Node]) {
            self.comparison = comparison
            operands = Operands(nodes)
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            var previous = try operands.evaluate(0, &interpreter)
            for index in 1..<operands.count {
                let next = try operands.evaluate(index, &interpreter)
                guard comparison.holds(previous, next) else { return false }
                previous = next
            }
            return true
        }
    }

    /// Two operands, one of them literal: the common `{"==": [{"var": "x"}, 3]}`.
    final class ComparisonWithLiteral: Node, @unchecked Sendable {
        let comparison: Comparison
        let operand: InspectedOperand
        let literal: JSON
        let literalFirst: Bool

        init(_ comparison: Comparison, _ operand: Node, _ literal: JSON, literalFirst: Bool) {
            self.comparison = comparison
            self.operand = InspectedOperand(operand)
            self.literal = literal
            self.literalFirst = literalFirst
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try operand.inspect(&interpreter) { value in
                literalFirst ? comparison.holds(literal, value) : comparison.holds(value, literal)
            }
        }
    }
}
