import BuntingJSON

/// `for` loops: the items of a collection, `limit`, `offset` (and `offset:
/// continue`), `reversed`, `else`, `forloop`, and each iteration charged to
/// the step budget whatever its body.
extension Renderer {
    mutating func render(_ loop: ForLoop) throws(TemplateOffsetError) -> Interrupt? {
        let items = try loopItems(try evaluate(loop.collection), at: loop.nodeOffset)
        var from = 0
        switch loop.offset {
        case .continuing: from = loopEnds[loop.name] ?? 0
        case .value(let expression):
            let value = try evaluate(expression)
            if !value.isNull { from = try RubyNumber.integer(value, at: loop.nodeOffset).clampedToInt }
        case nil: break
        }
        from = max(from, 0)
        var to = items.count
        if let limitExpression = loop.limit {
            let value = try evaluate(limitExpression)
            if !value.isNull {
                let limit = try RubyNumber.integer(value, at: loop.nodeOffset)
                let (end, overflow) = Int64(from).addingReportingOverflow(limit)
                if !overflow, end < Int64(to) { to = Int(max(end, Int64(from))) }
            }
        }
        let start = min(from, items.count)
        let count = max(to - start, 0)
        loopEnds[loop.name] = from + count

        guard count > 0 else {
            if let otherwise = loop.otherwise { return try render(otherwise) }
            return nil
        }
        let frame = LoopFrame(name: loop.name, length: count, parent: self.loop)
        let outerLoop = self.loop
        self.loop = frame
        locals.append((loop.variable, .null))
        locals.append(("forloop", .forloop(frame)))
        let variableSlot = locals.count - 2
        defer {
            locals.removeLast(2)
            self.loop = outerLoop
        }
        for position in 0..<count {
            // Every iteration costs a step, even with an empty body.
            try spend(1, at: loop.nodeOffset)
            frame.index0 = position
            let index = start + (loop.reversed ? count - 1 - position : position)
            locals[variableSlot].value = items.item(at: index)
            if let interrupt = try render(loop.body), interrupt == .breakLoop { break }
        }
        return nil
    }

    /// What a `for` loop walks: an array's elements, an object's `[key,
    /// value]` pairs, a range's integers, a non-empty string once.
    private mutating func loopItems(_ value: Value, at offset: Int) throws(TemplateOffsetError) -> LoopItems {
        switch value {
        case .array(let elements): return .elements(elements)
        case .object(let members):
            try spend(members.count, at: offset)
            return .elements(members.map { JSON.array([.string($0.key), $0.value]) })
        case .range(let start, let end): return .integers(start, Value.rangeCount(start, end))
        case .string(let text): return text.isEmpty ? .none : .single(value)
        default: return .none
        }
    }
}

/// The items of a loop, read by position without copying an array.
enum LoopItems {
    case none
    case elements([JSON])
    case integers(Int64, Int)
    case single(Value)

    var count: Int {
        switch self {
        case .none: return 0
        case .elements(let elements): return elements.count
        case .integers(_, let count): return count
        case .single: return 1
        }
    }

    func item(at index: Int) -> Value {
        switch self {
        case .none: return .null
        case .elements(let elements): return Value(elements[index])
        // The range's count was checked, so start + index stays within its end.
        case .integers(let start, _): return .integer(start + Int64(index))
        case .single(let value): return value
        }
    }
}
