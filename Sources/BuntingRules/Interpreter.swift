import BuntingJSON

/// Walks a compiled rule over data. One interpreter serves one evaluation:
/// it counts steps against the limits and keeps the scopes that iterators
/// open.
struct Interpreter: ~Copyable {
    /// The data `var` reads: the root data (with flagd's properties beside
    /// it, so that the context is never copied), an iterator's element, or
    /// `reduce`'s `current` and `accumulator` (without building an object).
    enum Scope {
        case root
        case item(JSON)
        case reduction(current: JSON, accumulator: JSON)
    }

    let limits: EvaluationLimits
    let hashing: FractionalHashing
    private(set) var steps = 0
    var scope = Scope.root
    /// Enclosing scopes, innermost last, and the iteration index in each
    /// (nil for `try`), for `val`'s scope jumps.
    private var outer: [(scope: Scope, index: Int?)] = []

    /// The root data; as an object (the usual case) it is kept apart, so
    /// that reading an attribute is one hash lookup with nothing copied.
    let root: JSON
    let rootObject: JSONObject?
    private(set) var flagd: FlagdProperties?
    /// The root object's values of the attributes of the table `attributes`
    /// names, by slot. An identifier, not a reference: the table outlives the
    /// evaluation, and a copy of the interpreter costs one retain less.
    let attributes: ObjectIdentifier?
    let attributeValues: [JSON?]

    var atRoot: Bool {
        if case .root = scope { return true }
        return false
    }

    /// - Parameter attributes: the table whose attributes to read up front;
    ///   nil reads each when a rule asks for it.
    @inline(__always)
    init(
        data: JSON, flagd: FlagdProperties?, hashing: FractionalHashing, limits: EvaluationLimits,
        attributes: AttributeTable?
    ) {
        let object = data.objectValue
        root = object == nil ? data : .null
        rootObject = object
        self.attributes = object == nil ? nil : attributes.map(ObjectIdentifier.init)
        attributeValues = object.flatMap { attributes?.values(in: $0) } ?? []
        self.flagd = flagd
        self.hashing = hashing
        self.limits = limits
    }

    /// Evaluates `node` over `data` with a fresh interpreter.
    static func evaluate(
        _ node: Node, data: JSON, flagd: FlagdProperties?, hashing: FractionalHashing, limits: EvaluationLimits
    ) throws(RuleEvaluationError) -> JSON {
        var interpreter = Interpreter(data: data, flagd: flagd, hashing: hashing, limits: limits, attributes: nil)
        return try interpreter.evaluate(node)
    }

    /// Readies the interpreter for the next flag of the same context: the
    /// step count starts again and `$flagd` names the new flag.
    mutating func restart(flagd: FlagdProperties) {
        precondition(atRoot, "restart inside a scope")
        self.flagd = flagd
        steps = 0
    }

    mutating func step(_ count: Int = 1) throws(RuleEvaluationError) {
        steps &+= count
        if steps > limits.maxSteps { throw .tooManySteps(limit: limits.maxSteps) }
    }

    /// Dispatches on the node. Case bodies live in helpers, so that this
    /// frame stays small: rules nest up to the compile-time depth limit, and
    /// each level of nesting is a frame of this function.
    mutating func evaluate(_ node: Node) throws(RuleEvaluationError) -> JSON {
        if case .literal(let value) = node { return value }
        try step()
        switch node {
        case .literal(let value): return value
        case .array(let nodes): return try array(nodes)

        case .variable(let path, let fallback): return try variable(path, fallback)
        case .computedVariable(let keyNode, let fallback): return try computedVariable(keyNode, fallback)
        case .value(let path): return try lookup(path) ?? .null
        case .exists(let path): return .bool(try lookup(path) != nil)
        case .missing(let nodes): return try missing(nodes)
        case .missingSome(let need, let keys): return try missingSome(need: need, keys: keys)

        case .condition(let nodes): return try condition(nodes)
        case .ifThenElse(let test, let consequent, let alternative):
            return try evaluate(test).isTruthy ? try evaluate(consequent) : try evaluate(alternative)
        case .and(let nodes): return try and(nodes)
        case .or(let nodes): return try or(nodes)
        case .coalesce(let nodes): return try coalesce(nodes)
        case .not(let operand): return .bool(!(try evaluate(operand).isTruthy))
        case .truthy(let operand): return .bool(try evaluate(operand).isTruthy)
        case .comparison(let comparison, let nodes): return .bool(try compareChain(comparison, nodes))
        case .comparisonWithLiteral(let comparison, let operand, let literal, let literalFirst):
            return .bool(try compare(comparison, operand, literal, literalFirst: literalFirst))

        case .arithmetic(let operation, let arguments): return .number(try arithmetic(operation, arguments))
        case .extremum(let isMaximum, let arguments): return .number(try extremum(isMaximum: isMaximum, arguments))

        case .iteration(let kind, let source, let body): return try iterate(kind, source: source, body: body)
        case .reduce(let source, let body, let initial): return try reduce(source: source, body: body, initial: initial)
        case .merge(let nodes): return try merge(nodes)
        case .membership(let needle, let haystack): return try membership(needle, haystack)
        case .membershipInStrings(let needle, let strings): return try membership(needle, strings)

        case .concatenate(let nodes): return .string(try concatenate(nodes))
        case .substring(let source, let start, let length):
            return .string(try substring(source: source, start: start, length: length))

        // No output: stdout carries the protocol, and rules must not log user data.
        case .log(let operand): return try evaluate(operand)
        case .raise(let operand): throw .thrown(Self.errorPayload(try evaluate(operand)))
        case .attempt(let nodes): return try attempt(nodes)

        case .fractional(let rule): return try fractional(rule)
        case .semanticVersion(let lhs, let operation, let operationNode, let rhs):
            return try semanticVersion(lhs: lhs, operation: operation, operationNode: operationNode, rhs: rhs)
        case .affix(let isPrefix, let subject, let part): return try affix(isPrefix: isPrefix, subject, part)
        }
    }

    // MARK: - Scopes

    /// Runs `body` with `scope` as the current data, the enclosing scope
    /// saved for `val`'s jumps.
    mutating func withScope<Result>(
        _ inner: Scope, index: Int?, _ body: (inout Interpreter) throws(RuleEvaluationError) -> Result
    ) throws(RuleEvaluationError) -> Result {
        outer.append((scope, index))
        scope = inner
        defer { scope = outer.removeLast().scope }
        return try body(&self)
    }

    /// Moves an iterator's scope to its next element.
    mutating func enterIteration(_ item: JSON, index: Int) {
        scope = .item(item)
        setIndex(index)
    }

    mutating func setIndex(_ index: Int) {
        outer[outer.count - 1].index = index
    }

    /// The data `levels` scopes out: 0 is the current data, odd levels the
    /// iteration (`{"index": i}`), even levels the enclosing data. Jumps past
    /// the outermost scope land on it.
    func scopeData(levels: Int) -> JSON {
        if levels == 0 { return materialize(scope) }
        let frame = (levels + 1) / 2
        guard frame <= outer.count else { return materialize(outer.first?.scope ?? scope) }
        if levels % 2 == 1 {
            guard let index = outer[outer.count - frame].index else { return .object(JSONObject()) }
            return ["index": .int(index)]
        }
        return materialize(outer[outer.count - frame].scope)
    }

    /// The scope's data as one JSON value (built only when a rule asks for
    /// the whole of it).
    func materialize(_ scope: Scope) -> JSON {
        switch scope {
        case .item(let data):
            return data
        case .reduction(let current, let accumulator):
            return ["current": current, "accumulator": accumulator]
        case .root:
            guard let rootObject else { return flagd == nil ? root : .object([FlagdProperties.key: flagd!.json]) }
            guard let flagd else { return .object(rootObject) }
            var object = rootObject
            object[FlagdProperties.key] = flagd.json
            return .object(object)
        }
    }

    // MARK: - Errors

    mutating func attempt(_ nodes: [Node]) throws(RuleEvaluationError) -> JSON {
        var failure: RuleEvaluationError?
        for node in nodes {
            do {
                if let caught = failure {
                    return try withScope(.item(caught.payload), index: nil) { interpreter throws(RuleEvaluationError) in
                        try interpreter.evaluate(node)
                    }
                }
                return try evaluate(node)
            } catch {
                guard error.isCatchable else { throw error }
                failure = error
            }
        }
        throw failure ?? .thrown(["type": "try"])
    }

    /// `throw "x"` raises `{"type": "x"}`; an object is raised as it is.
    static func errorPayload(_ value: JSON) -> JSON {
        if case .object = value { return value }
        if case .string = value { return ["type": value] }
        return ["type": .string(JavaScript.toString(value))]
    }
}

extension FlagdProperties {
    var json: JSON {
        ["flagKey": .string(flagKey), "timestamp": .integer(timestamp)]
    }
}
