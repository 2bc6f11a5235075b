import BuntingJSON

/// `log`, `throw` and `try`.
extension Node {
    /// `log`: the operand's value. No output: stdout carries the protocol,
    /// and rules must not log user data.
    final class Log: Node, @unchecked Sendable {
        let operand: Node

        init(_ operand: Node) { self.operand = operand }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try operand.evaluate(&interpreter)
        }
    }

    /// `throw "x"` raises `{"type": "x"}`; an object is raised as it is.
    final class Raise: Node, @unchecked Sendable {
        let operand: Node

        init(_ operand: Node) { self.operand = operand }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            let value = try operand.evaluate(&interpreter)
            switch value {
            case .object: throw .thrown(value)
            case .string: throw .thrown(["type": value])
            default: throw .thrown(["type": .string(try interpreter.string(value))])
            }
        }
    }

    /// `try`: the first operand that does not raise a catchable error; each
    /// later one sees the previous error as its data.
    final class Attempt: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var failure: RuleEvaluationError?
            for node in nodes {
                do {
                    if let caught = failure {
                        return try interpreter.withScope(.item(caught.payload), index: nil) {
                            interpreter throws(RuleEvaluationError) in
                            try node.evaluate(&interpreter)
                        }
                    }
                    return try node.evaluate(&interpreter)
                } catch {
                    guard error.isCatchable else { throw error }
                    failure = error
                }
            }
            throw failure ?? .thrown(["type": "try"])
        }
    }
}
