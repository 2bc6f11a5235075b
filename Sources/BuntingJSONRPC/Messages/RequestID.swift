import BuntingJSON

/// A request id exactly as the client wrote it: a number (its text kept, so
/// that `1e2` stays `1e2` and `1.50` stays `1.50`), a string, or null.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    /// A JSON number, as written.
    case number(String)
    case string(String)
    case null

    /// The id of a JSON value, or nil when the value cannot be an id (a
    /// boolean, array or object). `text` is the number as the message wrote
    /// it, when known; without it the parsed value's shortest form is used.
    public init?(_ value: JSON, text: String? = nil) {
        switch value {
        // An integer's shortest form is its decimal digits (as jansson writes
        // it), without a tree and a dump per request.
        case .integer(let number): self = .number(text ?? String(number))
        case .real: self = .number(text ?? value.encodedString())
        case .string(let string): self = .string(string)
        case .null: self = .null
        default: return nil
        }
    }

    /// Appends the id as JSON.
    public func encode(appendingTo output: inout [UInt8]) {
        switch self {
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): JSON.string(text).encode(appendingTo: &output)
        case .null: output.append(contentsOf: "null".utf8)
        }
    }

    public var description: String {
        var bytes: [UInt8] = []
        encode(appendingTo: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
