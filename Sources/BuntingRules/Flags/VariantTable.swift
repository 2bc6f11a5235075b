import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

/// A flag's variants by name. Names match by their exact code units, as in
/// flagd (Swift's `==` would also match canonically equivalent spellings).
/// Few variants are scanned, which beats hashing the name; many are hashed.
/// A class, so that a lookup does not copy the table.
final class VariantTable: Sendable {
    let names: [String]
    let values: [JSON]
    private let positions: [String: Int]?
    /// Every name's UTF-8 bytes, one after another, and where each ends:
    /// the scan compares bytes without copying a name.
    private let nameBytes: [UInt8]
    private let nameEnds: [Int]

    init(_ object: JSONObject) {
        names = object.keys
        // Copies: the table outlives the parsed document (see `JSON.detached`).
        values = object.map { $0.value.detached() }
        var positions: [String: Int] = [:]
        if names.count > 8 {
            for (position, name) in names.enumerated() { positions[name] = position }
        }
        self.positions = names.count > 8 ? positions : nil
        nameBytes = names.flatMap { Array($0.utf8) }
        var end = 0
        nameEnds = names.map { end += $0.utf8.count; return end }
    }

    var isEmpty: Bool { names.isEmpty }

    /// The position of the variant called `name`.
    func position(of name: String) -> Int? {
        if let positions {
            guard let position = positions[name], JavaScript.sameCodeUnits(names[position], name) else { return nil }
            return position
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

    subscript(name: String) -> JSON? {
        position(of: name).map { values[$0] }
    }
}
