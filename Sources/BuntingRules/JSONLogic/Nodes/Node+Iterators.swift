import BuntingJSON

/// The iterators: `map`, `filter`, `all`, `some`, `none` and `reduce`.
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
}
