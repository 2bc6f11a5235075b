import BuntingJSON

/// The entries of a large array section (banners, cards), handed out a
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
        case text([UInt8], spans: [Range<Int>], section: String)
        case parsed([JSON])
    }

    private var source: Source
    let count: Int

    init(text: [UInt8], spans: [Range<Int>], section: String) {
        source = .text(text, spans: spans, section: section)
        count = spans.count
    }

    init(parsed entries: [JSON]) {
        source = .parsed(entries)
        count = entries.count
    }

    /// The entries at `range`; each is given out once. An entry that does not
    /// parse throws the whole text's error (see `DocumentSections`).
    func batch(_ range: Range<Int>) throws(JSONParseError) -> [JSON] {
        switch source {
        case .text(let bytes, let spans, let section):
            let parsed = bytes.withUnsafeBytes { text in
                Result { () throws(JSONParseError) -> [JSON] in
                    // Two levels below the document: its object, the section's array.
                    try range.map { (index) throws(JSONParseError) -> JSON in
                        try JSON.parse(
                            UnsafeRawBufferPointer(rebasing: text[spans[index]]), maxDepth: JSON.defaultMaxDepth - 2)
                    }
                }
            }
            guard case .success(let entries) = parsed else {
                throw DocumentSections.wholeTextError(bytes, section: section)
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
