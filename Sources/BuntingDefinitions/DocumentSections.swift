import BuntingJSON

/// A definitions document read one large section at a time: `flags`,
/// `banners` and `contentCards` are parsed when taken, and no longer held
/// here once they are, so that the parsed flags are freed before the cards
/// are parsed. At 10,000 flags + 10,000 cards the whole parsed document was
/// most of the peak of loading; it never exists here. The banners and cards
/// are not parsed whole either: `takeEntries` gives them out a batch of
/// entries at a time, each parsed from its own text (`SectionEntries`).
///
/// The sections are found in the text by `JSONMemberSpans`, every key is
/// read by jansson, and every value is parsed by jansson on its own, so
/// that the text is accepted exactly when jansson accepts it whole: a
/// top-level key given twice, or holding `\u0000`, or a text that does not
/// read member by member, is parsed whole instead, and a section that does
/// not parse is reported with jansson's error for the whole text.
struct DocumentSections {
    /// The top-level members that are not one of the large sections, parsed.
    private(set) var rest = JSONObject()
    /// Where each large section not yet taken is written (read in sections).
    private var unparsed: [String: Range<Int>] = [:]
    /// The large sections not yet taken (read whole).
    private var parsed: [String: JSON] = [:]
    /// The document, when it is not an object: nothing to take sections from.
    private(set) var notAnObject: JSON?
    /// Where each top-level member's value starts in the text, when it was read in sections.
    private(set) var memberStarts: [String: Int] = [:]
    private let text: DocumentText

    static let large: Set<String> = ["flags", "banners", "contentCards"]

    /// Every top-level key of the document, large sections not yet taken included.
    var topLevelKeys: [String] { rest.keys + Array(unparsed.keys) + Array(parsed.keys) }

    init(_ bytes: [UInt8]) throws(JSONParseError) {
        try self.init(DocumentText(bytes))
    }

    init(_ text: DocumentText) throws(JSONParseError) {
        self.text = text
        if readInSections() { return }
        let document = try text.withUnsafeBytes { (bytes) throws(JSONParseError) in try JSON.parse(bytes) }
        guard case .object(let whole) = document else {
            notAnObject = document
            return
        }
        for member in whole {
            if Self.large.contains(member.key) {
                parsed[member.key] = member.value
            } else {
                rest[member.key] = member.value
            }
        }
    }

    /// Whether the text read as an object, member by member, as jansson would read it.
    private mutating func readInSections() -> Bool {
        let sections = self.text.withUnsafeBytes {
            text -> (rest: JSONObject, unparsed: [String: Range<Int>], starts: [String: Int])? in
            guard let members = JSONMemberSpans.members(of: text, in: 0..<text.count) else { return nil }
            var rest = JSONObject()
            var unparsed: [String: Range<Int>] = [:]
            var starts: [String: Int] = [:]
            var keys = Set<[UInt8]>()
            for member in members {
                guard case .string(let key)? = try? JSON.parse(UnsafeRawBufferPointer(rebasing: text[member.keyText])),
                    !key.utf8.contains(0), keys.insert(Array(key.utf8)).inserted
                else { return nil }
                starts[key] = member.value.lowerBound
                if Self.large.contains(key) {
                    unparsed[key] = member.value
                } else {
                    guard let value = try? Self.parse(text, member.value) else { return nil }
                    rest[key] = value
                }
            }
            return (rest, unparsed, starts)
        }
        guard let sections else { return false }
        (rest, unparsed, memberStarts) = sections
        return true
    }

    /// A member's value: one level below the document, so one level less of nesting is allowed.
    private static func parse(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) throws(JSONParseError) -> JSON {
        try JSON.parse(UnsafeRawBufferPointer(rebasing: text[range]), maxDepth: JSON.defaultMaxDepth - 1)
    }

    /// The large section `name` as entries parsed a batch at a time when it
    /// is an array written in the text (`SectionEntries`), else parsed now;
    /// nil when the document has none. Not held here afterwards.
    mutating func takeEntries(_ name: String) throws(JSONParseError) -> LargeSection? {
        if let spans = takeApart(name, { JSONElementSpans.elements(of: $0, in: $1) }) {
            return .entries(SectionEntries(text: text, spans: spans, section: name))
        }
        switch try take(name) {
        case nil: return nil
        case .array(let entries)?: return .entries(SectionEntries(parsed: entries))
        case let other?: return .other(other)
        }
    }

    /// The large section `name` as members parsed a batch at a time when it
    /// is an object written in the text with distinct keys that jansson
    /// reads as they were decoded (else parsed now, and given out in
    /// batches all the same when it is an object); nil when the document
    /// has none. Not held here afterwards.
    mutating func takeMembers(_ name: String) throws(JSONParseError) -> LargeSection? {
        if let members = takeApart(name, Self.distinctMembers) {
            return .entries(SectionEntries(text: text, members: members, section: name))
        }
        switch try take(name) {
        case nil: return nil
        case .object(let members)?: return .entries(SectionEntries(parsed: members))
        case let other?: return .other(other)
        }
    }

    /// Where the pieces of the large section `name` are written, as `find`
    /// finds them in its text (nil when it finds none, or the section was
    /// read whole); the section is then taken.
    private mutating func takeApart<Pieces>(
        _ name: String, _ find: (UnsafeRawBufferPointer, Range<Int>) -> Pieces?
    ) -> Pieces? {
        guard parsed[name] == nil, let range = unparsed[name],
            let pieces = text.withUnsafeBytes({ find($0, range) })
        else { return nil }
        unparsed.removeValue(forKey: name)
        return pieces
    }

    /// The members of the object written at `range`, when they can be
    /// parsed apart to what jansson reads from the whole: no key given
    /// twice (jansson refuses a text with one), none holding
    /// `\u0000` (which jansson refuses in a key), and every key that is not
    /// plain printable ASCII read by jansson itself, which also checks its
    /// UTF-8. Nil otherwise: the section is then parsed whole.
    private static func distinctMembers(of text: UnsafeRawBufferPointer, in range: Range<Int>)
        -> [JSONMemberSpans.Member]?
    {
        guard let members = JSONMemberSpans.members(of: text, in: range) else { return nil }
        var keys = Set<ExactString>(minimumCapacity: members.count)
        for member in members {
            let written = UnsafeRawBufferPointer(rebasing: text[member.keyText])
            let plain = !written.contains { $0 < 0x20 || $0 >= 0x80 || $0 == UInt8(ascii: "\\") }
            if !plain {
                guard case .string(let key)? = try? JSON.parse(written), key.utf8.elementsEqual(member.key.utf8),
                    !key.utf8.contains(0)
                else { return nil }
            }
            guard keys.insert(ExactString(member.key)).inserted else { return nil }
        }
        return members
    }

    /// The large section `name`, parsed now (nil when the document has none);
    /// it is not held here afterwards.
    mutating func take(_ name: String) throws(JSONParseError) -> JSON? {
        if let value = parsed.removeValue(forKey: name) { return value }
        guard let range = unparsed.removeValue(forKey: name) else { return nil }
        let result = text.withUnsafeBytes { text in
            Result { () throws(JSONParseError) -> JSON in try Self.parse(text, range) }
        }
        switch result {
        case .success(let value):
            return value
        case .failure:
            throw Self.wholeTextError(text, section: name)
        }
    }

    /// A section's text did not parse: the whole text then does not parse
    /// either, and its error has the message and position a reader expects.
    static func wholeTextError(_ text: DocumentText, section name: String) -> JSONParseError {
        do {
            try text.withUnsafeBytes { (bytes) throws(JSONParseError) in _ = try JSON.parse(bytes) }
        } catch {
            return error
        }
        return JSONParseError(
            kind: .other, message: "the \(name) section does not parse", line: 0, column: 0, position: 0)
    }
}

/// A large section as `DocumentSections.takeEntries` gives it.
enum LargeSection {
    /// An array, its entries to be taken a batch at a time.
    case entries(SectionEntries)
    /// Anything else (the schema says what is wrong with it).
    case other(JSON)

    /// The section whole, for what reads it as one value.
    func whole() throws(JSONParseError) -> JSON {
        switch self {
        case .other(let value): return value
        case .entries(let entries):
            let values = try entries.batch(0..<entries.count)
            entries.finished(0..<entries.count, givingBack: false)
            guard let keys = entries.keys else { return .array(values) }
            return .object(JSONObject(Array(zip(keys, values))))
        }
    }
}

extension Definitions {
    /// The document as `load` reads it, section by section, put together
    /// again; nil when it does not parse. For the fuzz target, which checks
    /// it against jansson's reading of the whole text.
    @_spi(Fuzzing)
    public static func readInSections(_ bytes: [UInt8]) -> JSON? {
        guard var sections = try? DocumentSections(bytes) else { return nil }
        if let document = sections.notAnObject { return document }
        var document = sections.rest
        for name in ["flags", "banners", "contentCards"] {
            do {
                if name == "flags" {
                    if let section = try sections.takeMembers(name) { document[name] = try section.whole() }
                } else if let section = try sections.takeEntries(name) {
                    document[name] = try section.whole()
                }
            } catch {
                return nil
            }
        }
        return .object(document)
    }
}
