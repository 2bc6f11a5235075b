import BuntingJSON

/// `if`/`?:`, `and`, `or`, `??`, `!`, `!!`.
extension Node {
    /// `if`: pairs of condition and consequent, then an optional else.
    final class Condition: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var index = 0
            while index + 1 < nodes.count {
                if try nodes[index].isTruthy(&interpreter) { return try nodes[index + 1].evaluate(&interpreter) }
                index += 2
            }
            return index < nodes.count ? try nodes[index].evaluate(&interpreter) : .null
        }
    }

    /// `if` with exactly a condition, a consequent and an alternative.
    final class IfThenElse: Node, @unchecked Sendable {
        let test: Node
        let consequent: Node
        let alternative: Node

        init(_ test: Node, _ consequent: Node, _ alternative: Node) {
            self.test = test
            self.consequent = consequent
            self.alternative = alternative
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try test.isTruthy(&interpreter)
                ? try consequent.evaluate(&interpreter) : try alternative.evaluate(&interpreter)
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try test.isTruthy(&interpreter)
                ? try consequent.isTruthy(&interpreter) : try alternative.isTruthy(&interpreter)
        }
    }

    /// `and`: the first falsy operand, or the last; false when there is none.
    final class And: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var current = JSON.bool(false)
            for operand in nodes {
                current = try operand.evaluate(&interpreter)
                if !current.isTruthy { return current }
            }
            return current
        }

        /// Truthy when every operand is (and there is one).
        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            for operand in nodes where !(try operand.isTruthy(&interpreter)) { return false }
            return !nodes.isEmpty
        }
    }

    /// `or`: the first truthy operand, or the last; false when there is none.
    final class Or: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var current = JSON.bool(false)
            for operand in nodes {
                current = try operand.evaluate(&interpreter)
                if current.isTruthy { return current }
            }
            return current
        }

        /// Truthy when some operand is.
        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            for operand in nodes where try operand.isTruthy(&interpreter) { return true }
            return false
        }
    }

    /// `??`: the first operand that is not null.
    final class Coalesce: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            for operand in nodes {
                let value = try operand.evaluate(&interpreter)
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
