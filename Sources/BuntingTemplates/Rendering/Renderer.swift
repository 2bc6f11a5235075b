import BuntingJSON

/// A `break` or `continue` on its way out to the loop it stops.
enum Interrupt {
    case breakLoop, continueLoop
}

/// The state of one render: the output, the variables, and what the budgets
/// have spent. Made for one render and dropped after it.
struct Renderer {
    let context: RenderContext
    let limits: TemplateLimits

    /// The text being written: the render's output, or a capture's.
    var output = ""
    /// Captures open around the current node.
    private var captureDepth = 0
    /// Work units spent (see `TemplateLimits.maxSteps`).
    private(set) var steps = 0
    /// Bytes stored by `assign` and `capture` so far.
    private(set) var capturedBytes = 0

    /// Variables of `assign` and `capture`, visible everywhere after.
    var assigned: [String: Value] = [:]
    /// Counters of `increment` and `decrement`.
    var counters: [String: Int64] = [:]
    /// Loop variables and `forloop`s, innermost last.
    var locals: [(name: String, value: Value)] = []
    /// The innermost loop, for `forloop.parentloop`.
    var loop: LoopFrame?
    /// Where each `cycle` group is.
    var cycles: [String: Int] = [:]
    /// Where each loop stopped, by `forloop.name`, for `offset: continue`.
    var loopEnds: [String: Int] = [:]
    /// Content blocks open around the current node.
    var contentBlockDepth = 0

    init(context: RenderContext) {
        self.context = context
        self.limits = context.limits
    }

    mutating func renderDocument(_ nodes: [Node]) throws(TemplateOffsetError) -> String {
        // A `break` outside any loop ends the render, as in Shopify's Liquid.
        _ = try render(nodes)
        return output
    }

    /// Renders nodes in order; stops at a `break` or `continue` and hands it up.
    mutating func render(_ nodes: [Node]) throws(TemplateOffsetError) -> Interrupt? {
        for node in nodes {
            if let interrupt = try render(node) { return interrupt }
        }
        return nil
    }

    private mutating func render(_ node: Node) throws(TemplateOffsetError) -> Interrupt? {
        steps += 1
        // The node's place is worked out only for the error.
        if steps > limits.maxSteps { try spend(0, at: node.offset) }
        switch node {
        case .text(let text):
            try write(text)
        case .output(let expression, let offset):
            let value = try evaluate(expression)
            try write(value, at: offset)
        case .branches(let branches):
            for branch in branches {
                if let condition = branch.condition {
                    guard try holds(condition) != branch.negated else { continue }
                }
                return try render(branch.body)
            }
        case .caseBlock(let block):
            return try render(block)
        case .forLoop(let loop):
            return try render(loop)
        case .assign(let name, let expression, let offset):
            let value = try evaluate(expression)
            if case .string(let text) = value { try store(bytes: text.utf8.count, at: offset) }
            assigned[name] = value
        case .capture(let name, let body, let offset):
            return try capture(name, body, at: offset)
        case .cycle(let cycle):
            try render(cycle)
        case .counter(let name, let step, let offset):
            try count(name, step: step, at: offset)
        case .interrupt(let interrupt, _):
            return interrupt == .breakLoop ? .breakLoop : .continueLoop
        case .abort(let message, let offset):
            let text = try message.map { expression throws(TemplateOffsetError) in try evaluate(expression).text } ?? ""
            throw TemplateOffsetError(
                .aborted, text.isEmpty ? "aborted by abort_message" : "aborted by abort_message: \(text)", at: offset,
                abortMessage: text)
        case .sequence(let nodes):
            return try render(nodes)
        }
        return nil
    }

    // MARK: - Budgets

    /// Spends work units; past `maxSteps` the render stops.
    @inline(__always)
    mutating func spend(_ units: Int, at offset: Int) throws(TemplateOffsetError) {
        steps += units
        if steps > limits.maxSteps {
            throw .limit("the render took more than \(limits.maxSteps) steps", at: offset)
        }
    }

    /// Spends a unit for each 16 bytes of string work past the first 16.
    @inline(__always)
    mutating func spend(bytes count: Int, at offset: Int) throws(TemplateOffsetError) {
        if count >= 16 { try spend(count / 16, at: offset) }
    }

    /// Counts bytes that `assign` or `capture` store.
    mutating func store(bytes count: Int, at offset: Int) throws(TemplateOffsetError) {
        capturedBytes += count
        if capturedBytes > limits.maxCapturedBytes {
            throw .limit("assign and capture stored more than \(limits.maxCapturedBytes) bytes", at: offset)
        }
    }

    /// Checks the length of a string a filter built.
    @inline(__always)
    func checkString(_ text: String, at offset: Int) throws(TemplateOffsetError) -> String {
        if text.utf8.count > limits.maxStringBytes {
            throw .limit("a filter would build a string of more than \(limits.maxStringBytes) bytes", at: offset)
        }
        return text
    }

    /// Checks the length of an array a filter built (or a range).
    @inline(__always)
    func checkLength(_ count: Int, at offset: Int) throws(TemplateOffsetError) {
        if count > limits.maxArrayLength {
            throw .limit("an array would have more than \(limits.maxArrayLength) elements", at: offset)
        }
    }

    // MARK: - Output

    mutating func write(_ text: String, at offset: Int = 0) throws(TemplateOffsetError) {
        output.append(text)
        if captureDepth > 0 {
            if capturedBytes + output.utf8.count > limits.maxCapturedBytes {
                throw .limit("assign and capture stored more than \(limits.maxCapturedBytes) bytes", at: offset)
            }
        } else if output.utf8.count > limits.maxOutputBytes {
            throw .limit("the output would be more than \(limits.maxOutputBytes) bytes", at: offset)
        }
    }

    mutating func write(_ value: Value, at offset: Int) throws(TemplateOffsetError) {
        switch value {
        case .string(let text): try write(text, at: offset)
        case .null: return
        case .array(let elements):
            try spend(elements.count, at: offset)
            try write(Value.outputText(of: elements), at: offset)
        default: try write(value.text, at: offset)
        }
    }

    private mutating func capture(_ name: String, _ body: [Node], at offset: Int) throws(TemplateOffsetError)
        -> Interrupt?
    {
        let outer = output
        output = ""
        captureDepth += 1
        let interrupt = try render(body)
        captureDepth -= 1
        let captured = output
        output = outer
        try store(bytes: captured.utf8.count, at: offset)
        assigned[name] = .string(captured)
        return interrupt
    }

    // MARK: - Small tags

    private mutating func render(_ block: CaseBlock) throws(TemplateOffsetError) -> Interrupt? {
        let subject = try evaluate(block.subject)
        var matched = false
        for arm in block.arms {
            switch arm {
            case .when(let values, let body):
                // Each matching value renders the body once, as Shopify's Liquid does.
                for value in values {
                    try spend(1, at: 0)
                    guard Value.equal(subject, try evaluate(value)) else { continue }
                    matched = true
                    if let interrupt = try render(body) { return interrupt }
                }
            case .otherwise(let body):
                if !matched, let interrupt = try render(body) { return interrupt }
            }
        }
        return nil
    }

    private mutating func render(_ cycle: Cycle) throws(TemplateOffsetError) {
        let key: String
        switch cycle.group {
        case .named(let expression): key = "n" + (try evaluate(expression).groupKey)
        case .unnamed(let values): key = "u" + values
        }
        let position = cycles[key] ?? 0
        if position < cycle.values.count {
            try write(try evaluate(cycle.values[position]), at: cycle.offset)
        }
        cycles[key] = position + 1 >= cycle.values.count ? 0 : position + 1
    }

    private mutating func count(_ name: String, step: Int64, at offset: Int) throws(TemplateOffsetError) {
        let current = counters[name] ?? 0
        let (next, overflow) = current.addingReportingOverflow(step)
        guard !overflow else { throw .limit("the counter '\(name)' went past 64 bits", at: offset) }
        // increment shows the value before the step, decrement the value after.
        try write(String(step > 0 ? current : next), at: offset)
        counters[name] = next
    }
}
