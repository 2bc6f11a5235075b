import BuntingJSON

/// Case bodies of `evaluate`: literals, data access and logic.
extension Interpreter {
    mutating func array(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var values: [JSON] = []
        values.reserveCapacity(nodes.count)
        for element in nodes { values.append(try evaluate(element)) }
        return .array(values)
    }

    mutating func variable(_ path: DataPath, _ fallback: Node?) throws(RuleEvaluationError) -> JSON {
        if let found = lookup(path) { return found }
        if let fallback { return try evaluate(fallback) }
        return .null
    }

    mutating func computedVariable(_ keyNode: Node, _ fallback: Node?) throws(RuleEvaluationError) -> JSON {
        let key = try evaluate(keyNode)
        if let found = lookup(key: key) { return found }
        if let fallback { return try evaluate(fallback) }
        return .null
    }

    mutating func missingSome(need needNode: Node, keys keysNode: Node) throws(RuleEvaluationError) -> JSON {
        let need = try evaluate(needNode)
        guard case .array(let options) = try evaluate(keysNode) else { return .array([]) }
        let absent = try missingKeys(options)
        let present = JSON.int(options.count - absent.count)
        return JavaScript.compare(present, need, .greaterOrEqual) ? .array([]) : .array(absent)
    }

    /// `if`: pairs of condition and consequent, then an optional else.
    mutating func condition(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var index = 0
        while index + 1 < nodes.count {
            if try evaluate(nodes[index]).isTruthy { return try evaluate(nodes[index + 1]) }
            index += 2
        }
        return index < nodes.count ? try evaluate(nodes[index]) : .null
    }

    /// The first falsy operand, or the last.
    mutating func and(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var current = JSON.bool(false)
        for operand in nodes {
            current = try evaluate(operand)
            if !current.isTruthy { return current }
        }
        return current
    }

    /// The first truthy operand, or the last.
    mutating func or(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var current = JSON.bool(false)
        for operand in nodes {
            current = try evaluate(operand)
            if current.isTruthy { return current }
        }
        return current
    }

    /// The first operand that is not null.
    mutating func coalesce(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        for operand in nodes {
            let value = try evaluate(operand)
            if !value.isNull { return value }
        }
        return .null
    }

    mutating func compare(
        _ comparison: Comparison, _ operand: Node, _ literal: JSON, literalFirst: Bool
    ) throws(RuleEvaluationError) -> Bool {
        let value = try evaluate(operand)
        return literalFirst ? Self.holds(comparison, literal, value) : Self.holds(comparison, value, literal)
    }

    mutating func membership(_ needleNode: Node, _ haystackNode: Node) throws(RuleEvaluationError) -> JSON {
        let needle = try evaluate(needleNode)
        let haystack = try evaluate(haystackNode)
        return .bool(Self.contains(needle, in: haystack))
    }

    mutating func membership(_ needleNode: Node, _ strings: Set<String>) throws(RuleEvaluationError) -> JSON {
        guard case .string(let needle) = try evaluate(needleNode), let found = strings.firstIndex(of: needle) else {
            return .bool(false)
        }
        return .bool(JavaScript.sameCodeUnits(strings[found], needle))
    }

    /// `starts_with`/`ends_with`: null unless both operands are strings.
    mutating func affix(isPrefix: Bool, _ subjectNode: Node, _ affixNode: Node) throws(RuleEvaluationError) -> JSON {
        let subject = try evaluate(subjectNode)
        let affix = try evaluate(affixNode)
        guard case .string(let text) = subject, case .string(let part) = affix else { return .null }
        return .bool(isPrefix ? text.utf8.starts(with: part.utf8) : text.utf8.reversed().starts(with: part.utf8.reversed()))
    }
}
