import BuntingJSON

extension JavaScript {
    /// The relational operators: arrays and objects turn into strings; two
    /// strings compare by UTF-16 code units; anything else compares as numbers,
    /// and NaN makes every comparison false.
    package static func compare(_ lhs: JSON, _ rhs: JSON, _ relation: Relation) -> Bool {
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

    package static func compare(_ a: String, _ b: String, _ relation: Relation) -> Bool {
        switch relation {
        case .less: return precedesInCodeUnits(a, b)
        case .lessOrEqual: return !precedesInCodeUnits(b, a)
        case .greater: return precedesInCodeUnits(b, a)
        case .greaterOrEqual: return !precedesInCodeUnits(a, b)
        }
    }

    package enum Relation: Sendable {
        case less, lessOrEqual, greater, greaterOrEqual
    }

    /// `ToPrimitive` for JSON: arrays and objects become their string form.
    private static func primitive(_ value: JSON) -> JSON {
        switch value {
        case .array, .object: return .string(toString(value))
        default: return value
        }
    }
}
