import BuntingJSON

/// `var`, `val`, `exists`, `missing`, `missing_some` (the reading itself is
/// in `Interpreter+DataAccess.swift`).
extension Node {
    /// `var` with a path known at compile time.
    final class Variable: Node, @unchecked Sendable {
        let path: DataPath
        let fallback: Node?

        init(_ path: DataPath, fallback: Node?) {
            self.path = path
            self.fallback = fallback
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            if let found = interpreter.lookup(path) { return found }
            if let fallback { return try fallback.evaluate(&interpreter) }
            return .null
        }
    }

    /// `var` with a computed path.
    final class ComputedVariable: Node, @unchecked Sendable {
        let key: Node
        let fallback: Node?

        init(_ key: Node, fallback: Node?) {
            self.key = key
            self.fallback = fallback
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            let key = try key.evaluate(&interpreter)
            if let found = try interpreter.lookup(key: key) { return found }
            if let fallback { return try fallback.evaluate(&interpreter) }
            return .null
        }
    }

    /// `var` of the whole data (`""`, null or no path): see `Interpreter.wholeData`.
    final class WholeData: Node, @unchecked Sendable {
        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try interpreter.wholeData()
        }
    }

    /// `val` (the value, or null) and `exists` (whether there is one).
    final class Value: Node, @unchecked Sendable {
        let path: ValuePath
        let isExistence: Bool

        init(_ path: ValuePath, isExistence: Bool) {
            self.path = path
            self.isExistence = isExistence
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            let found = try interpreter.lookup(path)
            return isExistence ? .bool(found != nil) : found ?? .null
        }
    }

    /// `missing`: the keys (the first argument when it is an array, else all
    /// of them) whose value is absent, null or "".
    final class Missing: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            var keys: [JSON] = []
            keys.reserveCapacity(nodes.count)
            for (position, node) in nodes.enumerated() {
                let key = try node.evaluate(&interpreter)
                if position == 0, case .array(let list) = key {
                    keys = list
                    break
                }
                keys.append(key)
            }
            return .array(try interpreter.missingKeys(keys))
        }
    }

    /// `missing_some`: nothing when at least `need` of the keys are present,
    /// else the missing ones.
    final class MissingSome: Node, @unchecked Sendable {
        let need: Node
        let keys: Node

        init(need: Node, keys: Node) {
            self.need = need
            self.keys = keys
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            let need = try need.evaluate(&interpreter)
            guard case .array(let options) = try keys.evaluate(&interpreter) else { return .array([]) }
            let absent = try interpreter.missingKeys(options)
            let present = JSON.int(options.count - absent.count)
            return try interpreter.holds(.greaterOrEqual, present, need) ? .array([]) : .array(absent)
        }
    }
}
