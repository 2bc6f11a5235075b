/// Why bytes on the wire could not be cut into a message. Each is answered
/// with an error reply and the server goes on reading.
public enum FramingProblem: Equatable, Sendable {
    /// A message longer than the limit; its bytes are skipped, not stored.
    case messageTooLarge(limit: Int)
    /// An LSP header line that is not `Name: value`, or too long.
    case invalidHeader(String)
    /// An LSP header block without `Content-Length`.
    case missingContentLength
    /// A `Content-Length` that is not a decimal number of bytes.
    case invalidContentLength(String)
    /// Input ended inside an LSP message body.
    case truncated(expected: Int, received: Int)

    /// A word for `data.reason`.
    public var reason: String {
        switch self {
        case .messageTooLarge: "MESSAGE_TOO_LARGE"
        case .invalidHeader: "INVALID_HEADER"
        case .missingContentLength: "MISSING_CONTENT_LENGTH"
        case .invalidContentLength: "INVALID_CONTENT_LENGTH"
        case .truncated: "TRUNCATED_MESSAGE"
        }
    }

    public var message: String {
        switch self {
        case .messageTooLarge(let limit):
            "message larger than the limit of \(limit) bytes; it was skipped"
        case .invalidHeader(let line):
            "invalid header line \(line.debugDescription); expected 'Name: value'"
        case .missingContentLength:
            "header block without Content-Length"
        case .invalidContentLength(let value):
            "Content-Length \(value.debugDescription) is not a byte count"
        case .truncated(let expected, let received):
            expected == 0
                ? "input ended inside a message's headers"
                : "input ended after \(received) of \(expected) bytes of a message"
        }
    }
}
