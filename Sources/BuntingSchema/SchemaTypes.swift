import BuntingJSON

/// A set of JSON Schema type names.
struct SchemaTypes: OptionSet, Sendable {
    let rawValue: UInt8

    static let null = SchemaTypes(rawValue: 1 << 0)
    static let boolean = SchemaTypes(rawValue: 1 << 1)
    static let object = SchemaTypes(rawValue: 1 << 2)
    static let array = SchemaTypes(rawValue: 1 << 3)
    static let number = SchemaTypes(rawValue: 1 << 4)
    static let string = SchemaTypes(rawValue: 1 << 5)
    static let integer = SchemaTypes(rawValue: 1 << 6)

    /// In the order messages list them.
    static let named: [(name: String, type: SchemaTypes)] = [
        ("null", .null), ("boolean", .boolean), ("object", .object), ("array", .array),
        ("number", .number), ("integer", .integer), ("string", .string),
    ]

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
        self = entry.type
    }

    func admits(_ value: JSON) -> Bool {
        switch value {
        case .null: return contains(.null)
        case .bool: return contains(.boolean)
        case .object: return contains(.object)
        case .array: return contains(.array)
        case .string: return contains(.string)
        case .integer, .real: return contains(.number) || (contains(.integer) && value.isSchemaInteger)
        }
    }

    /// "string", "null or string", "boolean, number or string"; "integer" is
    /// left out beside "number", which includes it.
    var listed: String {
        let shown = contains(.number) ? subtracting(.integer) : self
        let names = Self.named.filter { shown.contains($0.type) }.map(\.name)
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
