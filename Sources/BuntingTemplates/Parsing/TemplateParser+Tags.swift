/// The tags without a body.
extension TemplateParser {
    /// `assign name = value | filters`.
    func assign(_ tag: TagItem) throws(TemplateOffsetError) -> Node {
        guard let equals = bytes[tag.markup].firstIndex(of: UInt8(ascii: "=")) else {
            throw .invalid("'assign' needs a name, '=' and a value", at: tag.offset)
        }
        let name = try variableName(tag.markup.lowerBound..<equals, in: tag)
        let valueMarkup = (equals + 1)..<tag.markup.upperBound
        guard !isEmpty(valueMarkup) else { throw .invalid("'assign' needs a value after '='", at: tag.offset) }
        return .assign(name: name, value: try filtered(valueMarkup, inTag: true), offset: tag.offset)
    }

    /// The name `assign` and `capture` store under: ASCII letters, digits,
    /// `_`, and `-` after the first character.
    func variableName(_ markup: Range<Int>, in tag: TagItem) throws(TemplateOffsetError) -> String {
        var start = markup.lowerBound
        var end = markup.upperBound
        while start < end, MarkupScanner.isWhitespace(bytes[start]) { start += 1 }
        while end > start, MarkupScanner.isWhitespace(bytes[end - 1]) { end -= 1 }
        guard start < end else { throw .invalid("'\(tag.name)' needs a variable name", at: tag.offset) }
        let valid =
            MarkupScanner.isWordByte(bytes[start])
            && bytes[start..<end].allSatisfy { MarkupScanner.isWordByte($0) || $0 == UInt8(ascii: "-") }
        guard valid else { throw .invalid("'\(text(start..<end))' is not a variable name", at: start) }
        return text(start..<end)
    }

    /// `cycle 'a', 'b'` or `cycle group: 'a', 'b'`.
    func cycle(_ tag: TagItem) throws(TemplateOffsetError) -> Node {
        var parser = try expressions(tag.markup, inTag: true)
        guard !parser.atEnd else { throw .invalid("'cycle' needs values", at: tag.offset) }
        var firstStart = parser.current.start
        var first = try parser.primary()
        var group: CycleGroup?
        if parser.current.kind == .colon {
            _ = parser.advance()
            group = .named(first)
            firstStart = parser.current.start
            first = try parser.primary()
        }
        var values = [first]
        var texts = [text(firstStart..<parser.tokens[parser.index - 1].end)]
        while parser.current.kind == .comma {
            _ = parser.advance()
            let start = parser.current.start
            values.append(try parser.primary())
            texts.append(text(start..<parser.tokens[parser.index - 1].end))
        }
        try parser.expectEnd()
        // Unnamed cycles with the same values (as written) share their place.
        return .cycle(
            Cycle(group: group ?? .unnamed(texts.joined(separator: "\u{0}")), values: values, offset: tag.offset))
    }

    /// `increment name` and `decrement name`.
    func counter(_ tag: TagItem) throws(TemplateOffsetError) -> Node {
        var parser = try expressions(tag.markup, inTag: true)
        let name = try parser.expect(.identifier, "a counter name")
        try parser.expectEnd()
        return .counter(name: parser.text(name), step: tag.name == "increment" ? 1 : -1, offset: tag.offset)
    }

    /// Braze's `abort_message('why')`, `abort_message()` or `abort_message`.
    func abort(_ tag: TagItem) throws(TemplateOffsetError) -> Node {
        var parser = try expressions(tag.markup, inTag: true)
        var message: Expression?
        if parser.current.kind == .openParen {
            _ = parser.advance()
            if parser.current.kind != .closeParen { message = try parser.primary() }
            _ = try parser.expect(.closeParen, "')'")
        } else if !parser.atEnd {
            message = try parser.primary()
        }
        try parser.expectEnd()
        return .abort(message: message, offset: tag.offset)
    }

    /// `{% # … %}`: each line after the first must start with `#` too.
    func checkInlineComment(_ tag: TagItem) throws(TemplateOffsetError) {
        var lineStart: Int?
        for offset in tag.markup {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\n") {
                lineStart = offset + 1
                continue
            }
            guard let start = lineStart else { continue }
            if MarkupScanner.isWhitespace(byte) { continue }
            if byte != UInt8(ascii: "#") {
                throw .invalid("each line of an inline comment must start with '#'", at: start)
            }
            lineStart = nil
        }
    }
}
