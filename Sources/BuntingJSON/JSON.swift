/// A JSON value, owned by Swift.
///
/// Every module above this one works with `JSON`; only this module talks to
/// jansson, which parses and writes the text (see `JSON+Parsing.swift` and
/// `JSON+Encoding.swift`). Integers and reals stay apart so that a request id of
/// `1` echoes as `1` and one of `1.0` as `1.0`.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// A number written with a fraction or exponent. Never NaN or infinite
    /// when it came from parsing; such values are written as `null`.
    case real(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

// MARK: - Safe accessors

extension JSON {
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The value of an integer, or of a real that is a whole number within
    /// 64-bit range (so that `2.0` counts where a count is expected).
    public var integerValue: Int64? {
        switch self {
        case .integer(let value):
            return value
        case .real(let value):
            guard value.rounded(.towardZero) == value,
                value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0
            else { return nil }
            return Int64(value)
        default:
            return nil
        }
    }

    /// The value of any number as a Double (large integers lose precision).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    public var isNumber: Bool {
        switch self {
        case .integer, .real: return true
        default: return false
        }
    }

    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSON? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The name of this value's JSON type, as error messages spell it.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .real: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension JSON {
    /// An integer from a Swift `Int`.
    public static func int(_ value: Int) -> JSON { .integer(Int64(value)) }

    /// A number from a Double: an integer when it is a whole number that fits,
    /// so that computed results such as `1 + 1` are written as `2`, not `2.0`.
    public static func number(_ value: Double) -> JSON {
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992.0 {
            return .integer(Int64(value))
        }
        return .real(value)
    }
}
