import BuntingJSON

/// Evaluating expressions: variables and their paths, attributes, content
/// blocks, ranges and filters.
extension Renderer {
    mutating func evaluate(_ expression: FilteredExpression) throws(TemplateOffsetError) -> Value {
        var value = try evaluate(expression.base)
        for call in expression.filters {
            try spend(1, at: call.offset)
            value = try apply(call, to: value)
        }
        return value
    }

    mutating func evaluate(_ expression: Expression) throws(TemplateOffsetError) -> Value {
        switch expression {
        case .literal(let literal):
            return literal.value
        case .variable(let name, let path):
            return try follow(path, from: variable(name))
        case .computedVariable(let nameExpression, let path):
            guard case .string(let name) = try evaluate(nameExpression) else { return .null }
            return try follow(path, from: variable(name))
        case .attribute(let name, let path):
            return try follow(path, from: attribute(name))
        case .contentBlock(let name, let offset):
            return .string(try contentBlock(name, at: offset))
        case .range(let startExpression, let endExpression, let offset):
            let start = try rangeEnd(try evaluate(startExpression), at: offset)
            let end = try rangeEnd(try evaluate(endExpression), at: offset)
            try checkLength(Value.rangeCount(start, end), at: offset)
            return .range(start, end)
        }
    }

    /// A variable: loop variables first, then `assign`/`capture`, then
    /// counters, then the render's `data`.
    func variable(_ name: String) -> Value {
        for local in locals.reversed() where local.name == name { return local.value }
        if let value = assigned[name] { return value }
        if let counter = counters[name] { return .integer(counter) }
        if let json = context.data[name] { return Value(json) }
        return .null
    }

    /// Braze's `${name}`: the user's attribute; `${user_id}` is the user's id.
    func attribute(_ name: String) -> Value {
        if name == "user_id", let userId = context.userId { return .string(userId) }
        if let json = context.attributes[name] { return Value(json) }
        return .null
    }

    /// An end of a range: integers as they are, decimals truncated, strings
    /// read for their leading digits, nil as 0.
    private func rangeEnd(_ value: Value, at offset: Int) throws(TemplateOffsetError) -> Int64 {
        switch value {
        case .integer(let number): return number
        case .float(let number):
            guard let truncated = Int64(exactly: number.rounded(.towardZero)) else {
                throw .limit("the range end \(value.text) does not fit in 64 bits", at: offset)
            }
            return truncated
        case .string(let text):
            guard let number = RubyNumber.leadingInteger(text) else {
                throw .limit("the range end '\(text)' does not fit in 64 bits", at: offset)
            }
            return number
        case .null, .empty, .blank: return 0
        default: throw .invalid("a range needs integers, not \(value.typeName)", at: offset)
        }
    }

    /// Renders the named content block into a string, within its depth limit.
    private mutating func contentBlock(_ name: String, at offset: Int) throws(TemplateOffsetError) -> String {
        guard let block = context.contentBlocks[name] else {
            throw .invalid("no content block named '\(name)'", at: offset)
        }
        guard contentBlockDepth < limits.maxContentBlockDepth else {
            throw .limit("content blocks nested deeper than \(limits.maxContentBlockDepth)", at: offset)
        }
        // The block writes into a buffer of its own, as a capture does; it
        // counts against the output when the caller writes it.
        let outer = output
        output = ""
        contentBlockDepth += 1
        defer { contentBlockDepth -= 1 }
        do {
            _ = try block.renderInline(&self)
        } catch {
            output = outer
            let (line, column) = SourcePosition.lineAndColumn(of: error.offset, in: block.source)
            throw TemplateOffsetError(
                error.reason, "in content block '\(name)' at \(line):\(column): \(error.message)", at: offset,
                abortMessage: error.abortMessage)
        }
        let text = output
        output = outer
        return text
    }

    // MARK: - Paths

    /// Each step of a path costs a unit: a path of thousands of steps is
    /// work like any other.
    mutating func follow(_ path: [PathSegment], from start: Value) throws(TemplateOffsetError) -> Value {
        if path.count > 1 { try spend(path.count - 1, at: 0) }
        var value = start
        for segment in path {
            switch segment {
            case .key(let key): value = member(key, of: value)
            case .index(let expression):
                value = element(try evaluate(expression), of: value)
            }
            if value.isNull { return .null }
        }
        return value
    }

    /// `value.key`: a member, or the value's `size`, `first` or `last`.
    func member(_ key: String, of value: Value) -> Value {
        switch value {
        case .object(let members):
            if let json = members[key] { return Value(json) }
            switch key {
            case "size": return .integer(Int64(members.count))
            case "first":
                guard let first = members.first(where: { _ in true }) else { return .null }
                return .array([.string(first.key), first.value])
            default: return .null
            }
        case .array(let elements):
            switch key {
            case "size": return .integer(Int64(elements.count))
            case "first": return elements.first.map(Value.init) ?? .null
            case "last": return elements.last.map(Value.init) ?? .null
            default: return .null
            }
        case .string(let text):
            return key == "size" ? .integer(Int64(text.unicodeScalars.count)) : .null
        case .range(let start, let end):
            guard end >= start else { return key == "size" ? .integer(0) : .null }
            switch key {
            case "size": return .integer(Int64(Value.rangeCount(start, end)))
            case "first": return .integer(start)
            case "last": return .integer(end)
            default: return .null
            }
        case .forloop(let frame):
            return frame.member(key)
        default:
            return .null
        }
    }

    /// `value[key]`: an array's element (negative counts from the end) or an
    /// object's member; never `size`, `first` or `last`.
    func element(_ key: Value, of value: Value) -> Value {
        switch (value, key) {
        case (.object(let members), .string(let name)):
            return members[name].map(Value.init) ?? .null
        case (.array(let elements), .integer(let index)):
            let position = index < 0 ? Int64(elements.count) + index : index
            guard position >= 0, position < Int64(elements.count) else { return .null }
            return Value(elements[Int(position)])
        case (.forloop(let frame), .string(let name)):
            return frame.member(name)
        default:
            return .null
        }
    }
}
