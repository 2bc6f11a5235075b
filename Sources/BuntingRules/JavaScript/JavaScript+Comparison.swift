import BuntingJSON
#if canImport(Glibc)
import Glibc
#endif

extension JavaScript {
    /// `===`: same type and same value. Numbers compare by value (so `1` and
    /// `1.0` are the same), strings by their code units. Two arrays or objects
    /// are never strictly equal: in JavaScript they would be distinct objects.
    static func strictEquals(_ lhs: JSON, _ rhs: JSON) -> Bool {
        if case .string(let a) = lhs {
            if case .string(let b) = rhs { return sameCodeUnits(a, b) }
            return false
        }
        if let a = lhs.numberValue, let b = rhs.numberValue { return a == b }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return sameCodeUnits(a, b)
        case (.integer(let a), .integer(let b)): return a == b
        case (.integer, .real), (.real, .integer), (.real, .real):
            return toNumber(lhs) == toNumber(rhs)
        default: return false
        }
    }

    /// `==`, the Abstract Equality Comparison: null equals only null; booleans
    /// turn into numbers; a number and a string compare as numbers; an array or
    /// object compared with a primitive turns into its string form first.
    static func looseEquals(_ lhs: JSON, _ rhs: JSON) -> Bool {
        if case .string(let a) = lhs, case .string(let b) = rhs { return sameCodeUnits(a, b) }
        if let a = lhs.numberValue, let b = rhs.numberValue { return a == b }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return sameCodeUnits(a, b)
        case (.integer, .integer), (.integer, .real), (.real, .integer), (.real, .real):
            return toNumber(lhs) == toNumber(rhs)
        case (.array, .array), (.object, .object), (.array, .object), (.object, .array):
            return false
        case (.bool(let flag), _): return looseEquals(.integer(flag ? 1 : 0), rhs)
        case (_, .bool(let flag)): return looseEquals(lhs, .integer(flag ? 1 : 0))
        case (.integer, .string), (.real, .string), (.string, .integer), (.string, .real):
            return toNumber(lhs) == toNumber(rhs)
        case (.array, _), (.object, _): return looseEquals(.string(toString(lhs)), rhs)
        case (_, .array), (_, .object): return looseEquals(lhs, .string(toString(rhs)))
        }
    }

    /// The relational operators: arrays and objects turn into strings; two
    /// strings compare by UTF-16 code units; anything else compares as numbers,
    /// and NaN makes every comparison false.
    static func compare(_ lhs: JSON, _ rhs: JSON, _ relation: Relation) -> Bool {
        // Two primitives that are not both strings, the common case, compare
        // as numbers without building anything.
        if lhs.isPrimitive, rhs.isPrimitive {
            if case .string(let a) = lhs, case .string(let b) = rhs { return compare(a, b, relation) }
            return compare(toNumber(lhs), toNumber(rhs), relation)
        }
        let left = primitive(lhs)
        let right = primitive(rhs)
        if case .string(let a) = left, case .string(let b) = right { return compare(a, b, relation) }
        return compare(toNumber(left), toNumber(right), relation)
    }

    @inline(__always)
    static func compare(_ a: Double, _ b: Double, _ relation: Relation) -> Bool {
        switch relation {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }

    private static func compare(_ a: String, _ b: String, _ relation: Relation) -> Bool {
        switch relation {
        case .less: return precedesInCodeUnits(a, b)
        case .lessOrEqual: return !precedesInCodeUnits(b, a)
        case .greater: return precedesInCodeUnits(b, a)
        case .greaterOrEqual: return !precedesInCodeUnits(a, b)
        }
    }

    enum Relation: Sendable {
        case less, lessOrEqual, greater, greaterOrEqual
    }

    /// `ToPrimitive` for JSON: arrays and objects become their string form.
    private static func primitive(_ value: JSON) -> JSON {
        switch value {
        case .array, .object: return .string(toString(value))
        default: return value
        }
    }

    /// Strings are equal in JavaScript when their code units are; Swift's `==`
    /// would also equate canonically equivalent forms (é and e + ◌́). One
    /// memory comparison of the UTF-8 bytes (the same code units in another
    /// encoding), after a length check.
    static func sameCodeUnits(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return withBytes(of: a) { x in
            withBytes(of: b) { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, read in place: through
    /// a span of the string, which (unlike `utf8.withContiguousStorage…`)
    /// does not retain and release it around the call.
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        text.utf8Span.span.withUnsafeBufferPointer(body)
    }

    /// UTF-8 order is code point order, which differs from UTF-16 order only
    /// when a supplementary character meets one in U+E000…U+FFFF.
    static func precedesInCodeUnits(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            guard let x = left.next() else { return right.next() != nil }
            guard let y = right.next() else { return false }
            if x != y {
                if x >= 0xEE || y >= 0xEE {
                    return a.utf16.lexicographicallyPrecedes(b.utf16)
                }
                return x < y
            }
        }
    }
}
