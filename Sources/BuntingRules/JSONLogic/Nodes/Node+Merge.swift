import BuntingJSON

/// `merge`.
extension Node {
    final class Merge: Node, @unchecked Sendable {
        let nodes: [Node]

        init(_ nodes: [Node]) { self.nodes = nodes }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return try interpreter.merge(nodes)
        }
    }
}

extension Interpreter {
    /// Arrays are flattened one level; anything else is appended. Each
    /// element of the result is charged before it is added, so that the
    /// budget bounds the memory merges build.
    mutating func merge(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var result: [JSON] = []
        for node in nodes {
            let value = try evaluate(node)
            if case .array(let elements) = value {
                guard result.count + elements.count <= limits.maxArrayLength else {
                    throw .arrayTooLong(limit: limits.maxArrayLength)
                }
                try charge(elementsBuilt: elements.count)
                result.append(contentsOf: elements)
            } else {
                guard result.count < limits.maxArrayLength else { throw .arrayTooLong(limit: limits.maxArrayLength) }
                try charge(elementsBuilt: 1)
                result.append(value)
            }
        }
        return .array(result)
    }
}
