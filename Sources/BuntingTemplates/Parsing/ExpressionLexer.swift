/// One token of the markup inside an output or a tag.
struct ExpressionToken {
    enum Kind: Equatable {
        case identifier
        /// A quoted string; the token's range is inside the quotes.
        case string
        case integer
        case float
        /// Braze's `${name}`; the token's range is the name inside the braces.
        case attribute
        case dot, dotDot, pipe, colon, comma
        case openBracket, closeBracket, openParen, closeParen
        case comparison(Comparison)
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
}

/// Cuts the markup of an output or tag into tokens: identifiers (letters,
/// digits, `_` and `-` after the first, an optional `?` last), quoted
/// strings without escapes, integers and decimals, `${…}` attributes,
/// punctuation and comparison operators. Inside tags, Braze's optional
/// braces `{{ … }}` around an expression are read as spaces.
struct ExpressionLexer {
    let bytes: [UInt8]
    let end: Int
    let bracesAreSpaces: Bool
    private(set) var position: Int

    init(bytes: [UInt8], range: Range<Int>, bracesAreSpaces: Bool) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
        self.bracesAreSpaces = bracesAreSpaces
    }

    /// Every token up to and including `.end`.
    mutating func tokens() throws(TemplateOffsetError) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func byte(_ offset: Int) -> UInt8? {
        position + offset < end ? bytes[position + offset] : nil
    }

    mutating func next() throws(TemplateOffsetError) -> ExpressionToken {
        skipSpaces()
        guard position < end else { return ExpressionToken(kind: .end, start: end, end: end) }
        let start = position
        let first = bytes[position]
        func single(_ kind: ExpressionToken.Kind, length: Int = 1) -> ExpressionToken {
            position += length
            return ExpressionToken(kind: kind, start: start, end: position)
        }
        switch first {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            var close = position + 1
            while close < end, bytes[close] != first { close += 1 }
            guard close < end else {
                throw .invalid("string not closed: no \(Character(Unicode.Scalar(first))) follows", at: start)
            }
            position = close + 1
            return ExpressionToken(kind: .string, start: start + 1, end: close)
        case UInt8(ascii: "$") where byte(1) == UInt8(ascii: "{"):
            var close = position + 2
            while close < end, bytes[close] != UInt8(ascii: "}") { close += 1 }
            guard close < end else { throw .invalid("attribute not closed: ${ without }", at: start) }
            position = close + 1
            var nameStart = start + 2
            var nameEnd = close
            while nameStart < nameEnd, MarkupScanner.isWhitespace(bytes[nameStart]) { nameStart += 1 }
            while nameEnd > nameStart, MarkupScanner.isWhitespace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            guard nameStart < nameEnd else { throw .invalid("an attribute needs a name: ${name}", at: start) }
            return ExpressionToken(kind: .attribute, start: nameStart, end: nameEnd)
        case UInt8(ascii: "."):
            return byte(1) == UInt8(ascii: ".") ? single(.dotDot, length: 2) : single(.dot)
        case UInt8(ascii: "|"): return single(.pipe)
        case UInt8(ascii: ":"): return single(.colon)
        case UInt8(ascii: ","): return single(.comma)
        case UInt8(ascii: "["): return single(.openBracket)
        case UInt8(ascii: "]"): return single(.closeBracket)
        case UInt8(ascii: "("): return single(.openParen)
        case UInt8(ascii: ")"): return single(.closeParen)
        case UInt8(ascii: "="):
            if byte(1) == UInt8(ascii: "=") { return single(.comparison(.equal), length: 2) }
        case UInt8(ascii: "!"):
            if byte(1) == UInt8(ascii: "=") { return single(.comparison(.notEqual), length: 2) }
        case UInt8(ascii: "<"):
            if byte(1) == UInt8(ascii: ">") { return single(.comparison(.notEqual), length: 2) }
            if byte(1) == UInt8(ascii: "=") { return single(.comparison(.lessOrEqual), length: 2) }
            return single(.comparison(.less))
        case UInt8(ascii: ">"):
            if byte(1) == UInt8(ascii: "=") { return single(.comparison(.greaterOrEqual), length: 2) }
            return single(.comparison(.greater))
        case UInt8(ascii: "-"):
            if let digit = byte(1), Self.isDigit(digit) { return number(from: start) }
        default:
            if Self.isDigit(first) { return number(from: start) }
            if Self.isIdentifierStart(first) {
                position += 1
                while position < end, Self.isIdentifierByte(bytes[position]) { position += 1 }
                if position < end, bytes[position] == UInt8(ascii: "?") { position += 1 }
                return ExpressionToken(kind: .identifier, start: start, end: position)
            }
        }
        throw .invalid("unexpected \(Self.describe(bytes, at: start, end: end))", at: start)
    }

    private mutating func number(from start: Int) -> ExpressionToken {
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        while position < end, Self.isDigit(bytes[position]) { position += 1 }
        // A fraction needs a digit after the dot, so that `1..5` is a range.
        if position + 1 < end, bytes[position] == UInt8(ascii: "."), Self.isDigit(bytes[position + 1]) {
            position += 1
            while position < end, Self.isDigit(bytes[position]) { position += 1 }
            return ExpressionToken(kind: .float, start: start, end: position)
        }
        return ExpressionToken(kind: .integer, start: start, end: position)
    }

    private mutating func skipSpaces() {
        while position < end {
            let byte = bytes[position]
            if MarkupScanner.isWhitespace(byte) {
                position += 1
            } else if bracesAreSpaces, position + 1 < end,
                (byte == UInt8(ascii: "{") && bytes[position + 1] == UInt8(ascii: "{"))
                    || (byte == UInt8(ascii: "}") && bytes[position + 1] == UInt8(ascii: "}"))
            {
                position += 2
            } else {
                return
            }
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
    }

    /// A short quote of the text at `offset`, for error messages.
    static func describe(_ bytes: [UInt8], at offset: Int, end: Int) -> String {
        guard offset < end else { return "end of markup" }
        var stop = offset
        while stop < end, stop - offset < 12, !MarkupScanner.isWhitespace(bytes[stop]) { stop += 1 }
        if stop == offset { stop = offset + 1 }
        // Do not cut a character in two.
        while stop < end, bytes[stop] & 0xC0 == 0x80 { stop += 1 }
        return "'" + String(decoding: bytes[offset..<stop], as: UTF8.self) + "'"
    }
}
