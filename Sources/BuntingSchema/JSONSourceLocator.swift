import BuntingJSON

/// Where a value starts in the text of a JSON document.
public struct JSONSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line; lines end at `\n`.
    public let line: Int
    /// 1-based column, counted in Unicode scalars as jansson counts them.
    public let column: Int
    /// 0-based byte offset into the UTF-8 text.
    public let offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "\(line):\(column)" }
}

/// Finds the text position of the value a JSON pointer names, so that a
/// problem found in a parsed document can be shown as `line:column`.
///
/// Parsed values do not remember where they came from; rather than carry
/// positions through every value, this reads the text again (with
/// BuntingJSON's `JSONTokenScanner`), and only when there is something to
/// report. It reads each byte at most once per lookup and never recurses, so
/// any document the parser accepted is safe.
public struct JSONSourceLocator: Sendable {
    private let bytes: [UInt8]

    /// `text` is the UTF-8 text of a document that `JSON.parse` accepted; for
    /// any other text, lookups may return nil.
    public init(_ text: [UInt8]) {
        bytes = text
    }

    public init(_ text: String) {
        self.init(Array(text.utf8))
    }

    /// Where the value named by `pointer` starts. When the pointer goes past
    /// what the document holds (a missing member or element), the position of
    /// the deepest value on its path that exists, normally the parent object.
    /// Nil only when the text is not a JSON document.
    public func location(of pointer: JSONPointer) -> JSONSourceLocation? {
        let valueStart = bytes.withUnsafeBytes { (text) -> Int? in
            var scanner = JSONTokenScanner(text)
            // A byte order mark, which jansson skips too.
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
            guard !scanner.atEnd else { return nil }
            var valueStart = scanner.position
            for token in pointer.tokens {
                guard let childStart = Self.findChild(token, &scanner) else { break }
                valueStart = childStart
            }
            return valueStart
        }
        return valueStart.map(location(ofOffset:))
    }

    /// Line and column of a byte offset.
    public func location(ofOffset offset: Int) -> JSONSourceLocation {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return JSONSourceLocation(line: line, column: column, offset: offset)
    }

    /// With the scanner at the start of a container, moves to the start of the
    /// member or element `token` names and returns that offset; nil (position
    /// unspecified) when there is no such child.
    private static func findChild(_ token: String, _ scanner: inout JSONTokenScanner) -> Int? {
        switch scanner.current {
        case UInt8(ascii: "{"):
            return findMember(token, &scanner)
        case UInt8(ascii: "["):
            guard let wanted = JSONPointer.arrayIndex(token) else { return nil }
            return findElement(wanted, &scanner)
        default:
            return nil
        }
    }

    private static func findMember(_ key: String, _ scanner: inout JSONTokenScanner) -> Int? {
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        repeat {
            scanner.skipWhitespace()
            let keyStart = scanner.position
            // Not a key: the object is empty ("}") or the text broken.
            guard scanner.skipString(),
                  let memberKey = JSONTokenScanner.decodedString(scanner.bytes, keyStart..<scanner.position),
                  scanner.take(UInt8(ascii: ":"))
            else { return nil }
            scanner.skipWhitespace()
            if memberKey == key { return scanner.position }
            guard scanner.skipValue() else { return nil }
        } while scanner.take(UInt8(ascii: ","))
        return nil
    }

    private static func findElement(_ wanted: Int, _ scanner: inout JSONTokenScanner) -> Int? {
        guard scanner.take(UInt8(ascii: "[")), !scanner.take(UInt8(ascii: "]")) else { return nil }
        var position = 0
        repeat {
            scanner.skipWhitespace()
            if position == wanted { return scanner.atEnd ? nil : scanner.position }
            guard scanner.skipValue() else { return nil }
            position += 1
        } while scanner.take(UInt8(ascii: ","))
        return nil
    }
}
