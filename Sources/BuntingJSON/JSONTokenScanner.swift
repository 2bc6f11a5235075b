/// Steps over the tokens of a JSON text without reading their values: what
/// finds a member's text (`JSONMemberSpans`) or a value's line and column
/// (BuntingSchema's `JSONSourceLocator`) in a document without parsing it.
///
/// Made for texts known to be valid JSON; on other texts each step reports
/// failure (or stops at the end) instead of reading past `end`. Containers
/// are skipped by counting brackets outside strings, so nesting costs no stack.
public struct JSONTokenScanner {
    public let bytes: UnsafeRawBufferPointer
    public var position: Int
    public let end: Int

    /// Scans `bytes[start..<end]`; `end` defaults to the whole buffer.
    public init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = end ?? bytes.count
    }

    /// The byte at `position`, nil at the end.
    public var current: UInt8? { position < end ? bytes[position] : nil }

    /// Skips white space, then tells whether the text is over.
    public var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return position == end
        }
    }

    public mutating func skipWhitespace() {
        while position < end, JSON.isJSONWhitespace(bytes[position]) { position += 1 }
    }

    /// Skips white space, then steps over `byte` if it is next.
    public mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < end, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Steps over a string, quotes included; false when none is here or it does not end.
    public mutating func skipString() -> Bool {
        guard position < end, bytes[position] == UInt8(ascii: "\"") else { return false }
        position += 1
        while position < end {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\\") {
                position += 1
            } else if byte == UInt8(ascii: "\"") {
                return true
            }
        }
        return false
    }

    /// Steps over one value of any type; false when none is here or it does not end.
    public mutating func skipValue() -> Bool {
        var depth = 0
        repeat {
            guard position < end else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                guard skipString() else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return false }
                depth -= 1
                position += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
                guard depth > 0 else { return false }
                position += 1
            default:
                // A number, true, false or null: up to the next delimiter.
                let start = position
                while position < end, !Self.endsLiteral(bytes[position]) { position += 1 }
                guard position > start else { return false }
            }
        } while depth > 0
        return true
    }

    private static func endsLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"), UInt8(ascii: "\""),
            UInt8(ascii: "{"), UInt8(ascii: "["), 0x20, 0x0A, 0x0D, 0x09:
            true
        default:
            false
        }
    }

    /// The string written at `text` of `bytes` (quotes included), decoded:
    /// by jansson when it holds an escape. Nil when it does not read as a string.
    public static func decodedString(_ bytes: UnsafeRawBufferPointer, _ text: Range<Int>) -> String? {
        guard text.count >= 2 else { return nil }
        let inner = UnsafeRawBufferPointer(rebasing: bytes[(text.lowerBound + 1)..<(text.upperBound - 1)])
        if !inner.contains(UInt8(ascii: "\\")) {
            // Valid UTF-8 in a text that parsed; decoding repairs anything else.
            return String(decoding: inner, as: UTF8.self)
        }
        guard case .string(let string)? = try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[text])) else {
            return nil
        }
        return string
    }
}
