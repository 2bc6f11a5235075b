import BuntingJSON

/// Iterators and array operators.
enum Iteration: String, Sendable {
    case map, filter, all, some, none
}

extension Node {
    /// map, filter, all, some, none.
    final class Iterator: Node, @unchecked Sendable {
        let kind: Iteration
        let source: Node
        let body: Node

        init(_ kind: Iteration, source: Node, body: Node) {
            self.kind = kind
            self.source = source
            self.body = body
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try interpreter.iterate(kind, source: source, body: body)
        }
    }

    final class Reduce: Node, @unchecked Sendable {
        let source: Node
        let body: Node
        let initial: Node

        init(source: Node, body: Node, initial: Node) {
            self.source = source
            self.body = body
            self.initial = initial
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try interpreter.reduce(source: source, body: body, initial: initial)
        }
    }

    final class Merge: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try interpreter.merge(nodes)
        }
    }

    /// `in`: see `Interpreter.contains(_:in:)`.
    final class Membership: Node, @unchecked Sendable {
        let needle: Node
        let haystack: InspectedOperand
        /// The needle when it is literal (`{"in": ["beta", {"var": "email"}]}`),
        /// so that the haystack can be read directly (see `InspectedOperand`).
        private let literalNeedle: JSON?

        init(needle: Node, haystack: Node) {
            self.needle = needle
            self.haystack = InspectedOperand(haystack)
            literalNeedle = needle.literalValue
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            if let literalNeedle {
                return try haystack.inspect(&interpreter) { Interpreter.contains(literalNeedle, in: $0) }
            }
            let needle = try needle.evaluate(&interpreter)
            let haystack = try haystack.node.evaluate(&interpreter)
            return Interpreter.contains(needle, in: haystack)
        }
    }

    /// `in` with a literal array of strings: a hash lookup instead of a scan.
    final class MembershipInStrings: Node, @unchecked Sendable {
        let needle: InspectedOperand
        let strings: LiteralStringSet

        init(needle: Node, strings: LiteralStringSet) {
            self.needle = InspectedOperand(needle)
            self.strings = strings
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            .bool(try isTruthy(&interpreter))
        }

        override func isTruthy(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> Bool {
            try interpreter.step()
            return try needle.inspect(&interpreter) { needle in
                guard case .string(let needle) = needle else { return false }
                return strings.contains(needle)
            }
        }
    }
}

extension Interpreter {
    /// map, filter, all, some, none. A source that is not an array is treated
    /// as empty; `all` of nothing is false (JSONLogic's rule).
    mutating func iterate(_ kind: Iteration, source: Node, body: Node) throws(RuleEvaluationError) -> JSON {
        guard case .array(let elements) = try evaluate(source), !elements.isEmpty else {
            switch kind {
            case .map, .filter: return .array([])
            case .all, .some: return .bool(false)
            case .none: return .bool(true)
            }
        }
        if kind == .map || kind == .filter, elements.count > limits.maxArrayLength {
            throw .arrayTooLong(limit: limits.maxArrayLength)
        }
        return try withScope(.item(.null), index: 0) { interpreter throws(RuleEvaluationError) -> JSON in
            var results: [JSON] = []
            if kind == .map || kind == .filter { results.reserveCapacity(elements.count) }
            for (index, element) in elements.enumerated() {
                try interpreter.step()
                interpreter.enterIteration(.item(element), index: index)
                let result = try interpreter.evaluate(body)
                switch kind {
                case .map: results.append(result)
                case .filter: if result.isTruthy { results.append(element) }
                case .all: if !result.isTruthy { return .bool(false) }
                case .some: if result.isTruthy { return .bool(true) }
                case .none: if result.isTruthy { return .bool(false) }
                }
            }
            switch kind {
            case .map, .filter: return .array(results)
            case .all, .none: return .bool(true)
            case .some: return .bool(false)
            }
        }
    }

    /// The initial value is evaluated (json-logic-js would use it as written).
    mutating func reduce(source: Node, body: Node, initial: Node) throws(RuleEvaluationError) -> JSON {
        let items = try evaluate(source)
        var accumulator = try evaluate(initial)
        guard case .array(let elements) = items, !elements.isEmpty else { return accumulator }
        return try withScope(.item(.null), index: 0) { interpreter throws(RuleEvaluationError) -> JSON in
            for (index, element) in elements.enumerated() {
                try interpreter.step()
                interpreter.enterIteration(.reduction(current: element, accumulator: accumulator), index: index)
                accumulator = try interpreter.evaluate(body)
            }
            return accumulator
        }
    }

    /// Arrays are flattened one level; anything else is appended.
    mutating func merge(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var result: [JSON] = []
        for node in nodes {
            let value = try evaluate(node)
            if case .array(let elements) = value {
                guard result.count + elements.count <= limits.maxArrayLength else {
                    throw .arrayTooLong(limit: limits.maxArrayLength)
                }
                try step(elements.count / 64)
                result.append(contentsOf: elements)
            } else {
                guard result.count < limits.maxArrayLength else { throw .arrayTooLong(limit: limits.maxArrayLength) }
                result.append(value)
            }
        }
        return .array(result)
    }

    /// `in`: a substring of a string (the needle as a string), or an element
    /// of an array by strict equality; false for any other haystack.
    static func contains(_ needle: JSON, in haystack: JSON) -> Bool {
        switch haystack {
        case .string(let text):
            return Self.containsSubstring(text, JavaScript.toString(needle))
        case .array(let elements):
            return elements.contains { JavaScript.strictEquals(needle, $0) }
        default:
            return false
        }
    }

    /// Byte search: a UTF-8 substring match is a code point substring match,
    /// without Swift's grapheme-aware comparison.
    static func containsSubstring(_ haystack: String, _ needle: String) -> Bool {
        JavaScript.withBytes(of: haystack) { text in
            JavaScript.withBytes(of: needle) { part in
                guard part.count <= text.count else { return false }
                guard let first = part.first else { return true }
                var start = 0
                let last = text.count - part.count
                while start <= last {
                    if text[start] == first {
                        var matched = true
                        for offset in 1..<part.count where text[start + offset] != part[offset] {
                            matched = false
                            break
                        }
                        if matched { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
