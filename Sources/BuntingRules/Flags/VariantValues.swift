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
    private let values: [Kept]
    /// The texts of this flag's values kept as `inline`, one after another,
    /// in one array sized to them: an array for each value cost its header
    /// and the allocator's overhead again (at 18,000 flags of two object
    /// variants, about 1.6 MB over 4.3 MB of text, massif).
    private let text: [UInt8]

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
        self.values = values
        self.text = text
    }

    var count: Int { values.count }
    var isEmpty: Bool { values.isEmpty }

    /// The value at `position`, read back from its text if kept as text.
    subscript(position: Int) -> JSON {
        switch values[position] {
        case .tree(let value): return value
        // The text read back to this value when it was kept.
        case .text(let text, _): return (try? JSON.parse(text.bytes)) ?? .null
        case .inline(let start, let count, _):
            return text.withUnsafeBytes { bytes in
                (try? JSON.parse(UnsafeRawBufferPointer(rebasing: bytes[Int(start)..<Int(start + count)]))) ?? .null
            }
        }
    }

    /// The text of the value at `position` where it is an object kept as
    /// text: what a flag is made from without reading the value into a tree.
    func objectText(at position: Int) -> VariantText? {
        switch values[position] {
        case .text(let text, isArray: false): return VariantText(owner: text.bytes, range: 0..<text.bytes.count)
        case .inline(let start, let count, isArray: false):
            return VariantText(owner: text, range: Int(start)..<Int(start + count))
        default: return nil
        }
    }

    func isNull(at position: Int) -> Bool {
        if case .tree(.null) = values[position] { return true }
        return false
    }

    /// The value where it is kept as a tree; for one kept as text, an empty
    /// object or array: what a check of the value's type reads, without
    /// reading the text.
    func typeStandIn(at position: Int) -> JSON {
        switch values[position] {
        case .tree(let value): return value
        case .text(_, let isArray), .inline(_, _, let isArray): return isArray ? .array([]) : .object(JSONObject())
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
