import BuntingJSON

extension JavaScript {
    /// `===`: same type and same value. Numbers compare by value (so `1` and
    /// `1.0` are the same), strings by their code units. Two arrays or objects
    /// are never strictly equal: in JavaScript they would be distinct objects.
    package static func strictEquals(_ lhs: JSON, _ rhs: JSON) -> Bool {
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
    package static func looseEquals(_ lhs: JSON, _ rhs: JSON) -> Bool {
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
}
