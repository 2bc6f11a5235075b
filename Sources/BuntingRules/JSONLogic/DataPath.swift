/// A `var` path known at compile time: `"a.b.0"` split at the dots. A
/// class, so that evaluation reads it without copying its parts.
final class DataPath: Sendable {
    struct Component: Sendable {
        let key: String
        /// The array index this key names, when it is a canonical index ("0", "12", not "01").
        let index: Int?
    }

    /// Empty: the whole current data.
    let components: [Component]
    /// The first component's key ("" for the empty path), kept apart so that
    /// the common one-key lookup reads it without going through the array.
    let firstKey: String
    /// Whether the path starts at `$flagd`, which flag evaluation supplies
    /// without copying the context.
    let startsAtFlagdProperties: Bool
    /// Whether the path is `$flagd.flagKey`, which `fractional`'s bucketing
    /// usually reads: answered from the lent flag keys without a walk.
    let isFlagdFlagKey: Bool
    /// Where the first component's value waits when the evaluation was set up
    /// with `table` (see `AttributeTable`).
    let table: AttributeTable?
    let slot: Int

    init(_ dotted: String, table: AttributeTable? = nil) {
        components =
            dotted.isEmpty
            ? []
            : dotted.split(separator: ".", omittingEmptySubsequences: false).map {
                let key = String($0)
                return Component(key: key, index: DataPath.canonicalIndex(key))
            }
        firstKey = components.first?.key ?? ""
        startsAtFlagdProperties = components.first?.key == FlagdProperties.key
        isFlagdFlagKey = startsAtFlagdProperties && components.count == 2 && components[1].key == "flagKey"
        if let table, let first = components.first, !startsAtFlagdProperties {
            self.table = table
            slot = table.slot(for: first.key)
        } else {
            self.table = nil
            slot = -1
        }
    }

    static let root = DataPath("")

    /// JavaScript reads `array["1"]` as an element, `array["01"]` or
    /// `array["-1"]` as nothing. Indexes of 19 digits or more name nothing
    /// either: no array or string is that long.
    static func canonicalIndex(_ key: String) -> Int? {
        JavaScript.withBytes(of: key) { bytes in
            guard let first = bytes.first, bytes.count <= 18, first != UInt8(ascii: "0") || bytes.count == 1 else {
                return nil
            }
            var index = 0
            for byte in bytes {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                index = index * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return index
        }
    }
}
