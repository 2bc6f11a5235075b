/// The block tags: those with a body and an end tag.
extension TemplateParser {
    /// `if`/`unless`, with `elsif` and `else` branches, to `endif`/`endunless`.
    mutating func conditional<Source: ParseItemSource>(_ tag: TagItem, _ source: inout Source)
        throws(TemplateOffsetError)
        -> Node
    {
        let end = "end" + tag.name
        try enterBlock(tag)
        var branches = [Branch(condition: try condition(tag), negated: tag.name == "unless", body: [])]
        while true {
            let (nodes, stop) = try body(&source, stops: ["elsif", "else", end])
            branches[branches.count - 1].body = nodes
            guard let stop else { throw .invalid("'\(tag.name)' is not closed: no \(end) follows", at: tag.offset) }
            switch stop.name {
            case "elsif": branches.append(Branch(condition: try condition(stop), negated: false, body: []))
            // Ruby ignores what follows `else`; so does Bunting.
            case "else": branches.append(Branch(condition: nil, negated: false, body: []))
            default:
                leaveBlock()
                Blankness.stripIfBlank(&branches)
                return .branches(branches)
            }
        }
    }

    private func condition(_ tag: TagItem) throws(TemplateOffsetError) -> Condition {
        var parser = try expressions(tag.markup, inTag: true)
        guard !parser.atEnd else { throw .invalid("'\(tag.name)' needs a condition", at: tag.offset) }
        let condition = try parser.condition()
        try parser.expectEnd()
        return condition
    }

    /// `case subject` with `when a, b or c` and `else` arms, to `endcase`.
    mutating func caseBlock<Source: ParseItemSource>(_ tag: TagItem, _ source: inout Source) throws(TemplateOffsetError)
        -> Node
    {
        var parser = try expressions(tag.markup, inTag: true)
        guard !parser.atEnd else { throw .invalid("'case' needs a value", at: tag.offset) }
        let subject = try parser.primary()
        try parser.expectEnd()
        try enterBlock(tag)
        // What stands before the first `when` is never rendered.
        var (_, stop) = try body(&source, stops: ["when", "else", "endcase"])
        var arms: [CaseArm] = []
        while let current = stop, current.name != "endcase" {
            let (nodes, next) = try body(&source, stops: ["when", "else", "endcase"])
            if current.name == "when" {
                arms.append(.when(try whenValues(current), body: nodes))
            } else {
                arms.append(.otherwise(nodes))
            }
            stop = next
        }
        guard stop != nil else { throw .invalid("'case' is not closed: no endcase follows", at: tag.offset) }
        leaveBlock()
        Blankness.stripIfBlank(&arms)
        return .caseBlock(CaseBlock(subject: subject, arms: arms))
    }

    /// `when a, b or c`: values separated by commas or `or`.
    private func whenValues(_ tag: TagItem) throws(TemplateOffsetError) -> [Expression] {
        var parser = try expressions(tag.markup, inTag: true)
        guard !parser.atEnd else { throw .invalid("'when' needs a value", at: tag.offset) }
        var values = [try parser.primary()]
        while parser.current.kind == .comma || parser.isWord("or") {
            _ = parser.advance()
            values.append(try parser.primary())
        }
        try parser.expectEnd()
        return values
    }

    /// `for item in collection reversed limit: n offset: m`, with `else`, to `endfor`.
    mutating func forLoop<Source: ParseItemSource>(_ tag: TagItem, _ source: inout Source) throws(TemplateOffsetError)
        -> Node
    {
        var parser = try expressions(tag.markup, inTag: true)
        let variable = try parser.expect(.identifier, "a loop variable after 'for'")
        guard parser.isWord("in") else { throw parser.unexpected(expecting: "'in'") }
        _ = parser.advance()
        let collectionStart = parser.current.start
        let collection = try parser.primary()
        let collectionEnd = parser.tokens[parser.index - 1].end
        var loop = ForLoop(
            variable: parser.text(variable), collection: collection,
            name: parser.text(variable) + "-" + text(collectionStart..<collectionEnd),
            limit: nil, offset: nil, reversed: false, body: [], otherwise: nil, nodeOffset: tag.offset)
        while !parser.atEnd {
            if parser.current.kind == .comma {
                _ = parser.advance()
            } else if parser.isWord("reversed") {
                _ = parser.advance()
                loop.reversed = true
            } else if parser.isWord("limit"), parser.peek().kind == .colon {
                _ = parser.advance()
                _ = parser.advance()
                loop.limit = try parser.primary()
            } else if parser.isWord("offset"), parser.peek().kind == .colon {
                _ = parser.advance()
                _ = parser.advance()
                if parser.isWord("continue") {
                    _ = parser.advance()
                    loop.offset = .continuing
                } else {
                    loop.offset = .value(try parser.primary())
                }
            } else {
                throw parser.unexpected(expecting: "'limit:', 'offset:' or 'reversed'")
            }
        }
        try enterBlock(tag)
        let (nodes, stop) = try body(&source, stops: ["else", "endfor"])
        loop.body = nodes
        guard let stop else { throw .invalid("'for' is not closed: no endfor follows", at: tag.offset) }
        if stop.name == "else" {
            let (otherwise, end) = try body(&source, stops: ["endfor"])
            guard end != nil else { throw .invalid("'for' is not closed: no endfor follows", at: tag.offset) }
            loop.otherwise = otherwise
        }
        leaveBlock()
        Blankness.stripIfBlank(&loop)
        return .forLoop(loop)
    }

    /// `capture name` … `endcapture`.
    mutating func capture<Source: ParseItemSource>(_ tag: TagItem, _ source: inout Source) throws(TemplateOffsetError)
        -> Node
    {
        let name = try variableName(tag.markup, in: tag)
        try enterBlock(tag)
        var (nodes, stop) = try body(&source, stops: ["endcapture"])
        guard stop != nil else { throw .invalid("'capture' is not closed: no endcapture follows", at: tag.offset) }
        leaveBlock()
        Blankness.stripIfBlank(&nodes)
        return .capture(name: name, body: nodes, offset: tag.offset)
    }

    /// `liquid`: a tag a line, up to the end of its markup.
    mutating func liquid(_ tag: TagItem) throws(TemplateOffsetError) -> Node {
        try enterBlock(tag)
        var lines = LiquidLines(bytes: bytes, markup: tag.markup)
        let (nodes, stop) = try body(&lines, stops: [])
        if let stop { throw unexpectedTag(stop) }
        leaveBlock()
        return .sequence(nodes)
    }

    /// `comment` … `endcomment`: nothing inside is parsed, but comments nest
    /// and a `raw` inside hides its body.
    mutating func skipComment<Source: ParseItemSource>(_ tag: TagItem, _ source: inout Source)
        throws(TemplateOffsetError)
    {
        var open = 1
        while let item = try source.next() {
            guard case .tag(let inner) = item else { continue }
            switch inner.name {
            case "comment": open += 1
            case "endcomment":
                open -= 1
                if open == 0 { return }
            case "raw" where !source.isLiquidTag:
                _ = try source.verbatimBody(of: inner)
            default: break
            }
        }
        throw .invalid("'comment' is not closed: no endcomment follows", at: tag.offset)
    }
}
