import BuntingJSON

/// `==`, `===`, `!=`, `!==`, `<`, `<=`, `>`, `>=`.
enum Comparison: String, Sendable {
    case looseEqual = "==", strictEqual = "===", looseNotEqual = "!=", strictNotEqual = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    func holds(_ lhs: JSON, _ rhs: JSON) -> Bool {
        // Two numbers, the common case: every operator compares their values.
        if let a = lhs.numberValue, let b = rhs.numberValue { return holds(a, b) }
        switch self {
        case .looseEqual: return JavaScript.looseEquals(lhs, rhs)
        case .looseNotEqual: return !JavaScript.looseEquals(lhs, rhs)
        case .strictEqual: return JavaScript.strictEquals(lhs, rhs)
        case .strictNotEqual: return !JavaScript.strictEquals(lhs, rhs)
        case .less: return JavaScript.compare(lhs, rhs, .less)
        case .lessOrEqual: return JavaScript.compare(lhs, rhs, .lessOrEqual)
        case .greater: return JavaScript.compare(lhs, rhs, .greater)
        case .greaterOrEqual: return JavaScript.compare(lhs, rhs, .greaterOrEqual)
        }
    }

    /// The comparison of two numbers (NaN makes all but `!=`/`!==` false).
    @inline(__always)
    func holds(_ a: Double, _ b: Double) -> Bool {
        switch self {
        case .looseEqual, .strictEqual: return a == b
        case .looseNotEqual, .strictNotEqual: return a != b
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }
}

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
