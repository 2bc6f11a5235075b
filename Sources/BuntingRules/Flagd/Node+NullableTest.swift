import BuntingJSON

extension Node {
    /// An operator of flagd's that answers true or false, or null for what
    /// it cannot compare (a value of the wrong type, an unknown comparison):
    /// null falls back to the flag's default variant, and is falsy where a
    /// condition is asked for. Subclasses say which with `test`.
    class NullableTest: Node, @unchecked Sendable {
        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try test(&interpreter).map(JSON.bool) ?? .null
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try test(&interpreter) ?? false
        }

        /// True or false, or nil where the operator answers null.
        func test(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool? {
            fatalError("\(Self.self) must override test")
        }
    }
}
