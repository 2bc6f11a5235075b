import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

/// A flag's variants by name. Names match by their exact code units, as in
/// flagd (Swift's `==` would also match canonically equivalent spellings).
/// A struct held in its flag (`CompiledFlag`, a class): an object of its
/// own was another allocation per flag, 48 bytes and the allocator's
/// overhead (about 1.3 MB at 20,000 flags), for two references and the
/// values' storage.
///
/// The names (and their lookup layout) are shared by every flag of the set
/// whose variants have the same names in the same order, and each value by
/// every flag with a value written exactly alike (see `VariantTables`):
/// thousands of flags named `on` and `off` then keep one list of names.
struct VariantTable: Sendable {
    let layout: VariantNames
    let values: VariantValues

    var names: [String] { layout.names }

    /// A table of its own, sharing nothing (see `VariantTables` for the shared ones).
    init(_ object: JSONObject) {
        self.init(layout: VariantNames(object.keys), values: VariantValues(object.map { .init($0.value) }))
    }

    init(layout: VariantNames, values: VariantValues) {
        self.layout = layout
        self.values = values
    }

    var isEmpty: Bool { values.isEmpty }

    /// The position of the variant called `name`.
    func position(of name: String) -> Int? {
        layout.position(of: name)
    }
}

/// The names of a flag's variants, in order, laid out for lookup. Few names
/// are scanned, which beats hashing the name; many are hashed.
final class VariantNames: Sendable {
    let names: [String]
    private let positions: [ExactString: Int]?
    /// Every name's UTF-8 bytes, one after another, and where each ends:
    /// the scan compares bytes without copying a name.
    private let nameBytes: [UInt8]
    private let nameEnds: [Int]

    init(_ names: [String]) {
        // Copies: the names outlive the parsed document (see `JSON.detached`).
        self.names = names.map(JSON.detached)
        var positions: [ExactString: Int] = [:]
        if names.count > 8 {
            for (position, name) in self.names.enumerated() where positions[ExactString(name)] == nil {
                positions[ExactString(name)] = position
            }
        }
        self.positions = names.count > 8 ? positions : nil
        (nameBytes, nameEnds) = Self.packed(names)
    }

    /// The names' UTF-8 bytes one after another, and where each ends: how
    /// names are laid out for the scan, and compared by their code units.
    static func packed(_ names: [String]) -> (bytes: [UInt8], ends: [Int]) {
        var end = 0
        return (
            names.flatMap { Array($0.utf8) },
            names.map {
                end += $0.utf8.count; return end
            }
        )
    }

    /// The position of the variant called `name`.
    func position(of name: String) -> Int? {
        if let positions {
            return positions[ExactString(name)]
        }
        let scanned = name.utf8.withContiguousStorageIfAvailable { wanted in
            nameBytes.withUnsafeBufferPointer { bytes -> Int? in
                var start = 0
                for (position, end) in nameEnds.enumerated() {
                    defer { start = end }
                    guard end - start == wanted.count else { continue }
                    if wanted.isEmpty || memcmp(bytes.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0 {
                        return position
                    }
                }
                return nil
            }
        }
        if let scanned { return scanned }
        return names.indices.first { JavaScript.sameCodeUnits(names[$0], name) }
    }
}

/// Makes the variant tables of one flag set, sharing what is written alike:
/// the names with any earlier flag's of the same names in the same order,
/// and each value as kept (`VariantValues`) with an earlier one written
/// exactly alike (a value is handed out as it is written), found by its
/// text: two values are written alike exactly when they encode to the same
/// text (`ExactJSON`; every text reads back to its value), and the text
/// holds nothing of the parsed document, whose batches of flags (see
/// `FlagSet.Builder`) can then be freed as they are compiled — keyed by
/// the values themselves, the table held every variant of every batch
/// until the set was made (at 18,000 flags, 16 MB at the peak of loading). Whole variants objects are not
/// looked up: hashing each one cost a fifth of loading a 100-flag document
/// (11M instructions, callgrind) for no saving where values differ.
/// Only short values are looked up (`sharedTextLimit`): they are what
/// documents repeat (`true`, `"on"`, `{"enabled":false,"properties":{}}`);
/// a longer one is rarely written twice (a flag's own properties, its own
/// tracking string), and the table of every value met was 1.9 MB at the
/// peak of loading 18,000 flags for none shared. A longer one is kept in
/// its flag's one text, beside the flag's other such values.
/// Used while the set is compiled, then dropped.
struct VariantTables {
    private var layouts: [NamesKey: VariantNames] = [:]
    /// Each short value kept so far, by its text.
    private var values: [[UInt8]: VariantValues.Kept] = [:]
    /// The longest text of a value looked up to be shared, in bytes.
    static let sharedTextLimit = 64

    /// Names compared by their code units, in order.
    private struct NamesKey: Hashable {
        let bytes: [UInt8]
        let ends: [Int]
    }

    mutating func table(_ object: JSONObject) -> VariantTable {
        let names = object.keys
        let packed = VariantNames.packed(names)
        let key = NamesKey(bytes: packed.bytes, ends: packed.ends)
        let layout: VariantNames
        if let known = layouts[key] {
            layout = known
        } else {
            layout = VariantNames(names)
            layouts[key] = layout
        }
        // Values kept per flag go into one text for the flag, sized once.
        var kept: [VariantValues.Kept] = []
        kept.reserveCapacity(object.count)
        var own: [VariantValues.OwnText] = []
        for member in object {
            switch value(member.value) {
            case .kept(let value):
                kept.append(value)
            case .own(let text, let isArray):
                own.append((kept.count, text, isArray))
                kept.append(.tree(.null)) // until the flag's text is made, below
            }
        }
        if let packed = VariantValues.packed(kept, own: own) { return VariantTable(layout: layout, values: packed) }
        let total = own.reduce(0) { $0 + $1.text.count }
        // None: the empty array itself (made with a capacity of 0, an array
        // writes its count into the one empty storage every thread shares,
        // a data race ThreadSanitizer reports).
        guard total > 0 else { return VariantTable(layout: layout, values: VariantValues(kept)) }
        let text = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            for value in own {
                _ = buffer[count..<(count + value.text.count)].initialize(fromContentsOf: value.text)
                kept[value.position] = .inline(
                    start: Int32(count), count: Int32(value.text.count), isArray: value.isArray)
                count += value.text.count
            }
        }
        return VariantTable(layout: layout, values: VariantValues(kept, text: text))
    }

    /// How one value is kept: as it is (a tree, or a text shared with
    /// earlier flags), or in the flag's own text.
    private enum Keeping {
        case kept(VariantValues.Kept)
        case own(text: [UInt8], isArray: Bool)
    }

    /// The value as kept: an earlier one of the same text, kept anew
    /// (which holds nothing of the parsed document), or its text, for the
    /// flag's own.
    private mutating func value(_ json: JSON) -> Keeping {
        let written = json.encoded()
        guard written.count <= Self.sharedTextLimit else {
            // A copy: the value outlives the parsed document (see `JSON.detached`).
            guard VariantValues.Kept.readsBack(written, as: json) else { return .kept(.tree(json.detached())) }
            return .own(text: written, isArray: json.arrayValue != nil)
        }
        if let known = values[written] { return .kept(known) }
        // The key shares the kept text's array, sized to it.
        let text = VariantValues.Kept.exactlySized(written)
        let kept = VariantValues.Kept(json, text: text)
        values[text] = kept
        return .kept(kept)
    }
}
