/// Why a text is not JSON that Bunting accepts, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Not JSON at all: a stray character, a missing comma, a bad literal.
        case syntax
        /// The text ends inside a value.
        case truncated
        /// A byte sequence that is not UTF-8.
        case invalidUTF8
        /// An integer that does not fit in 64 bits, or a real that overflows.
        case numberOutOfRange
        /// An object that names the same key twice.
        case duplicateKey
        /// An object key that contains `\u0000` (strings may; keys may not).
        case nulInKey
        /// Arrays and objects nested deeper than the limit.
        case tooDeep
        /// The text is empty or only white space.
        case empty
        /// Anything jansson reports that the kinds above do not cover.
        case other
    }

    public let kind: Kind
    public let message: String
    /// 1-based line of the error; 0 when unknown.
    public let line: Int
    /// 1-based column, counted in Unicode scalars as jansson counts them; 0 when unknown.
    public let column: Int
    /// 0-based byte offset into the text.
    public let position: Int

    public init(kind: Kind, message: String, line: Int, column: Int, position: Int) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.position = position
    }

    public var description: String {
        line > 0 ? "\(message) at line \(line), column \(column)" : message
    }
}
