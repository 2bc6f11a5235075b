import BuntingJSON

/// flagd's `sem_ver` and `fractional`.
///
/// flagd's operators answer null, not an error, for anything they cannot
/// work with, so that the flag falls back to its default variant: the wrong
/// number of arguments, an unknown `sem_ver` comparison, malformed fractions.
/// Such rules compile, to nodes that give null (see `Node.Unanswerable`).
extension Compiler {
    mutating func compileSemanticVersion(_ arguments: OperationArguments) throws(RuleCompileError) -> Node {
        let nodes = try compileAll(arguments)
        guard nodes.count == 3 else { return Node.Unanswerable(nodes) }
        var operation: SemanticVersionOperation?
        var operationNode: Node?
        switch nodes[1].literalValue {
        case .string(let text)?:
            guard let known = SemanticVersionOperation(rawValue: text) else { return Node.Unanswerable(nodes) }
            operation = known
        case _?:
            return Node.Unanswerable(nodes)
        case nil:
            operationNode = nodes[1]
        }
        return Node.SemanticVersionComparison(
            lhs: Self.versionOperand(nodes[0]), operation: operation, operationNode: operationNode,
            rhs: Self.versionOperand(nodes[2]))
    }

    static func versionOperand(_ node: Node) -> VersionOperand {
        if let value = node.literalValue { return .literal(SemanticVersion(value)) }
        return .computed(InspectedOperand(node))
    }

    /// Literal fractions are tabulated now; a bucketing expression or
    /// computed fractions are handled at evaluation. Malformed fractions
    /// make the result null, as in flagd.
    mutating func compileFractional(_ arguments: OperationArguments) throws(RuleCompileError) -> FractionalRule {
        FractionalRule(arguments: try compileAll(arguments), targetingKey: DataPath("targetingKey", table: attributes))
    }
}
