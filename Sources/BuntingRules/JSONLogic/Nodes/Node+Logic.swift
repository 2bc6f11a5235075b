import BuntingJSON

/// `if`/`?:`, `and`, `or`, `??`, `!`, `!!`.
extension Node {
    /// `if`: pairs of condition and consequent, then an optional else.
    final class Condition: Node, @unchecked Sendable {
        let operands: Operands

        init(_ nodes: [Node]) { operands = Operands(nodes) }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var index = 0
            while index + 1 < operands.count {
                if try operands.isTruthy(index, &interpreter) { return try operands.evaluate(index + 1, &interpreter) }
                index += 2
            }
            return index < operands.count ? try operands.evaluate(index, &interpreter) : .null
        }
    }

    /// `if` with exactly a condition, a consequent and an alternative.
    final class IfThenElse: Node, @unchecked Sendable {
        let test: Node
        let consequent: Node
        let alternative: Node

        /// The branches' values when both are literals, as in most flag rules
        /// (`"on"`, `"off"`): returned from here, without a call to each
        /// literal's `evaluate` (literals charge nothing, so the work is the same).
        private let literalConsequent: JSON
        private let literalAlternative: JSON
        private let branchesAreLiteral: Bool

        init(_ test: Node, _ consequent: Node, _ alternative: Node) {
            self.test = test
            self.consequent = consequent
            self.alternative = alternative
            if let consequentValue = consequent.literalValue, let alternativeValue = alternative.literalValue {
                (literalConsequent, literalAlternative, branchesAreLiteral) = (consequentValue, alternativeValue, true)
            } else {
                (literalConsequent, literalAlternative, branchesAreLiteral) = (.null, .null, false)
            }
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            let holds = try test.isTruthy(&interpreter)
            if branchesAreLiteral { return holds ? literalConsequent : literalAlternative }
            return holds ? try consequent.evaluate(&interpreter) : try alternative.evaluate(&interpreter)
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try test.isTruthy(&interpreter)
                ? try consequent.isTruthy(&interpreter) : try alternative.isTruthy(&interpreter)
        }
    }

    /// `and`: the first falsy operand, or the last; false when there is none.
    final class And: Node, @unchecked Sendable {
        let operands: Operands

        init(_ nodes: [Node]) { operands = Operands(nodes) }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var current = JSON.bool(false)
            for index in 0..<operands.count {
                current = try operands.evaluate(index, &interpreter)
                if !current.isTruthy { return current }
            }
            return current
        }

        /// Truthy when every operand is (and there is one).
        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            for index in 0..<operands.count where !(try operands.isTruthy(index, &interpreter)) { return false }
            return !operands.isEmpty
        }
    }

    /// `or`: the first truthy operand, or the last; false when there is none.
    final class Or: Node, @unchecked Sendable {
        let operands: Operands

        init(_ nodes: [Node]) { operands = Operands(nodes) }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var current = JSON.bool(false)
            for index in 0..<operands.count {
                current = try operands.evaluate(index, &interpreter)
                if current.isTruthy { return current }
            }
            return current
        }

        /// Truthy when some operand is.
        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            for index in 0..<operands.count where try operands.isTruthy(index, &interpreter) { return true }
            return false
        }
    }

    /// `??`: the first operand that is not null.
    final class Coalesce: Node, @unchecked Sendable {
        let operands: Operands

        init(_ nodes: [Node]) { operands = Operands(nodes) }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            for index in 0..<operands.count {
                let value = try operands.evaluate(index, &interpreter)
                if !value.isNull { return value }
            }
            return .null
        }
    }

    /// `!` (negated) and `!!`: the operand's truthiness as a Boolean.
    final class Truthiness: Node, @unchecked Sendable {
        let operand: Node
        let negated: Bool

        init(_ operand: Node, negated: Bool) {
            self.operand = operand
            self.negated = negated
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try operand.isTruthy(&interpreter) != negated
        }
    }
}
