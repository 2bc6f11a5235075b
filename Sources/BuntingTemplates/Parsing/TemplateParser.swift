/// Parses a template's text into nodes: the block structure of tags, with
/// each output and tag's markup parsed by `ExpressionParser`.
struct TemplateParser {
    let bytes: [UInt8]
    let limits: TemplateLimits
    /// Blocks (and `liquid` tags) open around the current position.
    private var depth = 0
    /// The content blocks the template includes, each with the offset of
    /// its first mention (a class: every expression's parser adds to it).
    let contentBlocks = ContentBlockMentions()

    init(bytes: [UInt8], limits: TemplateLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func parseDocument() throws(TemplateOffsetError) -> [Node] {
        var items = TemplateItems(bytes: bytes)
        let (nodes, stop) = try body(&items, stops: [])
        if let stop { throw unexpectedTag(stop) }
        return nodes
    }

    /// Nodes up to the first tag named in `stops` (returned) or the end of
    /// the source (nil).
    mutating func body<Source: ParseItemSource>(
        _ source: inout Source, stops: Set<String>
    ) throws(TemplateOffsetError) -> (nodes: [Node], stop: TagItem?) {
        var nodes: [Node] = []
        while let item = try source.next() {
            switch item {
            case .text(let text):
                nodes.append(.text(text))
            case .output(let markup, let offset):
                nodes.append(.output(try filtered(markup, inTag: false), offset: offset))
            case .tag(let tag):
                if stops.contains(tag.name) { return (nodes, tag) }
                if let node = try self.tag(tag, &source) { nodes.append(node) }
            }
        }
        return (nodes, nil)
    }

    /// One tag, with its body for a block tag; nil for a comment.
    private mutating func tag<Source: ParseItemSource>(_ tag: TagItem, _ source: inout Source)
        throws(TemplateOffsetError)
        -> Node?
    {
        switch tag.name {
        case "if", "unless": return try conditional(tag, &source)
        case "case": return try caseBlock(tag, &source)
        case "for": return try forLoop(tag, &source)
        case "assign": return try assign(tag)
        case "capture": return try capture(tag, &source)
        case "cycle": return try cycle(tag)
        case "increment", "decrement": return try counter(tag)
        case "echo":
            if isEmpty(tag.markup) {
                return .output(FilteredExpression(base: .literal(.null), filters: []), offset: tag.offset)
            }
            return .output(try filtered(tag.markup, inTag: true), offset: tag.offset)
        case "liquid": return try liquid(tag)
        case "comment":
            try skipComment(tag, &source)
            return nil
        case "#":
            try checkInlineComment(tag)
            return nil
        case "raw":
            let body = try source.verbatimBody(of: tag)
            return .text(String(decoding: bytes[body], as: UTF8.self))
        case "doc":
            guard isEmpty(tag.markup) else { throw .invalid("'doc' takes no arguments", at: tag.offset) }
            _ = try source.verbatimBody(of: tag)
            return nil
        case "break", "continue":
            return .interrupt(tag.name == "break" ? .breakLoop : .continueLoop, offset: tag.offset)
        case "abort_message": return try abort(tag)
        default:
            throw unexpectedTag(tag)
        }
    }

    /// Enters a block body, within `maxNesting`.
    mutating func enterBlock(_ tag: TagItem) throws(TemplateOffsetError) {
        depth += 1
        if depth > limits.maxNesting {
            throw .limit("blocks nested deeper than \(limits.maxNesting)", at: tag.offset)
        }
    }

    mutating func leaveBlock() { depth -= 1 }

    // MARK: - Markup

    func expressions(_ markup: Range<Int>, inTag: Bool) throws(TemplateOffsetError) -> ExpressionParser {
        let parser = try ExpressionParser(bytes: bytes, range: markup, inTag: inTag, maxNesting: limits.maxNesting)
        contentBlocks.note(parser)
        return parser
    }

    func filtered(_ markup: Range<Int>, inTag: Bool) throws(TemplateOffsetError) -> FilteredExpression {
        var parser = try expressions(markup, inTag: inTag)
        guard !parser.atEnd else { return FilteredExpression(base: .literal(.null), filters: []) }
        let expression = try parser.filtered()
        try parser.expectEnd()
        return expression
    }

    func isEmpty(_ markup: Range<Int>) -> Bool {
        bytes[markup].allSatisfy(MarkupScanner.isWhitespace)
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    // MARK: - Errors

    static let endTags: Set<String> = [
        "endif", "endunless", "endcase", "endfor", "endcapture", "endcomment", "endraw", "enddoc",
        "else", "elsif", "when",
    ]

    /// Tags of Braze that fetch or consume something on a server.
    static let networkTags: Set<String> = [
        "connected_content", "promotion", "catalog_items", "catalog_selection_items",
    ]

    /// Standard Liquid tags Bunting leaves out: there is no file system to
    /// include from, and no HTML tables or change tracking to render.
    static let unsupportedTags: Set<String> = ["include", "render", "tablerow", "ifchanged"]

    func unexpectedTag(_ tag: TagItem) -> TemplateOffsetError {
        if Self.networkTags.contains(tag.name) {
            return .invalid(
                "the tag '\(tag.name)' is refused: it would reach the network, and templates render offline",
                at: tag.offset)
        }
        if Self.unsupportedTags.contains(tag.name) {
            return .invalid("the tag '\(tag.name)' is not supported", at: tag.offset)
        }
        if Self.endTags.contains(tag.name) {
            return .invalid("unexpected '\(tag.name)': no open block it belongs to", at: tag.offset)
        }
        return .invalid("unknown tag '\(tag.name)'", at: tag.offset)
    }
}

/// The content blocks a template names (`content_blocks.${name}`), found in
/// the tokens of every expression as it is parsed, so that a document can
/// check at load that each exists.
final class ContentBlockMentions {
    private(set) var offsets: [String: Int] = [:]

    func note(_ parser: ExpressionParser) {
        let tokens = parser.tokens
        guard tokens.count >= 3 else { return }
        for index in 0..<(tokens.count - 2)
        where tokens[index].kind == .identifier && tokens[index + 1].kind == .dot
            && tokens[index + 2].kind == .attribute
            && (index == 0 || tokens[index - 1].kind != .dot) && parser.text(tokens[index]) == "content_blocks"
        {
            let name = parser.text(tokens[index + 2])
            if offsets[name] == nil { offsets[name] = tokens[index].start }
        }
    }
}
