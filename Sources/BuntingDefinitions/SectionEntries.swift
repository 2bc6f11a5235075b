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
        case text([UInt8], spans: EntrySpans, section: String)
        case parsed([JSON])
    }

    private var source: Source
    let count: Int
    /// An object section's keys, in the order written (distinct); nil for an array.
    let keys: [String]?
    /// How many bytes the entries are written in, when given out from their text (else 0).
    var textBytes: Int {
        guard case .text(_, let spans, _) = source else { return 0 }
        return spans.textBytes
    }

    init(text: [UInt8], spans: [Range<Int>], section: String) {
        source = .text(text, spans: EntrySpans(spans, in: text.count), section: section)
        count = spans.count
        keys = nil
    }

    /// An object's members as written in `text`, their keys distinct.
    init(text: [UInt8], members: [JSONMemberSpans.Member], section: String) {
        source = .text(text, spans: EntrySpans(members.map(\.value), in: text.count), section: section)
        count = members.count
        keys = members.map(\.key)
    }

    init(parsed entries: [JSON]) {
        source = .parsed(entries)
        count = entries.count
        keys = nil
    }

    init(parsed object: JSONObject) {
        var values: [JSON] = []
        values.reserveCapacity(object.count)
        for member in object { values.append(member.value) }
        source = .parsed(values)
        count = object.count
        keys = object.keys
    }

    /// The entries at `range`; each is given out once. An entry that does not
    /// parse throws the whole text's error (see `DocumentSections`).
    func batch(_ range: Range<Int>) throws(JSONParseError) -> [JSON] {
        switch source {
        case .text(let bytes, let spans, let section):
            let parsed = bytes.withUnsafeBytes { text in
                Result { () throws(JSONParseError) -> [JSON] in
                    // Two levels below the document: its object, the section's array or object.
                    try range.map { (index) throws(JSONParseError) -> JSON in
                        try JSON.parse(
                            UnsafeRawBufferPointer(rebasing: text[spans[index]]), maxDepth: JSON.defaultMaxDepth - 2)
                    }
                }
            }
            guard case .success(let entries) = parsed else {
                throw DocumentSections.wholeTextError(bytes, section: section)
            }
            // The last batch given out: the spans are not needed again.
            if range.upperBound == count { source = .parsed([]) }
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
