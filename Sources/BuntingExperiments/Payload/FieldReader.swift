import BuntingJSON

/// Reads the typed fields of one payload object (a rule, an experiment, a
/// filter), throwing a problem with the field's pointer when a field has the
/// wrong type. A field given as null counts as absent only where the SDK
/// reads it so (`x || default`).
struct FieldReader {
    let members: JSONObject
    let pointer: JSONPointer

    init(_ json: JSON, at pointer: JSONPointer, what: String) throws(FeatureCompileError) {
        guard case .object(let members) = json else {
            throw FeatureCompileError(pointer, "\(what) must be an object, not \(json.typeName)")
        }
        self.members = members
        self.pointer = pointer
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    subscript(key: String) -> JSON? { members[key] }

    func at(_ key: String) -> JSONPointer { pointer.appending(key) }

    /// A string field; "" and null read as absent, as `field || default` does.
    func string(_ key: String) throws(FeatureCompileError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        case let other?: throw FeatureCompileError(at(key), "\(key) must be a string, not \(other.typeName)")
        }
    }

    /// A number field (null reads as absent).
    func number(_ key: String) throws(FeatureCompileError) -> Double? {
        switch members[key] {
        case nil, .null?: return nil
        case .integer(let value)?: return Double(value)
        case .real(let value)?: return value
        case let other?: throw FeatureCompileError(at(key), "\(key) must be a number, not \(other.typeName)")
        }
    }

    /// A boolean field, as JavaScript's truthiness reads it; only booleans (and null) are accepted.
    func flag(_ key: String) throws(FeatureCompileError) -> Bool {
        switch members[key] {
        case nil, .null?: return false
        case .bool(let value)?: return value
        case let other?: throw FeatureCompileError(at(key), "\(key) must be a boolean, not \(other.typeName)")
        }
    }

    /// An array field of at most `limit` elements (null reads as absent).
    func array(_ key: String, limit: Int? = nil) throws(FeatureCompileError) -> [JSON]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let elements)?:
            if let limit, elements.count > limit {
                throw FeatureCompileError(
                    at(key), "\(key) has \(elements.count) entries, more than the limit of \(limit)")
            }
            return elements
        case let other?: throw FeatureCompileError(at(key), "\(key) must be an array, not \(other.typeName)")
        }
    }

    /// An array of numbers of at most `limit` entries.
    func numbers(_ key: String, limit: Int) throws(FeatureCompileError) -> [Double]? {
        guard let elements = try array(key, limit: limit) else { return nil }
        var numbers: [Double] = []
        numbers.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let number = JSValues.number(element) else {
                throw FeatureCompileError(at(key).appending(index), "\(key) must hold numbers, not \(element.typeName)")
            }
            numbers.append(number)
        }
        return numbers
    }

    /// A `[start, end]` pair of numbers.
    static func range(_ json: JSON, at pointer: JSONPointer) throws(FeatureCompileError) -> BucketRange {
        guard case .array(let pair) = json, pair.count == 2, let start = JSValues.number(pair[0]),
            let end = JSValues.number(pair[1])
        else {
            throw FeatureCompileError(pointer, "a range must be [start, end], two numbers")
        }
        return BucketRange(start: start, end: end)
    }

    func ranges(_ key: String, limit: Int) throws(FeatureCompileError) -> [BucketRange]? {
        guard let elements = try array(key, limit: limit) else { return nil }
        var ranges: [BucketRange] = []
        for (index, element) in elements.enumerated() {
            ranges.append(try Self.range(element, at: at(key).appending(index)))
        }
        return ranges
    }
}
