import BuntingJSON

/// The array filters, with Shopify's semantics: the input is flattened
/// first (nested arrays spread, an object or a single value taken as a
/// one-element array, nil as none), and properties are read with Ruby's
/// `item[property]`, whose failures decide what a filter does.
extension Renderer {
    /// Liquid's `InputIterator`: the elements a filter walks.
    mutating func elements(of input: Value, at offset: Int) throws(TemplateOffsetError) -> [JSON] {
        switch input {
        case .null: return []
        case .array(let elements):
            try spend(elements.count, at: offset)
            guard elements.contains(where: { if case .array = $0 { return true } else { return false } }) else {
                return elements
            }
            var flat: [JSON] = []
            var pending: [ArraySlice<JSON>] = [elements[...]]
            while var top = pending.popLast() {
                while let element = top.popFirst() {
                    if case .array(let nested) = element {
                        try spend(nested.count, at: offset)
                        pending.append(top)
                        top = nested[...]
                        continue
                    }
                    flat.append(element)
                    try checkLength(flat.count, at: offset)
                }
            }
            return flat
        case .range:
            let array = input.json.arrayValue ?? []
            try spend(array.count, at: offset)
            return array
        default:
            return [input.json]
        }
    }

    mutating func join(_ input: Value, glue: String, at offset: Int) throws(TemplateOffsetError) -> String {
        var text = ""
        var first = true
        for element in try elements(of: input, at: offset) {
            if !first { text += glue }
            first = false
            text += Value(element).text
            if text.utf8.count > limits.maxStringBytes {
                throw .limit("a filter would build a string of more than \(limits.maxStringBytes) bytes", at: offset)
            }
        }
        try spend(bytes: text.utf8.count, at: offset)
        return text
    }

    static func first(_ input: Value) -> Value {
        switch input {
        case .array(let elements): return elements.first.map(Value.init) ?? .null
        case .object(let members):
            guard let member = members.first(where: { _ in true }) else { return .null }
            return .array([.string(member.key), member.value])
        case .range(let start, let end): return end >= start ? .integer(start) : .null
        default: return .null
        }
    }

    static func last(_ input: Value) -> Value {
        switch input {
        case .array(let elements): return elements.last.map(Value.init) ?? .null
        case .range(let start, let end): return end >= start ? .integer(end) : .null
        default: return .null
        }
    }

    mutating func concat(_ input: Value, _ other: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        guard case .array(let tail) = other else {
            throw .invalid("concat filter requires an array argument, not \(other.typeName)", at: offset)
        }
        let head = try elements(of: input, at: offset)
        try checkLength(head.count + tail.count, at: offset)
        try spend(tail.count, at: offset)
        return .array(head + tail)
    }

    mutating func map(_ input: Value, property: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        var result: [JSON] = []
        for element in try elements(of: input, at: offset) {
            switch Self.index(element, property) {
            case .value(let value): result.append(value)
            case .noMethod: result.append(.null)
            case .typeError: throw Self.propertyError(property, at: offset)
            }
        }
        return .array(result)
    }

    mutating func sort(_ input: Value, property: Value, natural: Bool, at offset: Int) throws(TemplateOffsetError)
        -> Value
    {
        let items = try elements(of: input, at: offset)
        if items.isEmpty { return .array([]) }
        var keys = items
        if !property.isNull {
            guard items.allSatisfy(Self.respondsToIndex) else { return .null }
            for (position, item) in items.enumerated() {
                guard case .value(let key) = Self.index(item, property) else {
                    throw Self.propertyError(property, at: offset)
                }
                keys[position] = key
            }
        }
        // Sorting costs about n log n comparisons.
        try spend(items.count * max(1, Int.bitWidth - items.count.leadingZeroBitCount), at: offset)
        var order = Array(items.indices)
        if natural {
            let texts = keys.map { $0 == .null ? nil : Array(Value($0).text.utf8) }
            order.sort { Self.naturalOrder(texts[$0], texts[$1]) < 0 }
        } else {
            guard Self.areComparable(keys) else {
                throw .invalid("cannot sort values of incompatible types", at: offset)
            }
            order.sort { Self.order(keys[$0], keys[$1]) < 0 }
        }
        return .array(order.map { items[$0] })
    }

    mutating func unique(_ input: Value, property: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        let items = try elements(of: input, at: offset)
        var seen = Set<JSON>()
        var result: [JSON] = []
        for item in items {
            var key = item
            if !property.isNull {
                switch Self.index(item, property) {
                case .value(let value): key = value
                case .noMethod: return .null
                case .typeError: throw Self.propertyError(property, at: offset)
                }
            }
            if seen.insert(key).inserted { result.append(item) }
        }
        return .array(result)
    }

    mutating func compact(_ input: Value, property: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        let items = try elements(of: input, at: offset)
        if property.isNull { return .array(items.filter { $0 != .null }) }
        var result: [JSON] = []
        for item in items {
            switch Self.index(item, property) {
            case .value(let value): if value != .null { result.append(item) }
            case .noMethod: return .null
            case .typeError: throw Self.propertyError(property, at: offset)
            }
        }
        return .array(result)
    }

    enum Selection { case `where`, reject, has, find, findIndex }

    /// `where`, `reject`, `has`, `find` and `find_index`: items whose
    /// property equals the target (or is truthy, without one). An item
    /// without properties (nil, a boolean) makes the answer nil, as in
    /// Shopify's Liquid, unless the answer was found before it.
    mutating func select(_ selection: Selection, _ input: Value, property: Value, target: Value, at offset: Int)
        throws(TemplateOffsetError) -> Value
    {
        let items = try elements(of: input, at: offset)
        // Without a property nothing is selected (as golden-liquid expects).
        if items.isEmpty || property.isNull {
            switch selection {
            case .where, .reject: return .array([])
            case .has: return .bool(false)
            case .find, .findIndex: return .null
            }
        }
        let wanted = target.json
        var result: [JSON] = []
        for (position, item) in items.enumerated() {
            let matches: Bool
            switch Self.index(item, property) {
            case .value(let value): matches = target.isNull ? Value(value).isTruthy : Value.equal(value, wanted)
            case .noMethod: return .null
            case .typeError: throw Self.propertyError(property, at: offset)
            }
            switch selection {
            case .where: if matches { result.append(item) }
            case .reject: if !matches { result.append(item) }
            case .has: if matches { return .bool(true) }
            case .find: if matches { return Value(item) }
            case .findIndex: if matches { return .integer(Int64(position)) }
            }
        }
        switch selection {
        case .where, .reject: return .array(result)
        case .has: return .bool(false)
        case .find, .findIndex: return .null
        }
    }

    mutating func sum(_ input: Value, property: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        let items = try elements(of: input, at: offset)
        var values: [JSON] = []
        for item in items {
            if property.isNull {
                values.append(item)
            } else if Self.respondsToIndex(item) {
                guard case .value(let value) = Self.index(item, property) else {
                    throw Self.propertyError(property, at: offset)
                }
                values.append(value)
            } else {
                values.append(.integer(0))
            }
        }
        var total = LiquidNumber.integer(0)
        for value in try elements(of: .array(values), at: offset) {
            total = try LiquidNumber.apply(.plus, total, try LiquidNumber.from(Value(value), at: offset), at: offset)
        }
        return try total.value(at: offset)
    }

    // MARK: - Ruby's item[property]

    enum IndexResult {
        case value(JSON)
        /// Ruby raises TypeError: the property cannot index such an item.
        case typeError
        /// The item has no `[]` at all (nil, a boolean, a float).
        case noMethod
    }

    /// Ruby's `item[property]` for the values data holds: an object's
    /// member, an array's element by integer, a string's substring (itself
    /// when contained) or character, an integer's bit.
    static func index(_ item: JSON, _ property: Value) -> IndexResult {
        switch item {
        case .object(let members):
            guard case .string(let key) = property else { return .value(.null) }
            return .value(members[key] ?? .null)
        case .array(let elements):
            guard let position = integerIndex(property) else { return .typeError }
            let resolved = position < 0 ? Int64(elements.count) + position : position
            guard resolved >= 0, resolved < Int64(elements.count) else { return .value(.null) }
            return .value(elements[Int(resolved)])
        case .string(let text):
            if case .string(let part) = property {
                return .value(ByteSearch.contains(text, part) ? .string(part) : .null)
            }
            guard let position = integerIndex(property) else { return .typeError }
            let scalars = Array(text.unicodeScalars)
            let resolved = position < 0 ? Int64(scalars.count) + position : position
            guard resolved >= 0, resolved < Int64(scalars.count) else { return .value(.null) }
            return .value(.string(String(scalars[Int(resolved)])))
        case .integer(let number):
            guard let bit = integerIndex(property) else { return .typeError }
            if bit < 0 { return .value(.integer(0)) }
            if bit >= 63 { return .value(.integer(number < 0 ? 1 : 0)) }
            return .value(.integer((number >> bit) & 1))
        case .real, .bool, .null:
            return .noMethod
        }
    }

    private static func integerIndex(_ property: Value) -> Int64? {
        switch property {
        case .integer(let number): return number
        case .float(let number): return Int64(exactly: number.rounded(.towardZero))
        default: return nil
        }
    }

    static func respondsToIndex(_ item: JSON) -> Bool {
        switch item {
        case .object, .array, .string, .integer: return true
        default: return false
        }
    }

    static func propertyError(_ property: Value, at offset: Int) -> TemplateOffsetError {
        .invalid("cannot select the property '\(property.text)'", at: offset)
    }

    // MARK: - Ordering

    /// Whether `sort` can order these values: numbers with numbers, strings
    /// with strings (nil anywhere, sorted last); otherwise only equal values.
    static func areComparable(_ keys: [JSON]) -> Bool {
        var kind: Int?
        var first: JSON?
        var allEqual = true
        for key in keys where key != .null {
            let current: Int
            switch key {
            case .integer, .real: current = 0
            case .string: current = 1
            default: current = 2
            }
            if let first, !Value.equal(first, key) { allEqual = false }
            if first == nil { first = key }
            if let kind, kind != current { return false }
            kind = current
        }
        return kind != 2 || allEqual
    }

    /// Ruby's `<=>` with nil last.
    static func order(_ lhs: JSON, _ rhs: JSON) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return 1
        case (_, .null): return -1
        case (.string(let a), .string(let b)): return Value.compareBytes(a, b)
        default: return Value.compareNumbers(Value(lhs), Value(rhs))
        }
    }

    /// Ruby's `casecmp` (ASCII letters folded), nil last.
    static func naturalOrder(_ lhs: [UInt8]?, _ rhs: [UInt8]?) -> Int {
        guard let lhs, let rhs else { return lhs == nil ? (rhs == nil ? 0 : 1) : -1 }
        for (a, b) in zip(lhs, rhs) {
            let x = a >= 65 && a <= 90 ? a + 32 : a
            let y = b >= 65 && b <= 90 ? b + 32 : b
            if x != y { return x < y ? -1 : 1 }
        }
        return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
    }
}
