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
    /// The work budget of this evaluation: `limits.maxSteps`, or less when
    /// the round it belongs to has less left (see `WorkBudget`).
    private(set) var stepLimit: Int
    /// The scopes opened, innermost last; nil (no array to release) until
    /// an iterator opens one, empty while back at the root data.
    private var frames: [Frame]?

    /// The root data, with flagd's properties beside it (so that the context
    /// is never copied to add them). A stored copy: a lookup reads it in
    /// place, where a value behind a pointer would be copied for every call
    /// that reads it.
    let root: JSON
    /// `$flagd`; nil outside flag evaluation.
    private(set) var flagd: FlagdValues?
    /// The root object's values of the attributes of the table `attributes`
    /// names, by slot. An identifier, not a reference: the table outlives the
    /// evaluation, and a copy of the interpreter costs one retain less.
    let attributes: ObjectIdentifier?
    /// Nil (no array to release) without a table.
    let attributeValues: [JSON?]?

    var atRoot: Bool { frames?.isEmpty ?? true }

    private init(
        root: JSON, flagd: FlagdValues?, hashing: FractionalHashing, limits: EvaluationLimits,
        attributes: AttributeTable?
    ) {
        self.root = root
        if let attributes, case .object(let object) = root {
            self.attributes = ObjectIdentifier(attributes)
            attributeValues = attributes.values(in: object)
        } else {
            self.attributes = nil
            attributeValues = nil
        }
        self.flagd = flagd
        self.hashing = hashing
        self.limits = limits
        stepLimit = limits.maxSteps
    }

    // MARK: - Lending the flag keys
    //
    // An evaluation reads the flag keys where the caller keeps them, through
    // pointers valid for exactly the call of `with`: a copy of the key was
    // retained and released on every evaluation, though few rules read it.
    // The pointers cannot outlive their scope: an interpreter is made only
    // inside `with`, cannot be copied, and is handed to the rule `inout`.

    /// Runs `body` with an interpreter over `data`, `$flagd` naming the flag
    /// of `flagd` (absent when nil).
    @inline(__always)
    static func with<Result, Failure: Error>(
        data: JSON, flagd: FlagdProperties?, hashing: FractionalHashing, limits: EvaluationLimits,
        _ body: (inout Interpreter) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard flagd != nil else {
            var interpreter = Interpreter(root: data, flagd: nil, hashing: hashing, limits: limits, attributes: nil)
            return try body(&interpreter)
        }
        return try withUnsafePointer(to: flagd!.flagKey) { (key) throws(Failure) -> Result in
            let values = FlagdValues(keys: UnsafeBufferPointer(start: key, count: 1), timestamp: flagd!.timestamp)
            var interpreter = Interpreter(root: data, flagd: values, hashing: hashing, limits: limits, attributes: nil)
            return try body(&interpreter)
        }
    }

    /// Runs `body` with an interpreter over `data` for the flags of a set,
    /// whose keys are `flagKeys` (`restart(flagAt:)` selects one), reading
    /// the attributes of `attributes` up front.
    @inline(__always)
    static func with<Result>(
        data: JSON, flagKeys: [String], timestamp: Int64, hashing: FractionalHashing, limits: EvaluationLimits,
        attributes: AttributeTable, _ body: (inout Interpreter) -> Result
    ) -> Result {
        flagKeys.withUnsafeBufferPointer { keys in
            var interpreter = Interpreter(
                root: data, flagd: FlagdValues(keys: keys, timestamp: timestamp), hashing: hashing, limits: limits,
                attributes: attributes)
            return body(&interpreter)
        }
    }

    /// Readies the interpreter for the flag at `position` of the set's keys:
    /// the step count starts again, bounded by `limits.maxSteps` and what
    /// `budget` has left, and `$flagd` names the flag.
    mutating func restart(flagAt position: Int, budget: WorkBudget) {
        precondition(atRoot, "restart inside a scope")
        flagd?.position = position
        steps = 0
        stepLimit = min(limits.maxSteps, max(0, budget.remaining))
    }

    /// Charges `count` work units (see `EvaluationLimits.maxSteps`): one for
    /// each operation, more for operations whose work grows with their
    /// operands (`Interpreter+Work.swift`). Throws once the budget is spent.
    @inline(__always)
    mutating func step(_ count: Int = 1) throws(RuleEvaluationError) {
        // maxSteps is at most Int.max / 2 and each charge far below that:
        // the sum cannot overflow.
        steps &+= count
        if steps > stepLimit { throw .tooManySteps(limit: stepLimit) }
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
    var scope: Scope? { frames?.last?.scope }

    /// Runs `body` with `scope` as the current data, the enclosing scope
    /// kept for `val`'s jumps.
    mutating func withScope<Result>(
        _ scope: Scope, index: Int?, _ body: (inout Interpreter) throws(RuleEvaluationError) -> Result
    ) throws(RuleEvaluationError) -> Result {
        if frames == nil { frames = [] }
        frames!.append(Frame(scope: scope, index: index))
        defer { frames!.removeLast() }
        return try body(&self)
    }

    /// Moves an iterator's scope to its next element.
    mutating func enterIteration(_ scope: Scope, index: Int) {
        frames![frames!.count - 1] = Frame(scope: scope, index: index)
    }

    /// The data `levels` (≥ 0) scopes out: 0 is the current data, odd levels
    /// the iteration (`{"index": i}`), even levels the enclosing data. Jumps
    /// past the outermost scope land on the root.
    /// Landing on the root copies the context (see `wholeData`): charged.
    mutating func scopeData(levels: Int) throws(RuleEvaluationError) -> JSON {
        if levels == 0 { return try wholeData() }
        let frames = self.frames ?? []
        // levels / 2 rounded up, without the overflow of (levels + 1) / 2 at Int.max.
        let frame = levels / 2 + levels % 2
        guard frame <= frames.count else { return try rootData() }
        if levels % 2 == 1 {
            guard let index = frames[frames.count - frame].index else { return .object(JSONObject()) }
            return ["index": .int(index)]
        }
        let enclosing = frames.count - frame - 1
        return enclosing >= 0 ? materialize(frames[enclosing].scope) : try rootData()
    }

    /// The root data as one value, charged as `wholeData` charges it.
    private mutating func rootData() throws(RuleEvaluationError) -> JSON {
        if flagd != nil, case .object(let object) = root { try step(object.count * Self.unitsPerMemberCopied) }
        return materialize(nil)
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
