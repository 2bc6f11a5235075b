import BuntingJSON

/// The entries of a large section — an array's elements (banners, cards)
/// or an object's members (flags, their keys in `keys`) — handed out a
/// batch at a time and not held here afterwards. When the document was read
/// in sections, each entry is parsed from its own text as its batch is
/// taken (`JSONElementSpans`), so that no more than a batch of entries is
/// ever a tree: the whole parsed section was most of the peak of loading
/// (at 18,000 banners, about 20 MB beside the 6 MB of text). When it was
/// parsed whole, the parsed entries are given out and freed a batch at a
/// time, so that what is left of the section shrinks while what is
/// compiled from it grows.
final class SectionEntries {
    private enum Source {
        case text(DocumentText, spans: EntrySpans, section: String)
        case parsed([JSON])
    }

    private var source: Source
    /// Where the batches given back one after another up to the last one
    /// start in the text (nil when the last batch was kept).
    private var runGivenBack: Int?
    let count: Int
    /// An object section's keys, in the order written (distinct); nil for an array.
    let keys: [String]?
    /// The section's name, when its entries are given out from their text.
    let section: String?
    /// How many bytes the entries are written in, when given out from their text (else 0).
    var textBytes: Int {
        guard case .text(_, let spans, _) = source else { return 0 }
        return spans.textBytes
    }

    init(text: DocumentText, spans: [Range<Int>], section: String) {
        source = .text(text, spans: EntrySpans(spans, in: text.count), section: section)
        count = spans.count
        keys = nil
        self.section = section
    }

    /// An object's members as written in `text`, their keys distinct.
    init(text: DocumentText, members: [JSONMemberSpans.Member], section: String) {
        source = .text(text, spans: EntrySpans(members.map(\.value), in: text.count), section: section)
        count = members.count
        keys = members.map(\.key)
        self.section = section
    }

    init(parsed entries: [JSON]) {
        source = .parsed(entries)
        count = entries.count
        keys = nil
        section = nil
    }

    init(parsed object: JSONObject) {
        var values: [JSON] = []
        values.reserveCapacity(object.count)
        for member in object { values.append(member.value) }
        source = .parsed(values)
        count = object.count
        keys = object.keys
        section = nil
    }

    /// The entries at `range`; each is given out once. An entry that does not
    /// parse throws the whole text's error (see `DocumentSections`). Once
    /// the entries at `range` are done with, `finished` is told.
    func batch(_ range: Range<Int>) throws(JSONParseError) -> [JSON] {
        switch source {
        case .text(let text, let spans, let section):
            var failed: Int?
            let parsed = text.withUnsafeBytes { bytes in
                Result { () throws(JSONParseError) -> [JSON] in
                    // Two levels below the document: its object, the section's array or object.
                    try range.map { (index) throws(JSONParseError) -> JSON in
                        failed = index
                        return try JSON.parse(
                            UnsafeRawBufferPointer(rebasing: bytes[spans[index]]), maxDepth: JSON.defaultMaxDepth - 2)
                    }
                }
            }
            guard case .success(let entries) = parsed else {
                if text.hasGivenBack, let failed {
                    throw Self.entryError(text, span: spans[failed], inObject: keys != nil, section: section)
                }
                throw DocumentSections.wholeTextError(text, section: section)
            }
            return entries
        case .parsed(var entries):
            let batch = Array(entries[range])
            // Freed together: one free block for what the next entries keep.
            source = .parsed([])
            for index in range { entries[index] = .null }
            source = .parsed(entries)
            return batch
        }
    }
}

extension SectionEntries {
    /// Where entry `index` is written in the document's text; nil when the
    /// entries were parsed whole.
    func span(of index: Int) -> Range<Int>? {
        guard case .text(_, let spans, _) = source else { return nil }
        return spans[index]
    }

    /// Done with the entries at `range`: with `givingBack`, the pages of
    /// their text are given back (see `DocumentText`), nothing in it to be
    /// read again, from where the batches given back just before them
    /// start (so that the page two batches share goes too). After the last
    /// batch the spans go too.
    func finished(_ range: Range<Int>, givingBack: Bool) {
        guard case .text(let text, let spans, _) = source, let first = range.first, let last = range.last else {
            return
        }
        if givingBack {
            let start = runGivenBack ?? spans[first].lowerBound
            text.giveBack(start..<spans[last].upperBound)
            runGivenBack = start
        } else {
            runGivenBack = nil
        }
        if range.upperBound == count { source = .parsed([]) }
    }

    /// The error jansson gives for the whole text at an entry that does not
    /// parse, once text before it has been given back: the entry is parsed
    /// as the only element of an array, or the only member's value of an
    /// object, where the parser stands as it stands in the section (after
    /// the value it expects `,` or the section's end, as it does there), and
    /// the error's place is moved to the entry's. The tests check it against
    /// the whole text's error.
    fileprivate static func entryError(
        _ text: DocumentText, span: Range<Int>, inObject: Bool, section: String
    ) -> JSONParseError {
        // Before the entry, one line's worth of bytes and columns (ASCII).
        let opening = Array((inObject ? #"{"":"# : "[").utf8)
        var wrapped = opening
        text.withUnsafeBytes { wrapped += UnsafeRawBufferPointer(rebasing: $0[span]) }
        wrapped.append(UInt8(ascii: inObject ? "}" : "]"))
        let error: JSONParseError
        do {
            // One level below the document's: the wrapping stands for the section.
            _ = try JSON.parse(wrapped, maxDepth: JSON.defaultMaxDepth - 1)
            return JSONParseError(
                kind: .other, message: "the \(section) section does not parse", line: 0, column: 0, position: 0)
        } catch let found {
            error = found
        }
        let message =
            error.kind == .tooDeep
            ? "arrays and objects nested deeper than \(JSON.defaultMaxDepth) levels" : error.message
        guard error.line > 0 else {
            return JSONParseError(kind: error.kind, message: message, line: 0, column: 0, position: 0)
        }
        let start = text.location(ofOffset: span.lowerBound)
        let column = error.line == 1 ? start.column - 1 + error.column - opening.count : error.column
        return JSONParseError(
            kind: error.kind, message: message, line: start.line + error.line - 1, column: column,
            position: span.lowerBound + error.position - opening.count)
    }
}

/// Where each entry is written in the text. Under 4 GB of text (any
/// document within the limits) a start and a length of 32 bits each, in
/// one array sized to them: held as `[Range<Int>]` as they were found
/// (grown by appending), the spans of 18,000 cards took 0.5 MB at the peak
/// of loading (massif), where these take 144 KB.
struct EntrySpans {
    private enum Storage {
        case narrow([UInt32])
        case wide([Range<Int>])
    }

    private let storage: Storage

    init(_ spans: [Range<Int>], in textCount: Int) {
        guard textCount <= Int(UInt32.max) else {
            storage = .wide(spans)
            return
        }
        // None: the empty array itself (made with a capacity of 0, an array
        // writes its count into the one empty storage every thread shares).
        guard !spans.isEmpty else {
            storage = .narrow([])
            return
        }
        storage = .narrow(
            [UInt32](unsafeUninitializedCapacity: 2 * spans.count) { buffer, count in
                for (index, span) in spans.enumerated() {
                    buffer[2 * index] = UInt32(span.lowerBound)
                    buffer[2 * index + 1] = UInt32(span.count)
                }
                count = 2 * spans.count
            })
    }

    subscript(index: Int) -> Range<Int> {
        switch storage {
        case .narrow(let fields):
            let start = Int(fields[2 * index])
            return start..<(start + Int(fields[2 * index + 1]))
        case .wide(let spans): return spans[index]
        }
    }

    /// How many bytes the entries are written in.
    var textBytes: Int {
        switch storage {
        case .narrow(let fields): stride(from: 1, to: fields.count, by: 2).reduce(0) { $0 + Int(fields[$1]) }
        case .wide(let spans): spans.reduce(0) { $0 + $1.count }
        }
    }
}
