import BuntingJSON

/// `var`, `val`, `exists`, `missing`: reading the data.
extension Interpreter {
    /// JavaScript's walk for `var`: `data[key]` for each dotted component.
    /// Nil means "undefined" (the default applies); a null value found on the
    /// way ends the walk as undefined too, but a null at the end is returned.
    ///
    /// Inlined for the common case, an attribute of the root data.
    @inline(__always)
    func lookup(_ path: DataPath) -> JSON? {
        if atRoot {
            if path.slot >= 0, let table = path.table, ObjectIdentifier(table) == attributes {
                // Read up front (see `AttributeTable`).
                guard let found = attributeValues![path.slot] else { return nil }
                return path.components.count == 1 ? found : Self.walk(found, path, from: 1)
            }
            if case .object(let object) = root, !path.components.isEmpty,
                flagd == nil || !path.startsAtFlagdProperties
            {
                guard let found = object[path.firstKey] else { return nil }
                return path.components.count == 1 ? found : Self.walk(found, path, from: 1)
            }
        }
        return lookupElsewhere(path)
    }

    /// Calls `body` with the value at `path` as `var` reads it (null when
    /// undefined). An attribute read up front is passed as it is stored,
    /// which spares the copy when `body` is inlined with it.
    @inline(__always)
    mutating func withValue<Result>(
        at path: DataPath, _ body: (JSON) throws(RuleEvaluationError) -> Result
    ) throws(RuleEvaluationError) -> Result {
        if atRoot, path.slot >= 0, path.components.count == 1, let table = path.table,
            ObjectIdentifier(table) == attributes
        {
            switch attributeValues![path.slot] {
            case .some(let value): return try body(value)
            case .none: return try body(.null)
            }
        }
        return try body(lookup(path) ?? .null)
    }

    /// `lookup` of `$flagd`, of the whole data, or in an iterator's scope.
    private func lookupElsewhere(_ path: DataPath) -> JSON? {
        var current: JSON
        var start = 0
        switch scope {
        case nil:
            if let flagd, path.startsAtFlagdProperties {
                if path.isFlagdFlagKey { return .string(flagd.flagKey) }
                guard path.components.count > 1 else { return flagd.json }
                switch path.components[1].key {
                case "flagKey": current = .string(flagd.flagKey)
                case "timestamp": current = .integer(flagd.timestamp)
                default: return nil
                }
                start = 2
            } else {
                if path.components.isEmpty { return materialize(nil) }
                current = root
            }
        case .item(let data)?:
            current = data
        case .reduction(let currentItem, let accumulator)?:
            guard let first = path.components.first else { return materialize(scope) }
            switch first.key {
            case "current": current = currentItem
            case "accumulator": current = accumulator
            default: return nil
            }
            start = 1
        }
        return Self.walk(current, path, from: start)
    }

    private static func walk(_ value: JSON, _ path: DataPath, from start: Int) -> JSON? {
        var current = value
        var index = start
        while index < path.components.count {
            if case .null = current { return nil }
            guard let next = member(of: current, path.components[index]) else { return nil }
            current = next
            index += 1
        }
        return current
    }

    /// `var` with a computed key: null or "" is the whole data, anything else
    /// is turned into a string and split at the dots. Charged for the key's
    /// bytes, and for copying the context when it names the whole of it.
    mutating func lookup(key: JSON) throws(RuleEvaluationError) -> JSON? {
        let text: String
        switch key {
        case .null: text = ""
        case .string(let string): text = string
        default: text = try string(key)
        }
        guard !text.isEmpty else { return try wholeData() }
        let (bytes, dots) = JavaScript.withBytes(of: text) { bytes in
            (bytes.count, bytes.reduce(0) { $0 + ($1 == UInt8(ascii: ".") ? 1 : 0) })
        }
        try charge(bytes: bytes)
        // One key, the common case: no path to make.
        if dots == 0 {
            switch scope {
            case nil:
                if case .object(let object) = root, flagd == nil || text != FlagdProperties.key { return object[text] }
            case .item(let data)?:
                return Self.member(of: data, DataPath.Component(key: text, index: DataPath.canonicalIndex(text)))
            case .reduction?:
                break
            }
        }
        // No data nests deeper than JSON's parse limit (and a few levels of
        // scopes and $flagd): a longer path names nothing, and is not made.
        guard dots < JSON.defaultMaxDepth + 4 else { return nil }
        try step((dots + 1) * Self.unitsPerPathComponent)
        return lookup(DataPath(text))
    }

    /// Work units per component of a computed path: a string made, an index
    /// parsed, a member looked up.
    static let unitsPerPathComponent = 6

    /// Work units per member when an object is copied (a key, a value and
    /// an entry of its index).
    static let unitsPerMemberCopied = 4

    /// The current data as one value (`{"var": ""}`). At the root of a flag
    /// evaluation that is a copy of the context with `$flagd` added, charged
    /// per member copied.
    mutating func wholeData() throws(RuleEvaluationError) -> JSON {
        if atRoot, flagd != nil, case .object(let object) = root { try step(object.count * Self.unitsPerMemberCopied) }
        return materialize(scope)
    }

    /// `data[key]` in JavaScript: object members, array elements and
    /// `length`, string characters (UTF-16 code units) and `length`.
    static func member(of value: JSON, _ component: DataPath.Component) -> JSON? {
        switch value {
        case .object(let object):
            return object[component.key]
        case .array(let elements):
            if let index = component.index { return index < elements.count ? elements[index] : nil }
            return component.key == "length" ? .int(elements.count) : nil
        case .string(let text):
            if let index = component.index {
                let units = text.utf16
                guard index < units.count else { return nil }
                let unit = units[units.index(units.startIndex, offsetBy: index)]
                return .string(String(decoding: [unit], as: UTF16.self))
            }
            return component.key == "length" ? .int(text.utf16.count) : nil
        default:
            return nil
        }
    }

    /// `val` and `exists`: segments are keys or indexes, never split; nil
    /// when something on the way is absent.
    mutating func lookup(_ path: ValuePath) throws(RuleEvaluationError) -> JSON? {
        var current: JSON
        var segments = path.segments[...]
        if path.scopeJump == 0, atRoot {
            // Read $flagd without copying the context.
            if let flagd, case .key(FlagdProperties.key)? = segments.first {
                current = flagd.json
                segments = segments.dropFirst()
            } else {
                current = root
            }
        } else {
            current = try scopeData(levels: path.scopeJump)
        }
        for segment in segments {
            let next: JSON?
            switch segment {
            case .key(let key): next = Self.valueMember(of: current, key: .string(key))
            case .index(let index): next = Self.valueMember(of: current, key: .int(index))
            case .computed(let node):
                // A computed key is hashed or turned into a string: charged.
                var key = try evaluate(node)
                switch key {
                case .string(let text): try charge(bytes: text.utf8.count)
                case .array: key = .string(try string(key))
                default: break
                }
                next = Self.valueMember(of: current, key: key)
            }
            guard let next else { return nil }
            current = next
        }
        return current
    }

    private static func valueMember(of value: JSON, key: JSON) -> JSON? {
        switch value {
        case .object(let object):
            if case .string(let name) = key { return object[name] }
            return object[JavaScript.toString(key)]
        case .array(let elements):
            let index: Int?
            switch key {
            case .string(let text): index = DataPath.canonicalIndex(text)
            default: index = key.integerValue.flatMap { Int(exactly: $0) }
            }
            guard let index else { return nil }
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? elements[position] : nil
        default:
            return nil
        }
    }

    /// The keys whose value is absent, null or "": each key is looked up
    /// (one unit, and its bytes) and may be listed (an element built).
    mutating func missingKeys(_ keys: [JSON]) throws(RuleEvaluationError) -> [JSON] {
        try charge(elements: keys.count)
        try charge(elementsBuilt: keys.count)
        var absent: [JSON] = []
        for key in keys {
            switch try lookup(key: key) {
            case nil, .null?, .string("")?: absent.append(key)
            default: break
            }
        }
        return absent
    }
}
