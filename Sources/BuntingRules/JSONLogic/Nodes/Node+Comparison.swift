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
                guard try interpreter.holds(comparison, previous, next) else { return false }
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
        /// Whether the literal is a primitive whose coercion costs a constant
        /// (a number, or a string of fewer than `Interpreter.bytesPerUnit`
        /// bytes), so that comparing it with any primitive costs nothing more
        /// than the operation, unless a long string must be parsed as a number.
        private let literalIsCheap: Bool
        private let literalIsString: Bool
        /// The literal's value when it is a number (NaN otherwise, unused).
        private let literalNumber: Double
        private let literalIsNumber: Bool
        /// The literal when it is such a short string ("" otherwise, unused):
        /// two strings, the usual case after two numbers, compare by their
        /// code units directly. Not optional, so that reading it binds no copy.
        private let shortLiteralText: String
        private let literalIsShortText: Bool
        /// Whether the comparison is an equality (`==` `===` `!=` `!==`) with
        /// such a short literal of ASCII only, which `JavaScript.sameCodeUnits(_:ascii:)`
        /// decides faster; and whether equal strings make it hold.
        private let isEqualityWithASCII: Bool
        private let holdsWhenEqual: Bool

        init(_ comparison: Comparison, _ operand: Node, _ literal: JSON, literalFirst: Bool) {
            self.comparison = comparison
            self.operand = InspectedOperand(operand)
            self.literal = literal
            self.literalFirst = literalFirst
            if case .string(let text) = literal {
                literalIsString = true
                literalIsCheap = text.utf8.count < Interpreter.bytesPerUnit
            } else {
                literalIsString = false
                literalIsCheap = literal.isPrimitive
            }
            literalIsNumber = literal.numberValue != nil
            literalNumber = literal.numberValue ?? .nan
            literalIsShortText = literalIsString && literalIsCheap
            shortLiteralText = literalIsShortText ? literal.stringValue ?? "" : ""
            switch comparison {
            case .looseEqual, .strictEqual: holdsWhenEqual = true
            default: holdsWhenEqual = false
            }
            let isEquality = holdsWhenEqual || comparison == .looseNotEqual || comparison == .strictNotEqual
            isEqualityWithASCII = isEquality && literalIsShortText && shortLiteralText.utf8.allSatisfy { $0 < 0x80 }
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            // The answer when the operand's value settles it cheaply (nil when
            // not): a Bool? keeps the common case free of copies of the value.
            let cheap = try operand.inspect(&interpreter) { value -> Bool? in
                if literalIsNumber, let a = value.numberValue {
                    return literalFirst ? comparison.holds(literalNumber, a) : comparison.holds(a, literalNumber)
                }
                if literalIsShortText, case .string(let text) = value {
                    if isEqualityWithASCII {
                        return JavaScript.sameCodeUnits(text, ascii: shortLiteralText) == holdsWhenEqual
                    }
                    return literalFirst
                        ? comparison.holds(shortLiteralText, text) : comparison.holds(text, shortLiteralText)
                }
                guard literalIsCheap, value.isPrimitive else { return nil }
                // A long string compared with a number is parsed: charged.
                if !literalIsString, case .string(let text) = value, text.utf8.count >= Interpreter.bytesPerUnit,
                    comparison != .strictEqual, comparison != .strictNotEqual
                {
                    return nil
                }
                return literalFirst ? comparison.holdsCheaply(literal, value) : comparison.holdsCheaply(value, literal)
            }
            if let cheap { return cheap }
            // Rare: an array, an object, a long string. Read again (the
            // operand is a variable or a pure operation), and charged.
            let value = try operand.node.evaluate(&interpreter)
            return literalFirst
                ? try interpreter.holds(comparison, literal, value) : try interpreter.holds(comparison, value, literal)
        }
    }
}
