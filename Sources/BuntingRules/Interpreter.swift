import BuntingJSON

/// The state of one evaluation, which the compiled rule (`Node`) walks
/// over: the data, the steps counted against the limits, and the scopes that
/// iterators open.
///
/// Nodes receive it `inout`. Helpers that are not inlined into them and only
/// read it are still `mutating`: borrowing a non-copyable value held `inout`
/// copies its bytes to the stack first, where a mutating call passes its
/// address.
struct Interpreter: ~Copyable {
    /// The data an iterator opened: its element, or `reduce`'s `current` and
    /// `accumulator` (without building an object).
    enum Scope {
        case item(JSON)
        case reduction(current: JSON, accumulator: JSON)
    }

    /// A scope with the iteration index of the iterator that opened it (nil
    /// for `try`), for `val`'s scope jumps.
    struct Frame {
        var scope: Scope
        var index: Int?
    }

    let limits: EvaluationLimits
    let hashing: FractionalHashing
    private(set) var steps = 0
    /// The scopes opened, innermost last; empty while at the root data.
    private var frames: [Frame] = []

    /// The root data, with flagd's properties beside it (so that the context
    /// is never copied to add them).
    let root: JSON
    /// `$flagd`; nil outside flag evaluation.
    private(set) var flagd: FlagdValues?
    /// The root object's values of the attributes of the table `attributes`
    /// names, by slot. An identifier, not a reference: the table outlives the
    /// evaluation, and a copy of the interpreter costs one retain less.
    let attributes: ObjectIdentifier?
    let attributeValues: [JSON?]

    var atRoot: Bool { frames.isEmpty }

    /// - Parameter attributes: the table whose attributes to read up front;
    ///   nil reads each when a rule asks for it.
    @inline(__always)
    init(
        data: JSON, flagd: FlagdValues?, hashing: FractionalHashing, limits: EvaluationLimits,
        attributes: AttributeTable?
    ) {
        root = data
        if let attributes, case .object(let object) = data {
            self.attributes = ObjectIdentifier(attributes)
            attributeValues = attributes.values(in: object)
        } else {
            self.attributes = nil
            attributeValues = []
        }
        self.flagd = flagd
        self.hashing = hashing
        self.limits = limits
    }

    /// Readies the interpreter for the flag at `position` of the flag set
    /// whose keys `flagd` holds: the step count starts again and `$flagd`
    /// names the flag.
    mutating func restart(flagAt position: Int) {
        precondition(atRoot, "restart inside a scope")
        flagd?.position = position
        steps = 0
    }

    @inline(__always)
    mutating func step(_ count: Int = 1) throws(RuleEvaluationError) {
        steps &+= count
        if steps > limits.maxSteps { throw .tooManySteps(limit: limits.maxSteps) }
    }

    /// The value of `node`; a shorthand for operations written as
    /// interpreter methods.
    @inline(__always)
    mutating func evaluate(_ node: Node) throws(RuleEvaluationError) -> JSON {
        try node.evaluate(&self)
    }

    /// The values of `nodes`, in order.
    mutating func evaluateAll(_ nodes: [Node]) throws(RuleEvaluationError) -> [JSON] {
        var values: [JSON] = []
        values.reserveCapacity(nodes.count)
        for node in nodes { values.append(try node.evaluate(&self)) }
        return values
    }

    // MARK: - Scopes

    /// The innermost scope; nil at the root.
    var scope: Scope? { frames.last?.scope }

    /// Runs `body` with `scope` as the current data, the enclosing scope
    /// kept for `val`'s jumps.
    mutating func withScope<Result>(
        _ scope: Scope, index: Int?, _ body: (inout Interpreter) throws(RuleEvaluationError) -> Result
    ) throws(RuleEvaluationError) -> Result {
        frames.append(Frame(scope: scope, index: index))
        defer { frames.removeLast() }
        return try body(&self)
    }

    /// Moves an iterator's scope to its next element.
    mutating func enterIteration(_ scope: Scope, index: Int) {
        frames[frames.count - 1] = Frame(scope: scope, index: index)
    }

    /// The data `levels` scopes out: 0 is the current data, odd levels the
    /// iteration (`{"index": i}`), even levels the enclosing data. Jumps past
    /// the outermost scope land on the root.
    func scopeData(levels: Int) -> JSON {
        if levels == 0 { return materialize(scope) }
        let frame = (levels + 1) / 2
        guard frame <= frames.count else { return materialize(nil) }
        if levels % 2 == 1 {
            guard let index = frames[frames.count - frame].index else { return .object(JSONObject()) }
            return ["index": .int(index)]
        }
        let enclosing = frames.count - frame - 1
        return materialize(enclosing >= 0 ? frames[enclosing].scope : nil)
    }

    /// A scope's data (nil: the root's) as one JSON value, built only when a
    /// rule asks for the whole of it.
    func materialize(_ scope: Scope?) -> JSON {
        switch scope {
        case .item(let data)?:
            return data
        case .reduction(let current, let accumulator)?:
            return ["current": current, "accumulator": accumulator]
        case nil:
            guard let flagd else { return root }
            guard case .object(var object) = root else { return .object([FlagdProperties.key: flagd.json]) }
            object[FlagdProperties.key] = flagd.json
            return .object(object)
        }
    }
}

/// flagd's `$flagd` properties as an evaluation holds them. While a flag set
/// resolves all its flags, the flag key is read from the set's keys at the
/// flag's position, so that moving to the next flag copies no string.
struct FlagdValues {
    let timestamp: Int64
    /// The key, when not taken from `keys`.
    private let key: String
    private let keys: [String]
    var position = 0

    init(_ properties: FlagdProperties) {
        timestamp = properties.timestamp
        key = properties.flagKey
        keys = []
    }

    init(keys: [String], timestamp: Int64) {
        self.timestamp = timestamp
        key = ""
        self.keys = keys
    }

    var flagKey: String { keys.isEmpty ? key : keys[position] }

    var json: JSON {
        ["flagKey": .string(flagKey), "timestamp": .integer(timestamp)]
    }
}
