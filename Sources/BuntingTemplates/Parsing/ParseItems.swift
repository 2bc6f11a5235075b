/// What the block parser reads: text, outputs and tags, from a template's
/// text or from the lines of a `liquid` tag.
enum ParseItem {
    case text(String)
    /// An output's markup (inside `{{ }}`).
    case output(markup: Range<Int>, offset: Int)
    case tag(TagItem)
}

/// A tag: its name and the markup after the name.
struct TagItem {
    var name: String
    var markup: Range<Int>
    /// Where the tag starts, for errors.
    var offset: Int
}

/// A source of parse items, and of the verbatim bodies `raw` and `doc` take.
protocol ParseItemSource {
    /// Whether the items come from a `liquid` tag, where Braze's braces are
    /// not expected and `raw` is not available.
    var isLiquidTag: Bool { get }
    mutating func next() throws(TemplateOffsetError) -> ParseItem?
    /// The verbatim body of `tag` (raw, doc), whose opening tag was just read.
    mutating func verbatimBody(of tag: TagItem) throws(TemplateOffsetError) -> Range<Int>
}

extension TagItem {
    /// Splits a tag's content into its name and markup: the name is `#` or
    /// a word of letters, digits and `_`.
    static func reading(_ bytes: [UInt8], content: Range<Int>, offset: Int) throws(TemplateOffsetError) -> TagItem {
        var start = content.lowerBound
        while start < content.upperBound, MarkupScanner.isWhitespace(bytes[start]) { start += 1 }
        guard start < content.upperBound else { throw .invalid("a tag needs a name", at: offset) }
        if bytes[start] == UInt8(ascii: "#") {
            return TagItem(name: "#", markup: (start + 1)..<content.upperBound, offset: offset)
        }
        var end = start
        while end < content.upperBound, MarkupScanner.isWordByte(bytes[end]) { end += 1 }
        guard end > start else {
            throw .invalid(
                "a tag needs a name, not \(ExpressionLexer.describe(bytes, at: start, end: content.upperBound))",
                at: offset)
        }
        return TagItem(
            name: String(decoding: bytes[start..<end], as: UTF8.self), markup: end..<content.upperBound, offset: offset)
    }
}

/// The items of a template's text.
struct TemplateItems: ParseItemSource {
    private var scanner: MarkupScanner
    var isLiquidTag: Bool { false }

    init(bytes: [UInt8]) {
        scanner = MarkupScanner(bytes: bytes)
    }

    mutating func next() throws(TemplateOffsetError) -> ParseItem? {
        guard let token = try scanner.next() else { return nil }
        switch token.kind {
        case .text:
            return .text(String(decoding: scanner.bytes[token.contentStart..<token.contentEnd], as: UTF8.self))
        case .output:
            return .output(markup: token.contentStart..<token.contentEnd, offset: token.start)
        case .tag:
            return .tag(
                try TagItem.reading(scanner.bytes, content: token.contentStart..<token.contentEnd, offset: token.start))
        }
    }

    mutating func verbatimBody(of tag: TagItem) throws(TemplateOffsetError) -> Range<Int> {
        try scanner.verbatimBody(of: tag.name, openedAt: tag.offset).body
    }
}

/// The items of a `liquid` tag: one tag a line, `echo` for output, `#` for
/// comments. Lines end at a newline (a carriage return before it is dropped).
struct LiquidLines: ParseItemSource {
    let bytes: [UInt8]
    private var position: Int
    private let end: Int
    var isLiquidTag: Bool { true }

    init(bytes: [UInt8], markup: Range<Int>) {
        self.bytes = bytes
        position = markup.lowerBound
        end = markup.upperBound
    }

    /// The next line that holds more than whitespace, without its line end.
    private mutating func nextLine() -> Range<Int>? {
        while position < end {
            let start = position
            var stop = start
            while stop < end, bytes[stop] != UInt8(ascii: "\n") { stop += 1 }
            position = stop < end ? stop + 1 : end
            var lineEnd = stop
            if lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: "\r"), stop < end { lineEnd -= 1 }
            var contentStart = start
            while contentStart < lineEnd, MarkupScanner.isWhitespace(bytes[contentStart]) { contentStart += 1 }
            if contentStart < lineEnd { return contentStart..<lineEnd }
        }
        return nil
    }

    mutating func next() throws(TemplateOffsetError) -> ParseItem? {
        guard let line = nextLine() else { return nil }
        let tag = try TagItem.reading(bytes, content: line, offset: line.lowerBound)
        return .tag(tag)
    }

    mutating func verbatimBody(of tag: TagItem) throws(TemplateOffsetError) -> Range<Int> {
        guard tag.name == "doc" else {
            throw .invalid("'\(tag.name)' cannot be used inside a liquid tag", at: tag.offset)
        }
        let start = position
        while let line = nextLine() {
            let inner = try TagItem.reading(bytes, content: line, offset: line.lowerBound)
            if inner.name == "end" + tag.name { return start..<line.lowerBound }
        }
        throw .invalid("'\(tag.name)' is not closed: no end\(tag.name) follows", at: tag.offset)
    }
}
