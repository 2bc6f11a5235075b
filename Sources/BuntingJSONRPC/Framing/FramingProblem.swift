/// Why bytes on the wire could not be cut into a message. Each is answered
/// with an error reply and the server goes on reading.
public enum FramingProblem: Equatable, Sendable {
    /// A message longer than the limit; its bytes are skipped, not stored.
    case messageTooLarge(limit: Int)
    /// An LSP header line that is not `Name: value`, or too long.
    case invalidHeader(String)
    /// An LSP header block without `Content-Length`.
    case missingContentLength
    /// An LSP header block without `Content-Length`, but with a header whose
    /// name looks like a slip of it (`Content-Lenght`, `xContent-Length`).
    case misspeltContentLength(String)
    /// A `Content-Length` that is not a decimal number of bytes.
    case invalidContentLength(String)
    /// Two `Content-Length` headers with different values in one block.
    case conflictingContentLength(Int, Int)
    /// The JSON value of an LSP body ends before the body does: the
    /// `Content-Length` is larger than the message. The bytes after the value
    /// are read as the start of the next header.
    case bodyShorterThanContentLength(declared: Int, valueEnds: Int)
    /// An LSP body that holds `nonASCII` characters beyond ASCII ends inside
    /// its JSON: its `Content-Length` was most likely counted in characters
    /// (each of those is 2–4 bytes of UTF-8). One error for the message: the
    /// rest of it, up to the next header, is skipped without another. (A body
    /// of ASCII that ends inside its JSON goes to the parser, whose error
    /// says where it broke off.)
    case bodyEndsInsideJSON(declared: Int, nonASCII: Int)
    /// Input ended inside an LSP message body.
    case truncated(expected: Int, received: Int)

    /// A word for `data.reason`.
    public var reason: String {
        switch self {
        case .messageTooLarge: "MESSAGE_TOO_LARGE"
        case .invalidHeader: "INVALID_HEADER"
        case .missingContentLength, .misspeltContentLength: "MISSING_CONTENT_LENGTH"
        case .invalidContentLength, .conflictingContentLength: "INVALID_CONTENT_LENGTH"
        case .bodyShorterThanContentLength, .bodyEndsInsideJSON: "CONTENT_LENGTH_MISMATCH"
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
        case .misspeltContentLength(let name):
            "header block without Content-Length (\(name.debugDescription) is not Content-Length)"
        case .invalidContentLength(let value):
            "Content-Length \(value.debugDescription) is not a byte count"
        case .conflictingContentLength(let first, let second):
            "two Content-Length headers, \(first) and \(second); the message was skipped"
        case .bodyShorterThanContentLength(let declared, let valueEnds):
            "body shorter than its Content-Length? The JSON ends after \(valueEnds) of the \(declared) bytes declared; "
                + "the message was skipped and the bytes after the JSON read as the next header"
        case .bodyEndsInsideJSON(let declared, let nonASCII):
            "body longer than its Content-Length? Its JSON goes on past the \(declared) bytes declared, and it holds "
                + "\(nonASCII) character\(nonASCII == 1 ? "" : "s") "
                + "outside ASCII: Content-Length counts bytes of UTF-8, "
                + "not characters (each of those is 2 to 4 bytes); the message was skipped up to the next header"
        case .truncated(let expected, let received):
            expected == 0
                ? "input ended inside a message's headers"
                : "input ended after \(received) of \(expected) bytes of a message"
        }
    }
}
