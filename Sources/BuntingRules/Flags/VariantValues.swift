import BuntingJSON

/// A flag's variant values by position. An object or array is kept as the
/// compact text it is written as (`EncodedJSON`) and read back into a tree
/// when asked for; numbers, strings, Booleans and null stay as they are.
///
/// Why: held as trees, the variants were the largest part of a loaded
/// flag-heavy document (about 14 MB of 26 MB at 18,000 flags whose `on`
/// variant is an object of three properties, massif): every object is an
/// array of members of its own. Their text takes about a third of that.
/// A value is read rarely: a user's flag is made once per variant met and
/// shared with every later user (`Definitions.featureFlags`), so reading
/// the text again costs the first users, not every change. A type check
/// reads only the kind of value (`typeStandIn`), never the text.
struct VariantValues: Sendable {
    private let storage: Storage

    /// How the values are held.
    private enum Storage: Sendable {
        /// Each value as kept, and the texts of those kept as `inline`, one
        /// after another in one array sized to them: an array for each value
        /// cost its header and the allocator's overhead again (at 18,000
        /// flags of two object variants, about 1.6 MB over 4.3 MB of text,
        /// massif).
        case kept([Kept], text: [UInt8])
        /// Where every value is an object or array of the flag's own text,
        /// `true`, `false` or `null` (what most flags hold): one array, an
        /// 8-byte `Entry` per value, then the texts. The array of `Kept`
        /// beside the text was another allocation per flag (1.4 MB at 20,000
        /// flags, massif).
        case packed([UInt8], count: Int32)
    }

    /// A value of a `packed` storage: its kind, and where its text is.
    private struct Entry {
        let raw: UInt64

        enum Kind: UInt64 {
            case object = 0, array, `true`, `false`, null
        }

        /// Bits 0-3 the kind, 4-33 the start, 34-63 the count: a document
        /// is far under a gigabyte (`--max-document-size`).
        static let fieldLimit = 1 << 30

        init(_ kind: Kind, start: Int = 0, count: Int = 0) {
            raw = kind.rawValue | UInt64(start) << 4 | UInt64(count) << 34
        }

        init(raw: UInt64) { self.raw = raw }

        var kind: Kind { Kind(rawValue: raw & 0xF) ?? .null }

        /// The value where it is a literal; for a text, an empty object or
        /// array (what `typeStandIn` gives).
        var standIn: JSON {
            switch kind {
            case .object: .object(JSONObject())
            case .array: .array([])
            case .true: .bool(true)
            case .false: .bool(false)
            case .null: .null
            }
        }
        var range: Range<Int> {
            let start = Int(raw >> 4 & UInt64(Self.fieldLimit - 1))
            return start..<(start + Int(raw >> 34))
        }
    }

    /// One value as kept.
    enum Kept: Sendable {
        case tree(JSON)
        /// An object or array's text of its own, which reads back to the
        /// same value: a value shared by flags (see `VariantTables`).
        case text(EncodedJSON, isArray: Bool)
        /// An object or array's text at `start` in the flag's `text`, which
        /// reads back to the same value.
        case inline(start: Int32, count: Int32, isArray: Bool)

        /// `value` as it is best kept: as text where it is an object or
        /// array whose text reads back to exactly the same value (it always
        /// should; a value that does not stays a tree, detached). `text` is
        /// `value.encoded()` in an array of its own size (`exactlySized`).
        init(_ value: JSON) {
            self.init(value, text: Self.exactlySized(value.encoded()))
        }

        init(_ value: JSON, text: [UInt8]) {
            if Self.readsBack(text, as: value) {
                self = .text(EncodedJSON(trustedText: text), isArray: value.arrayValue != nil)
            } else {
                // A copy: the value outlives the parsed document (see `JSON.detached`).
                self = .tree(value.detached())
            }
        }

        /// Whether `value` is an object or array that `text` reads back to exactly.
        static func readsBack(_ text: [UInt8], as value: JSON) -> Bool {
            switch value {
            case .object, .array:
                guard let back = try? JSON.parse(text) else { return false }
                return ExactJSON(back) == ExactJSON(value)
            default:
                return false
            }
        }

        /// The text in an array of its own size: as written, its array had
        /// grown by doubling, up to twice the size (at 18,000 flags, 6.5 MB
        /// for 4.5 MB of text, massif).
        static func exactlySized(_ text: [UInt8]) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: text.count) { buffer, count in
                count = buffer.initialize(fromContentsOf: text)
            }
        }
    }

    init(_ values: [Kept], text: [UInt8] = []) {
        storage = .kept(values, text: text)
    }

    /// A value of a flag's own text (an object's or array's, longer than
    /// those shared), and its place among the flag's values.
    typealias OwnText = (position: Int, text: [UInt8], isArray: Bool)

    /// The values in one array (`packed`): each one's entry, then the
    /// texts, in order. `kept` are the values, where those of `own` hold a
    /// stand-in; nil when there are none, when another is not `true`,
    /// `false` or `null`, or when a text is too long to place.
    static func packed(_ kept: [Kept], own: [OwnText]) -> VariantValues? {
        let entrySize = MemoryLayout<UInt64>.size
        var total = kept.count * entrySize
        for value in own { total += value.text.count }
        guard !kept.isEmpty, total < Entry.fieldLimit else { return nil }
        var next = 0
        for position in kept.indices {
            if next < own.count, own[next].position == position {
                next += 1
                continue
            }
            switch kept[position] {
            case .tree(.bool), .tree(.null): continue
            default: return nil
            }
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var start = kept.count * entrySize
            var next = 0
            for position in kept.indices {
                let entry: Entry
                if next < own.count, own[next].position == position {
                    let value = own[next]
                    next += 1
                    value.text.withUnsafeBytes { text in
                        if !text.isEmpty {
                            raw.baseAddress!.advanced(by: start).copyMemory(
                                from: text.baseAddress!, byteCount: text.count)
                        }
                    }
                    entry = Entry(value.isArray ? .array : .object, start: start, count: value.text.count)
                    start += value.text.count
                } else if case .tree(.bool(let flag)) = kept[position] {
                    entry = Entry(flag ? .true : .false)
                } else {
                    entry = Entry(.null)
                }
                raw.storeBytes(of: entry.raw, toByteOffset: position * entrySize, as: UInt64.self)
            }
            count = total
        }
        return VariantValues(storage: .packed(bytes, count: Int32(kept.count)))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    var count: Int {
        switch storage {
        case .kept(let values, _): values.count
        case .packed(_, let count): Int(count)
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Whether every value is in the one array (`packed`).
    var isPacked: Bool {
        if case .packed = storage { return true }
        return false
    }

    private static func entry(_ bytes: [UInt8], _ position: Int) -> Entry {
        bytes.withUnsafeBytes { raw in
            Entry(raw: raw.loadUnaligned(fromByteOffset: position * MemoryLayout<UInt64>.size, as: UInt64.self))
        }
    }

    private static func parsed(_ bytes: [UInt8], _ range: Range<Int>) -> JSON {
        bytes.withUnsafeBytes { raw in (try? JSON.parse(UnsafeRawBufferPointer(rebasing: raw[range]))) ?? .null }
    }

    /// The value at `position`, read back from its text if kept as text.
    subscript(position: Int) -> JSON {
        switch storage {
        case .kept(let values, let text):
            switch values[position] {
            case .tree(let value): return value
            // The text read back to this value when it was kept.
            case .text(let text, _): return (try? JSON.parse(text.bytes)) ?? .null
            case .inline(let start, let count, _): return Self.parsed(text, Int(start)..<Int(start + count))
            }
        case .packed(let bytes, _):
            let entry = Self.entry(bytes, position)
            switch entry.kind {
            case .object, .array: return Self.parsed(bytes, entry.range)
            case .true, .false, .null: return entry.standIn
            }
        }
    }

    /// The text of the value at `position` where it is an object kept as
    /// text: what a flag is made from without reading the value into a tree.
    func objectText(at position: Int) -> VariantText? {
        switch storage {
        case .kept(let values, let text):
            switch values[position] {
            case .text(let text, isArray: false): return VariantText(owner: text.bytes, range: 0..<text.bytes.count)
            case .inline(let start, let count, isArray: false):
                return VariantText(owner: text, range: Int(start)..<Int(start + count))
            default: return nil
            }
        case .packed(let bytes, _):
            let entry = Self.entry(bytes, position)
            return entry.kind == .object ? VariantText(owner: bytes, range: entry.range) : nil
        }
    }

    func isNull(at position: Int) -> Bool {
        switch storage {
        case .kept(let values, _):
            if case .tree(.null) = values[position] { return true }
            return false
        case .packed(let bytes, _):
            return Self.entry(bytes, position).kind == .null
        }
    }

    /// The value where it is kept as a tree; for one kept as text, an empty
    /// object or array: what a check of the value's type reads, without
    /// reading the text.
    func typeStandIn(at position: Int) -> JSON {
        switch storage {
        case .kept(let values, _):
            switch values[position] {
            case .tree(let value): return value
            case .text(_, let isArray), .inline(_, _, let isArray): return isArray ? .array([]) : .object(JSONObject())
            }
        case .packed(let bytes, _):
            return Self.entry(bytes, position).standIn
        }
    }
}

/// A variant's object value as the compact text it is kept as: `range` of
/// `owner`'s bytes, which may hold other values' texts around it (its
/// flag's other variants). Whoever keeps a part of it keeps `owner`.
public struct VariantText: Sendable {
    public let owner: [UInt8]
    public let range: Range<Int>
}
