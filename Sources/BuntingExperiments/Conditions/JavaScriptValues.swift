import BuntingJSON
import BuntingRules

/// The few JavaScript value rules GrowthBook's SDK leans on beyond those
/// `BuntingRules.JavaScript` already has (which are reused, not copied).
enum JSValues {
    /// JavaScript's truthiness (`!!value`): false for null, false, 0, NaN and
    /// "" only; an empty array or object is true (unlike JSONLogic's).
    static func isTruthy(_ value: JSON) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        case .real(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .array, .object: return true
        }
    }

    /// `JSON.stringify(a) === JSON.stringify(b)`, without writing either:
    /// the same structure, numbers equal as JavaScript prints them (so 1 and
    /// 1.0 agree), strings by code units, and object keys in the same order
    /// as JavaScript enumerates them (integer-like keys first, ascending,
    /// then the rest in insertion order).
    static func sameJSONText(_ a: JSON, _ b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return JavaScript.sameCodeUnits(x, y)
        case (.integer, _), (.real, _):
            guard let x = number(a), let y = number(b) else { return false }
            // JSON.stringify writes NaN and the infinities as null.
            if !x.isFinite || !y.isFinite { return !x.isFinite && !y.isFinite }
            return x == y
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for index in x.indices where !sameJSONText(x[index], y[index]) { return false }
            return true
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            let xKeys = enumerationOrder(x)
            let yKeys = enumerationOrder(y)
            for (left, right) in zip(xKeys, yKeys) {
                guard JavaScript.sameCodeUnits(left.key, right.key), sameJSONText(left.value, right.value) else {
                    return false
                }
            }
            return true
        default:
            return false
        }
    }

    static func number(_ value: JSON) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        default: return nil
        }
    }

    /// An object's members in JavaScript's property order: keys that are
    /// array indices (canonical decimal integers below 2³² − 1) first, in
    /// ascending numeric order, then the others as inserted.
    static func enumerationOrder(_ object: JSONObject) -> [JSONObject.Member] {
        var indices: [(UInt32, JSONObject.Member)] = []
        var others: [JSONObject.Member] = []
        for member in object {
            if let index = arrayIndex(member.key) { indices.append((index, member)) } else { others.append(member) }
        }
        if indices.isEmpty { return others }
        indices.sort { $0.0 < $1.0 }
        return indices.map(\.1) + others
    }

    /// The array index a property key names, as JavaScript reads one.
    static func arrayIndex(_ key: String) -> UInt32? {
        let digits = key.utf8
        guard let first = digits.first, digits.count <= 10, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9")
        else {
            return nil
        }
        if first == UInt8(ascii: "0") && digits.count > 1 { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value < 0xFFFF_FFFF ? UInt32(value) : nil
    }

    /// `a === b` for two strings: equal code units. Swift's `==` decides
    /// most pairs at once (a byte count that differs, identical small
    /// strings); canonical equivalence, which it also accepts, needs the
    /// bytes compared too.
    @inline(__always)
    static func sameString(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b && a.utf8.elementsEqual(b.utf8)
    }

    /// `String(value)`.
    static func string(_ value: JSON) -> String {
        JavaScript.toString(value)
    }

    /// `value * 1`.
    static func toNumber(_ value: JSON) -> Double {
        JavaScript.toNumber(value)
    }

    /// A number as JavaScript prints it (`1.0` → "1", `1e21` → "1e+21").
    static func string(_ number: Double) -> String {
        JavaScript.string(from: number)
    }
}
