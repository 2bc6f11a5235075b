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
/// positions through every value, this scanner reads the text again, and only
/// when there is something to report. It reads each byte at most once per
/// lookup and never recurses, so any document the parser accepted is safe.
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
        var scanner = Scanner(bytes: bytes)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { return nil }
        var valueStart = scanner.index
        for token in pointer.tokens {
            guard let childStart = scanner.findChild(token) else { break }
            valueStart = childStart
        }
        return location(ofOffset: valueStart)
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
}

/// A forward-only reader over JSON text that can skip values and decode keys.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    /// With the scanner at the start of a container, moves to the start of the
    /// member or element `token` names and returns that offset; nil (position
    /// unspecified) when there is no such child.
    mutating func findChild(_ token: String) -> Int? {
        switch current {
        case UInt8(ascii: "{"):
            return findMember(token)
        case UInt8(ascii: "["):
            guard let wanted = JSONPointer.arrayIndex(token) else { return nil }
            return findElement(wanted)
        default:
            return nil
        }
    }

    private mutating func findMember(_ key: String) -> Int? {
        index += 1  // "{"
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { return nil }  // "}" or broken text
            let memberKey = readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            if memberKey == key { return index }
            skipValue()
            skipWhitespace()
            guard current == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    private mutating func findElement(_ wanted: Int) -> Int? {
        index += 1  // "["
        skipWhitespace()
        if current == UInt8(ascii: "]") { return nil }
        var position = 0
        while true {
            skipWhitespace()
            if position == wanted { return isAtEnd ? nil : index }
            skipValue()
            skipWhitespace()
            guard current == UInt8(ascii: ",") else { return nil }
            index += 1
            position += 1
        }
    }

    /// Skips one value of any type. Containers are skipped by counting
    /// brackets outside strings, so nesting costs no stack.
    private mutating func skipValue() {
        var depth = 0
        repeat {
            guard let byte = current else { return }
            switch byte {
            case UInt8(ascii: "\""):
                skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
                index += 1
            default:
                skipScalarLiteral()
            }
        } while depth > 0
    }

    /// Skips a number, `true`, `false` or `null`.
    private mutating func skipScalarLiteral() {
        let start = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"),
                UInt8(ascii: "\""), 0x20, 0x0A, 0x0D, 0x09:
                if index == start { index += 1 }  // never stand still on broken text
                return
            default:
                index += 1
            }
        }
    }

    private mutating func skipString() {
        index += 1  // opening quote
        while let byte = current {
            index += 1
            if byte == UInt8(ascii: "\\") {
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                return
            }
        }
    }

    /// Reads a string at the scanner and returns it decoded, escapes and all.
    mutating func readString() -> String {
        index += 1  // opening quote
        var utf8: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        while let byte = current {
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            guard byte == UInt8(ascii: "\\") else {
                flush(&pendingHighSurrogate, into: &utf8)
                utf8.append(byte)
                continue
            }
            guard let escaped = current else { break }
            index += 1
            if escaped == UInt8(ascii: "u") {
                let unit = readHex4()
                if (0xD800...0xDBFF).contains(unit) {
                    flush(&pendingHighSurrogate, into: &utf8)
                    pendingHighSurrogate = unit
                } else if (0xDC00...0xDFFF).contains(unit), let high = pendingHighSurrogate {
                    pendingHighSurrogate = nil
                    append(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &utf8)
                } else {
                    flush(&pendingHighSurrogate, into: &utf8)
                    append(unit, to: &utf8)
                }
                continue
            }
            flush(&pendingHighSurrogate, into: &utf8)
            switch escaped {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            default: utf8.append(escaped)  // \" \\ \/
            }
        }
        flush(&pendingHighSurrogate, into: &utf8)
        return String(decoding: utf8, as: UTF8.self)
    }

    private mutating func readHex4() -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { break }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return value
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// A lone surrogate cannot be UTF-8; it becomes U+FFFD, as it would in a Swift string.
    private func flush(_ pendingHighSurrogate: inout UInt32?, into utf8: inout [UInt8]) {
        if pendingHighSurrogate != nil {
            append(0xFFFD, to: &utf8)
            pendingHighSurrogate = nil
        }
    }

    private func append(_ value: UInt32, to utf8: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        utf8.append(contentsOf: String(scalar).utf8)
    }
}
