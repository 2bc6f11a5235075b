import BuntingJSON

/// A request id exactly as the client wrote it: an integer, a real, a string,
/// or null. It is echoed back unchanged, so `1` stays `1` and `1.0` stays `1.0`.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case real(Double)
    case string(String)
    case null

    /// The id of a JSON value, or nil when the value cannot be an id (a
    /// boolean, array or object).
    public init?(_ value: JSON) {
        switch value {
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .string(let text): self = .string(text)
        case .null: self = .null
        default: return nil
        }
    }

    public var json: JSON {
        switch self {
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .string(let text): .string(text)
        case .null: .null
        }
    }

    public var description: String { json.encodedString() }
}
