/// Where each member of a JSON object is written in a text, found without
/// parsing the values: brackets are counted outside strings, so one member
/// can then be handed to the parser on its own.
///
/// For texts already known to be valid JSON (a document that parsed before,
/// byte for byte): on other texts the spans may be wrong, or nil. Keys are
/// decoded, by jansson when they hold an escape.
public enum JSONMemberSpans {
    public struct Member: Sendable {
        /// The key, decoded.
        public let key: String
        /// The key as written, quotes included.
        public let keyText: Range<Int>
        /// The value as written, without the white space around it.
        public let value: Range<Int>
    }

    /// The members of the object written at `range` of `bytes` (white space
    /// around it allowed), in the order written; nil when that text does not
    /// read as an object.
    public static func members(of bytes: UnsafeRawBufferPointer, in range: Range<Int>) -> [Member]? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        var scanner = SpanScanner(bytes: bytes, position: range.lowerBound, end: range.upperBound)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var members: [Member] = []
        if scanner.take(UInt8(ascii: "}")) { return scanner.atEnd ? members : nil }
        repeat {
            scanner.skipWhitespace()
            let keyStart = scanner.position
            guard scanner.skipString() else { return nil }
            let keyText = keyStart..<scanner.position
            guard let key = decodedKey(bytes, keyText), scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            let valueStart = scanner.position
            guard scanner.skipValue() else { return nil }
            members.append(Member(key: key, keyText: keyText, value: valueStart..<scanner.position))
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "}")) else { return nil }
        return scanner.atEnd ? members : nil
    }

    private static func decodedKey(_ bytes: UnsafeRawBufferPointer, _ text: Range<Int>) -> String? {
        let inner = UnsafeRawBufferPointer(rebasing: bytes[(text.lowerBound + 1)..<(text.upperBound - 1)])
        if !inner.contains(UInt8(ascii: "\\")) {
            // Valid UTF-8 in a text that parsed; decoding repairs anything else.
            return String(decoding: inner, as: UTF8.self)
        }
        guard case .string(let key)? = try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[text])) else { return nil }
        return key
    }
}

/// Steps over the tokens of a JSON text without reading their values.
private struct SpanScanner {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return position == end
        }
    }

    mutating func skipWhitespace() {
        while position < end, JSON.isJSONWhitespace(bytes[position]) { position += 1 }
    }

    /// Skips white space, then steps over `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < end, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Steps over a string, quotes included; false when none is here or it does not end.
    mutating func skipString() -> Bool {
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

    /// Steps over one value of any type: containers by counting brackets
    /// outside strings, so that nesting costs no stack.
    mutating func skipValue() -> Bool {
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
}
