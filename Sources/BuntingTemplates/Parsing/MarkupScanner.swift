/// A piece of a template's text: plain text, an output `{{ … }}` or a tag
/// `{% … %}`. Offsets are UTF-8 byte offsets into the text.
struct MarkupToken {
    enum Kind { case text, output, tag }

    var kind: Kind
    /// Where the token starts (its `{{` or `{%`, or its first byte of text).
    var start: Int
    /// Just past the token (past `}}` or `%}`).
    var end: Int
    /// Inside the delimiters and the whitespace-control dashes; for text,
    /// the text left after whitespace control.
    var contentStart: Int
    var contentEnd: Int
}

/// Cuts a template's text into text, outputs and tags, applying whitespace
/// control (`{{-`, `-}}`, `{%-`, `-%}` strip the whitespace, newlines
/// included, on their side). The parser pulls one token at a time, so that
/// `raw` and `doc` can take their bodies verbatim.
struct MarkupScanner {
    let bytes: [UInt8]
    private(set) var position = 0
    /// The last tag or output ended with `-}}` or `-%}`.
    private var trimNextText = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() throws(TemplateOffsetError) -> MarkupToken? {
        while position < bytes.count {
            guard let opening = nextMarkupStart(from: position) else {
                let token = text(from: position, to: bytes.count, trimRight: false)
                position = bytes.count
                if token.contentStart < token.contentEnd { return token }
                return nil
            }
            if opening > position {
                let trimRight = opening + 2 < bytes.count && bytes[opening + 2] == UInt8(ascii: "-")
                let token = text(from: position, to: opening, trimRight: trimRight)
                position = opening
                if token.contentStart < token.contentEnd { return token }
                continue
            }
            return try markup(at: opening)
        }
        return nil
    }

    /// The body of a `raw` (or `doc`) block that the scanner has just passed
    /// the opening tag of: everything up to `{% endNAME %}` (with or without
    /// dashes), verbatim. Returns the body's range and the closing tag.
    mutating func verbatimBody(of tag: String, openedAt opening: Int) throws(TemplateOffsetError) -> (
        body: Range<Int>, closing: MarkupToken
    ) {
        let nameBytes = Array("end\(tag)".utf8)
        var search = position
        while let start = nextMarkupStart(from: search) {
            search = start + 2
            guard bytes[start + 1] == UInt8(ascii: "%") else { continue }
            var cursor = start + 2
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
            while cursor < bytes.count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
            guard cursor + nameBytes.count <= bytes.count,
                bytes[cursor..<(cursor + nameBytes.count)].elementsEqual(nameBytes)
            else { continue }
            cursor += nameBytes.count
            if cursor < bytes.count, Self.isWordByte(bytes[cursor]) { continue }
            while cursor < bytes.count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
            guard cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "%"), bytes[cursor + 1] == UInt8(ascii: "}")
            else { continue }
            let body = position..<start
            position = start
            guard let closing = try next(), closing.kind == .tag else {
                throw .invalid("'\(tag)' is not closed", at: opening)
            }
            return (body, closing)
        }
        throw .invalid("'\(tag)' is not closed: no {% end\(tag) %} follows", at: opening)
    }

    // MARK: - Pieces

    private mutating func text(from start: Int, to end: Int, trimRight: Bool) -> MarkupToken {
        var contentStart = start
        var contentEnd = end
        if trimNextText {
            while contentStart < contentEnd, Self.isWhitespace(bytes[contentStart]) { contentStart += 1 }
            trimNextText = false
        }
        if trimRight {
            while contentEnd > contentStart, Self.isWhitespace(bytes[contentEnd - 1]) { contentEnd -= 1 }
        }
        return MarkupToken(kind: .text, start: start, end: end, contentStart: contentStart, contentEnd: contentEnd)
    }

    private mutating func markup(at start: Int) throws(TemplateOffsetError) -> MarkupToken {
        let isTag = bytes[start + 1] == UInt8(ascii: "%")
        var contentStart = start + 2
        if contentStart < bytes.count, bytes[contentStart] == UInt8(ascii: "-") { contentStart += 1 }
        guard let close = isTag ? tagEnd(from: contentStart) : outputEnd(from: contentStart) else {
            throw .invalid(isTag ? "tag not closed: no %} follows" : "output not closed: no }} follows", at: start)
        }
        var contentEnd = close
        trimNextText = false
        if contentEnd > contentStart, bytes[contentEnd - 1] == UInt8(ascii: "-") {
            contentEnd -= 1
            trimNextText = true
        }
        position = close + 2
        return MarkupToken(
            kind: isTag ? .tag : .output, start: start, end: close + 2, contentStart: contentStart,
            contentEnd: contentEnd)
    }

    /// The offset of the next `{{` or `{%` at or after `from`.
    private func nextMarkupStart(from: Int) -> Int? {
        var index = from
        let last = bytes.count - 1
        while index < last {
            if bytes[index] == UInt8(ascii: "{") {
                let following = bytes[index + 1]
                if following == UInt8(ascii: "{") || following == UInt8(ascii: "%") { return index }
            }
            index += 1
        }
        return nil
    }

    /// The offset of the `%}` that closes a tag.
    private func tagEnd(from: Int) -> Int? {
        var index = from
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), bytes[index + 1] == UInt8(ascii: "}") { return index }
            index += 1
        }
        return nil
    }

    /// The offset of the `}}` that closes an output, passing over Braze's
    /// `${name}` (so that `{{${first_name}}}` closes after the attribute).
    private func outputEnd(from: Int) -> Int? {
        var index = from
        while index + 1 < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "$"), bytes[index + 1] == UInt8(ascii: "{") {
                var close = index + 2
                while close < bytes.count, bytes[close] != UInt8(ascii: "}") { close += 1 }
                index = close + 1
                continue
            }
            if byte == UInt8(ascii: "}"), bytes[index + 1] == UInt8(ascii: "}") { return index }
            index += 1
        }
        return nil
    }

    /// Ruby's `\s`: space, tab, newline, vertical tab, form feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}
