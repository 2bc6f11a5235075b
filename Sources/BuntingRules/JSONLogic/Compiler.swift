import BuntingJSON

/// Turns a JSONLogic rule (`JSON`) into a `Node` tree, refusing what cannot
/// be evaluated meaningfully. See `JSONLogicRule` for the list of refusals.
struct Compiler {
    /// Where `$ref`s are looked up.
    let references: ReferenceResolver
    /// Where attribute paths get their slots.
    let attributes: AttributeTable
    let maxDepth: Int
    let pointerPrefix: String
    /// Where parts written the same way in other rules were compiled; nil
    /// to compile every part anew.
    let shared: SharedRuleParts?

    /// The pointer tokens of the part being compiled.
    var path: [String] = []
    /// Arrays and objects entered so far.
    var depth = 0
    /// The deepest nesting reached, counting inlined evaluators, so that an
    /// evaluator's own depth is known when it is inlined elsewhere.
    var deepest = 0
    /// Operations compiled so far, each inlined evaluator and each shared
    /// part counted as often as it is used: what evaluating the rule could
    /// walk through. Nodes are shared, so a rule of a few lines can stand for
    /// billions of operations (`e1 = [e0, e0]`, `e2 = [e1, e1]`, …); such a
    /// rule is refused past `JSONLogicRule.maxOperations`.
    var operations = 0
    /// The first problem of the chain when a `$ref` names a refused evaluator.
    var refusedReference: RuleCompileError?

    init(
        references: ReferenceResolver, attributes: AttributeTable, maxDepth: Int, pointerPrefix: String,
        shared: SharedRuleParts? = nil
    ) {
        self.references = references
        self.attributes = attributes
        self.maxDepth = maxDepth
        self.pointerPrefix = pointerPrefix
        self.shared = shared
    }

    /// The node of `json`: the one compiled for the same JSON before when
    /// parts are shared and it fits here (a part that nested fine deeper
    /// down may be too deep up here: it is then compiled again, for its error).
    mutating func compile(_ json: JSON) throws(RuleCompileError) -> Node {
        guard let shared else { return try compileAnew(json) }
        let key = ExactJSON(json)
        if let known = try reused(key, from: shared) { return known }
        return try compileAndRemember(key, in: shared)
    }

    /// A rule's root: looked up as it is written and, when new, compiled
    /// from a copy (see `JSON.detached`), so that nothing kept (nodes, their
    /// constants, the keys they are remembered by) points into the parsed
    /// document. The copy is made only when the rule is new.
    mutating func compileRoot(_ json: JSON) throws(RuleCompileError) -> Node {
        guard let shared else { return try compileAnew(json.detached()) }
        if let known = try reused(ExactJSON(json), from: shared) { return known }
        return try compileAndRemember(ExactJSON(json.detached()), in: shared)
    }

    /// The node compiled before for `key`, if it fits at this depth.
    private mutating func reused(_ key: ExactJSON, from shared: SharedRuleParts) throws(RuleCompileError) -> Node? {
        guard let known = shared.node(for: key), depth + known.height <= maxDepth else { return nil }
        deepest = max(deepest, depth + known.height)
        try count(operations: known.operations, inlining: nil)
        return known.node
    }

    private mutating func compileAndRemember(_ key: ExactJSON, in shared: SharedRuleParts) throws(RuleCompileError)
        -> Node
    {
        let json = key.value
        let start = depth
        let deepestAround = deepest
        let operationsBefore = operations
        deepest = depth
        let node = try compileAnew(json)
        shared.remember(node, height: deepest - start, operations: operations - operationsBefore, for: key)
        deepest = max(deepest, deepestAround)
        return node
    }

    /// Adds `count` operations (an evaluator's or a shared part's, inlined
    /// once more), refusing the rule past `JSONLogicRule.maxOperations`.
    mutating func count(operations count: Int, inlining evaluator: String?) throws(RuleCompileError) {
        let (sum, overflow) = operations.addingReportingOverflow(count)
        operations = overflow ? .max : sum
        guard operations <= JSONLogicRule.maxOperations else {
            let through = evaluator.map { " once evaluator \"\($0)\" is inlined" } ?? ""
            throw error(
                "rule stands for more than \(JSONLogicRule.maxOperations) operations\(through) "
                    + "(shared evaluators and parts count each time they are used)")
        }
    }

    private mutating func compileAnew(_ json: JSON) throws(RuleCompileError) -> Node {
        switch json {
        case .array(let elements):
            try enter()
            defer { depth -= 1 }
            var nodes: [Node] = []
            nodes.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                nodes.append(try compile(element))
                path.removeLast()
            }
            return Self.foldArray(nodes)
        case .object(let object):
            try enter()
            defer { depth -= 1 }
            if object.isEmpty { return Node.Literal(json) }
            guard object.count == 1, let (name, value) = object.first(where: { _ in true }) else {
                let keys = object.keys.prefix(4).map { "\"\($0)\"" }.joined(separator: ", ")
                throw error(
                    "an operation must have exactly one key; this object has "
                        + "\(object.count) (\(keys)\(object.count > 4 ? ", …" : ""))")
            }
            path.append(name)
            defer { path.removeLast() }
            if name != "$ref" { try count(operations: 1, inlining: nil) }
            return try compileOperation(name, value)
        default:
            return Node.Literal(json)
        }
    }

    // MARK: - Operations

    /// The arguments of an operation: the elements of an array, or a single
    /// non-array value standing for itself (`{"var": "x"}` is `{"var": ["x"]}`).
    struct OperationArguments {
        let values: [JSON]
        let isList: Bool
    }

    mutating func compileOperation(_ name: String, _ value: JSON) throws(RuleCompileError) -> Node {
        // The list decides what is known, so that it cannot drift from the
        // switch below (each listed name reaching a case is tested).
        guard name == "$ref" || OperatorNames.all.contains(name) else { throw error("unknown operator \"\(name)\"") }
        let arguments: OperationArguments
        if case .array(let elements) = value {
            arguments = OperationArguments(values: elements, isList: true)
            // The argument list is a level of nesting too, as in the JSON text.
            if name != "preserve" { try enter() }
        } else {
            arguments = OperationArguments(values: [value], isList: false)
        }
        defer { if arguments.isList && name != "preserve" { depth -= 1 } }

        switch name {
        case "var": return try compileVar(arguments)
        case "val": return Node.Value(try compileValuePath(arguments), isExistence: false)
        case "exists": return Node.Value(try compileValuePath(arguments), isExistence: true)
        case "missing": return Node.Missing(try compileAll(arguments))
        case "missing_some":
            try requireCount(name, arguments, exactly: 2)
            let nodes = try compileAll(arguments)
            return Node.MissingSome(need: nodes[0], keys: nodes[1])

        case "if", "?:":
            guard arguments.isList else { return Node.Condition([try compileArgument(arguments, 0)]) }
            let nodes = try compileAll(arguments)
            return nodes.count == 3 ? Node.IfThenElse(nodes[0], nodes[1], nodes[2]) : Node.Condition(nodes)
        case "and": return Node.And(try compileAll(arguments))
        case "or": return Node.Or(try compileAll(arguments))
        case "??": return Node.Coalesce(try compileAll(arguments))
        case "!", "!!":
            try requireCount(name, arguments, atMost: 1)
            let operand = arguments.values.isEmpty ? Node.Literal(.null) : try compileArgument(arguments, 0)
            return Node.Truthiness(operand, negated: name == "!")
        case "==", "===", "!=", "!==", "<", "<=", ">", ">=":
            try requireCount(name, arguments, atLeast: 2)
            let comparison = Comparison(rawValue: name)!
            let nodes = try compileAll(arguments)
            if nodes.count == 2 {
                if let value = nodes[1].literalValue {
                    return Node.ComparisonWithLiteral(comparison, nodes[0], value, literalFirst: false)
                }
                if let value = nodes[0].literalValue {
                    return Node.ComparisonWithLiteral(comparison, nodes[1], value, literalFirst: true)
                }
            }
            return Node.ComparisonChain(comparison, nodes)

        case "+", "*":
            return Node.Calculation(Arithmetic(rawValue: name)!, try compileArithmeticArguments(arguments))
        case "-", "/":
            try requireCount(name, arguments, atLeast: 1)
            return Node.Calculation(Arithmetic(rawValue: name)!, try compileArithmeticArguments(arguments))
        case "%":
            if arguments.isList || !Self.isOperation(arguments.values[0]) {
                try requireCount(name, arguments, atLeast: 2)
            }
            return Node.Calculation(.remainder, try compileArithmeticArguments(arguments))
        case "min", "max":
            try requireCount(name, arguments, atLeast: 1)
            return Node.Extremum(isMaximum: name == "max", try compileArithmeticArguments(arguments))

        case "map", "filter", "all", "some", "none":
            try requireCount(name, arguments, exactly: 2)
            let nodes = try compileAll(arguments)
            try requireArraySource(name, nodes[0])
            return Node.Iterator(Iteration(rawValue: name)!, source: nodes[0], body: nodes[1])
        case "reduce":
            try requireCount(name, arguments, atLeast: 2, atMost: 3)
            let nodes = try compileAll(arguments)
            try requireArraySource(name, nodes[0])
            return Node.Reduce(
                source: nodes[0], body: nodes[1], initial: nodes.count == 3 ? nodes[2] : Node.Literal(.null))
        case "merge": return Node.Merge(try compileAll(arguments))
        case "in":
            try requireCount(name, arguments, exactly: 2)
            let nodes = try compileAll(arguments)
            if case .array(let elements)? = nodes[1].literalValue, let strings = Self.stringSet(elements) {
                return Node.MembershipInStrings(needle: nodes[0], strings: strings)
            }
            return Node.Membership(needle: nodes[0], haystack: nodes[1])

        case "cat": return Node.Concatenate(try compileAll(arguments))
        case "substr":
            try requireCount(name, arguments, atLeast: 2, atMost: 3)
            let nodes = try compileAll(arguments)
            return Node.Substring(source: nodes[0], start: nodes[1], length: nodes.count == 3 ? nodes[2] : nil)

        case "log":
            try requireCount(name, arguments, exactly: 1)
            return Node.Log(try compileArgument(arguments, 0))
        case "preserve":
            // The argument is data, taken as written.
            return Node.Literal(value)
        case "throw":
            try requireCount(name, arguments, exactly: 1)
            return Node.Raise(try compileArgument(arguments, 0))
        case "try":
            try requireCount(name, arguments, atLeast: 1)
            return Node.Attempt(try compileAll(arguments))

        case "fractional": return Node.Fractional(try compileFractional(arguments))
        case "sem_ver": return try compileSemanticVersion(arguments)
        case "starts_with", "ends_with":
            let nodes = try compileAll(arguments)
            guard nodes.count == 2 else { return Node.Unanswerable(nodes) }
            return Node.Affix(isPrefix: name == "starts_with", nodes[0], nodes[1])

        case "$ref": return try inlineReference(value)
        default:
            throw error("unknown operator \"\(name)\"")
        }
    }

    // MARK: - Helpers

    mutating func enter() throws(RuleCompileError) {
        depth += 1
        deepest = max(deepest, depth)
        guard depth <= maxDepth else {
            depth -= 1
            throw error("rule nested deeper than \(maxDepth) levels")
        }
    }

    mutating func compileAll(_ arguments: OperationArguments) throws(RuleCompileError) -> [Node] {
        var nodes: [Node] = []
        nodes.reserveCapacity(arguments.values.count)
        for index in arguments.values.indices {
            nodes.append(try compileArgument(arguments, index))
        }
        return nodes
    }

    mutating func compileArgument(_ arguments: OperationArguments, _ index: Int) throws(RuleCompileError) -> Node {
        descend(arguments, index)
        defer { if arguments.isList { path.removeLast() } }
        return try compile(arguments.values[index])
    }

    /// Arguments of arithmetic and min/max: one operation in place of a list
    /// spreads its array result into the operands.
    mutating func compileArithmeticArguments(_ arguments: OperationArguments) throws(RuleCompileError) -> Arguments {
        let spread = !arguments.isList && Self.isOperation(arguments.values[0])
        return Arguments(nodes: try compileAll(arguments), spread: spread)
    }

    /// Arguments given as a list are addressed by index in pointers.
    mutating func descend(_ arguments: OperationArguments, _ index: Int) {
        if arguments.isList { path.append(String(index)) }
    }

    /// An iterator over a literal that is not an array would only ever see
    /// an empty list: an authoring mistake.
    mutating func requireArraySource(_ name: String, _ source: Node) throws(RuleCompileError) {
        guard let value = source.literalValue, value.arrayValue == nil else { return }
        path.append("0")
        throw error("\"\(name)\" iterates over an array or an operation giving one; got \(value.typeName)")
    }

    func requireCount(
        _ name: String, _ arguments: OperationArguments, exactly count: Int
    ) throws(RuleCompileError) {
        guard arguments.values.count == count else {
            throw error("\"\(name)\" takes \(count) argument\(count == 1 ? "" : "s"); got \(arguments.values.count)")
        }
    }

    func requireCount(
        _ name: String, _ arguments: OperationArguments, atLeast minimum: Int = 0, atMost maximum: Int = .max
    ) throws(RuleCompileError) {
        let count = arguments.values.count
        guard count < minimum || count > maximum else { return }
        let expected: String
        if maximum == .max {
            expected = "at least \(minimum) argument\(minimum == 1 ? "" : "s")"
        } else if minimum == 0 {
            expected = "at most \(maximum) argument\(maximum == 1 ? "" : "s")"
        } else {
            expected = "\(minimum) to \(maximum) arguments"
        }
        throw error("\"\(name)\" takes \(expected); got \(count)")
    }

    func error(_ message: String) -> RuleCompileError {
        RuleCompileError(pointer: pointerPrefix + JSONPointer(tokens: path).description, message: message)
    }

    static func isOperation(_ value: JSON) -> Bool {
        if case .object(let object) = value { return object.count == 1 }
        return false
    }

    /// An array whose elements are all literals becomes one literal.
    static func foldArray(_ nodes: [Node]) -> Node {
        var values: [JSON] = []
        values.reserveCapacity(nodes.count)
        for node in nodes {
            guard let value = node.literalValue else { return Node.ArrayOf(nodes) }
            values.append(value)
        }
        return Node.Literal(.array(values))
    }

    /// A set for `in` over four or more literal strings (fewer are scanned).
    static func stringSet(_ elements: [JSON]) -> LiteralStringSet? {
        guard elements.count >= 4 else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let text) = element else { return nil }
            strings.append(text)
        }
        return LiteralStringSet(strings)
    }
}
