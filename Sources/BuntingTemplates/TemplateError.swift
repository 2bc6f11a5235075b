/// Why a template could not be parsed or rendered, and where.
///
/// The reason is what a caller acts on (and what the JSON-RPC error's
/// `data.reason` carries); the message says what went wrong in words; the
/// position points into the template's own text.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable {
        /// The text is not a template Bunting renders (a syntax error, an
        /// unknown tag or filter, a tag that would reach the network), or
        /// rendering it failed (a division by zero, comparing a string with a
        /// number, an unknown time zone).
        case invalidTemplate = "INVALID_TEMPLATE"
        /// A bound of `TemplateLimits` was reached, or a number outgrew 64 bits.
        case limit = "TEMPLATE_LIMIT"
        /// The template ran `{% abort_message %}`: the item is not for this user.
        case aborted = "TEMPLATE_ABORTED"
    }

    /// When the error arose: a parse error is the template's own fault and
    /// holds for every user; a render error may hold for this user only.
    public enum Phase: String, Sendable, Hashable {
        case parse, render
    }

    public let reason: Reason
    public let phase: Phase
    public let message: String
    /// The text given to `abort_message`, for `.aborted` (may be empty).
    public let abortMessage: String?
    /// 1-based line and column (in Unicode scalars) of the tag, output or
    /// filter concerned, in the template's text.
    public let line: Int
    public let column: Int
    /// The same place as a UTF-8 byte offset into the template's text.
    public let offset: Int

    public init(
        reason: Reason, phase: Phase, message: String, abortMessage: String? = nil, line: Int, column: Int, offset: Int
    ) {
        self.reason = reason
        self.phase = phase
        self.message = message
        self.abortMessage = abortMessage
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column: message`, as the command line prints it.
    public var description: String { "\(line):\(column): \(message)" }
}

/// An error found while parsing or rendering, before its offset is turned
/// into a line and column (which needs the template's text: done once, at
/// the public boundary, so that the hot path never scans the text).
struct TemplateOffsetError: Error {
    var reason: TemplateError.Reason
    var message: String
    /// UTF-8 byte offset into the text of the template being worked on.
    var offset: Int
    var abortMessage: String?

    init(_ reason: TemplateError.Reason, _ message: String, at offset: Int, abortMessage: String? = nil) {
        self.reason = reason
        self.message = message
        self.offset = offset
        self.abortMessage = abortMessage
    }

    static func invalid(_ message: String, at offset: Int) -> TemplateOffsetError {
        TemplateOffsetError(.invalidTemplate, message, at: offset)
    }

    static func limit(_ message: String, at offset: Int) -> TemplateOffsetError {
        TemplateOffsetError(.limit, message, at: offset)
    }

    /// The public error, with the offset turned into a line and column of `source`.
    func located(in source: String, phase: TemplateError.Phase) -> TemplateError {
        let (line, column) = SourcePosition.lineAndColumn(of: offset, in: source)
        return TemplateError(
            reason: reason, phase: phase, message: message, abortMessage: abortMessage,
            line: line, column: column, offset: offset)
    }
}

/// Lines and columns of byte offsets.
enum SourcePosition {
    /// The 1-based line and column (in Unicode scalars) of a UTF-8 byte
    /// offset; an offset past the end is placed just after the last character.
    static func lineAndColumn(of offset: Int, in source: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var position = 0
        for byte in source.utf8 {
            if position >= offset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // A byte that starts a scalar, not a continuation byte.
                column += 1
            }
            position += 1
        }
        return (line, column)
    }
}
