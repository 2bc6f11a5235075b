#if canImport(Glibc)
import Glibc
#endif

/// Reads JSON text straight into `JSON` values, in Swift.
///
/// jansson builds a tree of its own that is then converted and freed: for a
/// 280-byte request that was 62,000 of the 75,000 instructions of answering
/// it, and for a definitions document most of its parse. This reader makes
/// the `JSON` value in one pass, for the texts it is sure to read exactly as
/// `JSON.parse` reads them through jansson, and gives up (nil) on anything
/// else: any error, a key given twice or holding `\u0000`, nesting deeper
/// than allowed (or than jansson's own limit), an integer of more than 18
/// digits, a real that overflows. The caller then parses the text with
/// jansson, so that every refusal is jansson's own, with its message and
/// position. Strings are checked as jansson checks them (UTF-8 without
/// overlong forms, surrogates or code points past U+10FFFF; no control
/// characters; escapes, surrogate pairs), reals are read by `strtod` as
/// jansson reads them, and members keep their order. `JSONReaderTests` and
/// the `json` fuzz target hold it to jansson's reading.
struct JSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0
    private let maxDepth: Int
    /// A scratch buffer for strings with escapes.
    private var scratch: [UInt8] = []
    /// The keys, as written (quotes left out), of the objects being checked
    /// by `checkObjectAsWritten`, innermost last.
    private var writtenKeys: [Range<Int>] = []

    /// jansson refuses nesting deeper than this whatever the caller allows.
    static let janssonMaxDepth = 2048

    /// The value of the whole text, or nil when jansson must read it.
    static func read(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> JSON? {
        guard bytes.baseAddress != nil else { return nil }
        var reader = JSONReader(bytes: bytes, maxDepth: min(maxDepth, janssonMaxDepth))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        // (Not a conditional expression: `nil` there would be read as JSON's own null literal.)
        guard reader.position == bytes.count else { return nil }
        return value
    }

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    @inline(__always)
    private func byte(at index: Int) -> UInt8 {
        bytes.load(fromByteOffset: index, as: UInt8.self)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch byte(at: position) {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// `depth`: how many arrays and objects enclose the value.
    private mutating func value(depth: Int) -> JSON? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch byte(at: position) {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSON.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    private mutating func object(depth: Int) -> JSON? {
        guard depth < maxDepth else { return nil }
        var object = JSONObject()
        if openIsEmpty(closing: UInt8(ascii: "}")) { return .object(object) }
        while true {
            skipWhitespace()
            guard position < bytes.count, byte(at: position) == UInt8(ascii: "\""), let key = string(isKey: true),
                object[key] == nil
            else { return nil }
            skipWhitespace()
            guard position < bytes.count, byte(at: position) == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let member = value(depth: depth + 1) else { return nil }
            object.appendNew(key, member)
            guard let more = nextMember(closing: UInt8(ascii: "}")) else { return nil }
            if !more { return .object(object) }
        }
    }

    private mutating func array(depth: Int) -> JSON? {
        guard depth < maxDepth else { return nil }
        var array: [JSON] = []
        if openIsEmpty(closing: UInt8(ascii: "]")) { return .array(array) }
        while true {
            guard let element = value(depth: depth + 1) else { return nil }
            array.append(element)
            guard let more = nextMember(closing: UInt8(ascii: "]")) else { return nil }
            if !more { return .array(array) }
        }
    }

    /// `true`, `false` or `null`, not followed by another letter (jansson
    /// reads a whole word, so `truex` is an error, not `true` and `x`).
    private mutating func literal(_ word: StaticString, _ value: JSON) -> JSON? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return nil }
        let text = word.utf8Start
        for offset in 0..<count where byte(at: position + offset) != text[offset] { return nil }
        position += count
        if position < bytes.count, Self.isLetter(byte(at: position)) { return nil }
        return value
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// A number as jansson's lexer reads one: an integer when written
    /// without fraction or exponent, else a real from `strtod`.
    private mutating func number() -> JSON? {
        guard let number = scanNumber() else { return nil }
        if !number.isReal {
            var value: Int64 = 0
            for index in number.digits { value = value * 10 + Int64(byte(at: index) &- UInt8(ascii: "0")) }
            return .integer(number.negative ? -value : value)
        }
        return real(number.text)
    }

    /// Steps over a number as jansson's lexer reads one; nil for what it
    /// refuses, and for an integer of more than 18 digits, which is
    /// jansson's to judge (18 digits cannot overflow 64 bits).
    private mutating func scanNumber() -> (text: Range<Int>, digits: Range<Int>, negative: Bool, isReal: Bool)? {
        let start = position
        var negative = false
        if byte(at: position) == UInt8(ascii: "-") {
            negative = true
            position += 1
            guard position < bytes.count else { return nil }
        }
        let digitsStart = position
        guard Self.isDigit(byte(at: position)) else { return nil }
        if byte(at: position) == UInt8(ascii: "0") {
            position += 1
            // A leading zero stands alone: `01` is an error.
            if position < bytes.count && Self.isDigit(byte(at: position)) { return nil }
        } else {
            while position < bytes.count && Self.isDigit(byte(at: position)) { position += 1 }
        }
        let digits = digitsStart..<position
        var isReal = false
        if position < bytes.count && byte(at: position) == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, Self.isDigit(byte(at: position)) else { return nil }
            while position < bytes.count && Self.isDigit(byte(at: position)) { position += 1 }
            isReal = true
        }
        if position < bytes.count && (byte(at: position) | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count
                && (byte(at: position) == UInt8(ascii: "+") || byte(at: position) == UInt8(ascii: "-"))
            {
                position += 1
            }
            guard position < bytes.count, Self.isDigit(byte(at: position)) else { return nil }
            while position < bytes.count && Self.isDigit(byte(at: position)) { position += 1 }
            isReal = true
        }
        guard isReal || digits.count <= 18 else { return nil }
        return (start..<position, digits, negative, isReal)
    }

    /// The real written at `text`, as jansson reads it (`strtod`); nil when
    /// it overflows, which jansson refuses.
    private func real(_ text: Range<Int>) -> JSON? {
        // strtod reads up to a NUL: the token is copied with one after it.
        let length = text.count
        let value: Double = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for offset in 0..<length { buffer[offset] = CChar(bitPattern: byte(at: text.lowerBound + offset)) }
            buffer[length] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        guard value.isFinite else { return nil }
        return .real(value)
    }

    /// The string at the reading position (opening quote included). A key
    /// may not hold `\u0000`.
    private mutating func string(isKey: Bool = false) -> String? {
        position += 1
        let start = position
        // The common case: no escape, ASCII or checked UTF-8, made from the text in place.
        switch skipPlainText() {
        case .quote:
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
            position += 1
            return String(decoding: text, as: UTF8.self)
        case .escape: return escapedString(from: start, isKey: isKey, making: true)
        case .invalid: return nil
        }
    }

    /// The rest of a string that holds an escape, from `start` (just after
    /// the opening quote), decoded into the scratch buffer; without `making`,
    /// checked only (the empty string stands for it).
    private mutating func escapedString(from start: Int, isKey: Bool, making: Bool) -> String? {
        scratch.removeAll(keepingCapacity: true)
        for index in start..<position { scratch.append(byte(at: index)) }
        while position < bytes.count {
            let byte = byte(at: position)
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return making ? String(decoding: scratch, as: UTF8.self) : ""
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { return nil }
                let escaped = self.byte(at: position)
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape(), !(isKey && scalar == 0) else { return nil }
                    appendUTF8(scalar)
                default:
                    return nil
                }
            case 0..<0x20:
                return nil
            case 0..<0x80:
                scratch.append(byte)
                position += 1
            default:
                guard let length = utf8Length(at: position) else { return nil }
                for index in position..<(position + length) { scratch.append(self.byte(at: index)) }
                position += length
            }
        }
        return nil
    }

    /// The code point of `\uXXXX` (the `\u` read), a surrogate pair taken
    /// whole; nil for a lone surrogate or a bad hex digit.
    private mutating func unicodeEscape() -> UInt32? {
        guard let first = hex4() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - position >= 2, byte(at: position) == UInt8(ascii: "\\"),
                byte(at: position + 1) == UInt8(ascii: "u")
            else { return nil }
            position += 2
            guard let second = hex4(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        case 0xDC00...0xDFFF:
            return nil
        default:
            return first
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - position >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = byte(at: position)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed UTF-8 sequence of two to four bytes at
    /// `index`; nil for anything jansson refuses (a stray continuation byte,
    /// an overlong form, a surrogate, a code point past U+10FFFF, a
    /// sequence cut short).
    private func utf8Length(at index: Int) -> Int? {
        let first = byte(at: index)
        let length: Int
        var value: UInt32
        switch first {
        case 0xC2...0xDF: length = 2; value = UInt32(first & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(first & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(first & 0x07)
        default: return nil
        }
        guard bytes.count - index >= length else { return nil }
        for offset in 1..<length {
            let next = byte(at: index + offset)
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        if value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return nil }
        if (length == 3 && value < 0x800) || (length == 4 && value < 0x10000) { return nil }
        return length
    }

    // MARK: - Checking without making the value

    /// Where the members of a text that is an object are written, and those
    /// of its members named in `inside` that are objects: for a text `read`
    /// reads (nil for any other, and for one that is not an object), checked
    /// as `read` checks it but without making its value. What lets a
    /// document be judged and cut into pieces in one pass (`JSONOutline`).
    static func outline(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, inside: Set<String>) -> JSONOutline? {
        guard bytes.baseAddress != nil else { return nil }
        var reader = JSONReader(bytes: bytes, maxDepth: min(maxDepth, janssonMaxDepth))
        reader.skipWhitespace()
        guard reader.position < bytes.count, reader.byte(at: reader.position) == UInt8(ascii: "{") else { return nil }
        var nested: [String: [JSONMemberSpans.Member]] = [:]
        guard let members = reader.checkObject(depth: 0, recording: true, inside: inside, nested: &nested) else {
            return nil
        }
        reader.skipWhitespace()
        guard reader.position == bytes.count else { return nil }
        return JSONOutline(members: members, nested: nested)
    }

    /// Steps over a value, checked as `value(depth:)` reads it.
    private mutating func check(depth: Int) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { return false }
        switch byte(at: position) {
        case UInt8(ascii: "{"): return checkObjectAsWritten(depth: depth)
        case UInt8(ascii: "["): return checkArray(depth: depth)
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return literal("true", .bool(true)) != nil
        case UInt8(ascii: "f"): return literal("false", .bool(false)) != nil
        case UInt8(ascii: "n"): return literal("null", .null) != nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let number = scanNumber() else { return false }
            return !number.isReal || real(number.text) != nil
        default: return false
        }
    }

    /// An object checked as `object(depth:)` reads it (keys given twice
    /// found by their bytes); its members' places when `recording`, and
    /// those of the members named in `inside`, recorded into `nested`.
    private mutating func checkObject(
        depth: Int, recording: Bool, inside: Set<String>, nested: inout [String: [JSONMemberSpans.Member]]
    ) -> [JSONMemberSpans.Member]? {
        guard depth < maxDepth else { return nil }
        var members: [JSONMemberSpans.Member] = []
        var keys: [String] = []
        var keySet: Set<ExactString>?
        if openIsEmpty(closing: UInt8(ascii: "}")) { return members }
        while true {
            skipWhitespace()
            let keyStart = position
            guard position < bytes.count, byte(at: position) == UInt8(ascii: "\""), let key = string(isKey: true) else {
                return nil
            }
            let keyText = keyStart..<position
            // A few keys are compared in turn, more through a set.
            if keySet == nil {
                guard !keys.contains(where: { $0.sameBytes(as: key) }) else { return nil }
                keys.append(key)
                if keys.count > JSONObject.indexThreshold { keySet = Set(keys.map { ExactString($0) }) }
            } else {
                guard keySet!.insert(ExactString(key)).inserted else { return nil }
            }
            skipWhitespace()
            guard position < bytes.count, byte(at: position) == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            let valueStart = position
            if recording && inside.contains(key) && position < bytes.count && byte(at: position) == UInt8(ascii: "{") {
                var none: [String: [JSONMemberSpans.Member]] = [:]
                guard let inner = checkObject(depth: depth + 1, recording: true, inside: [], nested: &none) else {
                    return nil
                }
                nested[key] = inner
            } else {
                guard check(depth: depth + 1) else { return nil }
            }
            if recording {
                members.append(JSONMemberSpans.Member(key: key, keyText: keyText, value: valueStart..<position))
            }
            guard let more = nextMember(closing: UInt8(ascii: "}")) else { return nil }
            if !more { return members }
        }
    }

    /// An object checked as `checkObject` checks it, its keys compared as
    /// written while none holds an escape and they are few: the same text
    /// is then the same key, and no string is made (at a start on a 100-flag
    /// document, making a string of every key was a third of the pass over
    /// the text). An object with an escaped key or more keys is checked
    /// again from its start by `checkObject`.
    private mutating func checkObjectAsWritten(depth: Int) -> Bool {
        guard depth < maxDepth else { return false }
        let objectStart = position
        let base = writtenKeys.count
        defer { writtenKeys.removeSubrange(base...) }
        if openIsEmpty(closing: UInt8(ascii: "}")) { return true }
        while true {
            skipWhitespace()
            guard position < bytes.count, byte(at: position) == UInt8(ascii: "\"") else { return false }
            position += 1
            let keyStart = position
            switch skipPlainText() {
            case .invalid:
                return false
            case .escape:
                return checkObjectAgain(from: objectStart, depth: depth, writtenKeysFrom: base)
            case .quote:
                let key = keyStart..<position
                position += 1
                guard writtenKeys.count - base < JSONObject.indexThreshold else {
                    return checkObjectAgain(from: objectStart, depth: depth, writtenKeysFrom: base)
                }
                guard !writtenKeys[base...].contains(where: { sameText($0, key) }) else { return false }
                writtenKeys.append(key)
            }
            skipWhitespace()
            guard position < bytes.count, byte(at: position) == UInt8(ascii: ":") else { return false }
            position += 1
            guard check(depth: depth + 1) else { return false }
            guard let more = nextMember(closing: UInt8(ascii: "}")) else { return false }
            if !more { return true }
        }
    }

    /// The object at `start` checked by `checkObject` (its keys decoded).
    private mutating func checkObjectAgain(from start: Int, depth: Int, writtenKeysFrom base: Int) -> Bool {
        writtenKeys.removeSubrange(base...)
        position = start
        var none: [String: [JSONMemberSpans.Member]] = [:]
        return checkObject(depth: depth, recording: false, inside: [], nested: &none) != nil
    }

    /// Whether two ranges of the text hold the same bytes.
    private func sameText(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.count == 0
            || memcmp(bytes.baseAddress! + lhs.lowerBound, bytes.baseAddress! + rhs.lowerBound, lhs.count) == 0
    }

    private mutating func checkArray(depth: Int) -> Bool {
        guard depth < maxDepth else { return false }
        if openIsEmpty(closing: UInt8(ascii: "]")) { return true }
        while true {
            guard check(depth: depth + 1) else { return false }
            guard let more = nextMember(closing: UInt8(ascii: "]")) else { return false }
            if !more { return true }
        }
    }

    /// Steps over an object's or array's opening bracket and the white
    /// space after it; true when `closing` follows at once (stepped over
    /// too): the object or array is empty. Inlined, as `nextMember` is.
    @inline(__always)
    private mutating func openIsEmpty(closing: UInt8) -> Bool {
        position += 1
        skipWhitespace()
        guard position < bytes.count && byte(at: position) == closing else { return false }
        position += 1
        return true
    }

    /// After a member or an element: steps over a comma (true: another
    /// follows) or `closing` (false: the object or array ends); nil for
    /// anything else.
    @inline(__always)
    private mutating func nextMember(closing: UInt8) -> Bool? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch byte(at: position) {
        case UInt8(ascii: ","):
            position += 1
            return true
        case closing:
            position += 1
            return false
        default:
            return nil
        }
    }

    /// Where `skipPlainText` stopped.
    private enum PlainTextEnd {
        /// At the closing quote.
        case quote
        /// At the backslash of an escape.
        case escape
        /// At what no string holds (a control character, a byte that is
        /// not UTF-8), or the end of the text.
        case invalid
    }

    /// Steps over a string's text up to its closing quote or its first
    /// escape: ASCII, and UTF-8 checked as jansson checks it. How every
    /// string is read, made, skipped or compared as written. (Inlined, as
    /// `nextMember` is: called, they cost reading requests 5% more
    /// instructions under callgrind.)
    @inline(__always)
    private mutating func skipPlainText() -> PlainTextEnd {
        while position < bytes.count {
            let byte = byte(at: position)
            if byte == UInt8(ascii: "\"") { return .quote }
            if byte == UInt8(ascii: "\\") { return .escape }
            if byte < 0x20 { return .invalid }
            if byte < 0x80 {
                position += 1
            } else {
                guard let length = utf8Length(at: position) else { return .invalid }
                position += length
            }
        }
        return .invalid
    }

    /// Steps over a string, checked as `string()` reads it.
    private mutating func skipString() -> Bool {
        position += 1
        let start = position
        switch skipPlainText() {
        case .quote:
            position += 1
            return true
        case .escape: return escapedString(from: start, isKey: false, making: false) != nil
        case .invalid: return false
        }
    }
}
