import BuntingJSON

/// A JSON value that equals another only when both would be written as the
/// same text: the same types, strings of the same code units, reals of the
/// same bits, members in the same order. `JSON`'s own `==` takes canonically
/// equivalent strings, `0.0` and `-0.0`, and reordered members as equal,
/// which would let a shared rule part answer for one written differently.
struct ExactJSON: Hashable {
    let value: JSON

    init(_ value: JSON) { self.value = value }

    static func == (lhs: ExactJSON, rhs: ExactJSON) -> Bool {
        same(lhs.value, rhs.value)
    }

    /// Exactly equal values are equal under `JSON`'s `==`, so its hash agrees.
    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }

    private static func same(_ lhs: JSON, _ rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return JavaScript.sameCodeUnits(a, b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count
                && zip(a, b).allSatisfy { JavaScript.sameCodeUnits($0.key, $1.key) && same($0.value, $1.value) }
        default: return false
        }
    }
}
