import BuntingJSON

/// flagd's `sem_ver` and `fractional`.
extension Compiler {
    mutating func compileSemanticVersion(_ arguments: OperationArguments) throws(RuleCompileError) -> Node {
        try requireCount("sem_ver", arguments, exactly: 3)
        let nodes = try compileAll(arguments)
        var operation: SemanticVersionOperation?
        var operationNode: Node?
        switch nodes[1].literalValue {
        case .string(let text)?:
            guard let known = SemanticVersionOperation(rawValue: text) else {
                path.append("1")
                throw error("unknown sem_ver comparison \"\(text)\"; expected one of =, !=, <, <=, >, >=, ^, ~")
            }
            operation = known
        case let other?:
            path.append("1")
            throw error("sem_ver's comparison is a string such as \">=\"; got \(other.typeName)")
        default:
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

    /// Literal fractions are checked and tabulated now; a bucketing
    /// expression or computed fractions are handled at evaluation.
    mutating func compileFractional(_ arguments: OperationArguments) throws(RuleCompileError) -> FractionalRule {
        try requireCount("fractional", arguments, atLeast: 1)
        let nodes = try compileAll(arguments)
        for (index, node) in nodes.enumerated() {
            guard let value = node.literalValue else { continue }
            // A literal bucketing value comes first and is not a fraction.
            if index == 0, value.arrayValue == nil { continue }
            descend(arguments, index)
            defer { if arguments.isList { path.removeLast() } }
            guard case .array(let pair) = value else {
                throw error("a fraction is [variant, weight] or [variant]; got \(value.typeName)")
            }
            guard pair.count == 1 || pair.count == 2 else {
                throw error("a fraction is [variant, weight] or [variant]; got \(pair.count) elements")
            }
            if pair.count == 2, pair[1].typeName != "integer" {
                path.append("1")
                throw error("a fraction's weight is an integer; got \(pair[1].typeName) \(pair[1].encodedString())")
            }
        }
        return FractionalRule(arguments: nodes, targetingKey: DataPath("targetingKey", table: attributes))
    }
}
