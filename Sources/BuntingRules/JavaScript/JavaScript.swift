import BuntingJSON

/// JavaScript's type coercions over `JSON` values, as json-logic-js gets them
/// from the language: `ToNumber`, `ToString`, `ToPrimitive`, loose and strict
/// equality and relational comparison.
///
/// JSONLogic has no spec of its own for these; every widely used engine copies
/// what JavaScript does, so Bunting does too. JSON has no `undefined` and no
/// functions, which keeps the rules short.
enum JavaScript {}

extension JSON {
    /// JSONLogic truthiness: JavaScript's, except that an empty array is false.
    ///
    /// False: `null`, `false`, `0`, `-0`, NaN, `""` and `[]`. True: everything
    /// else, including `"0"`, `{}` and `[0]`. Banner and card targeting use this
    /// to decide eligibility.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let value): return value
        case .integer(let value): return value != 0
        case .real(let value): return value != 0 && !value.isNaN
        case .string(let value): return !value.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object: return true
        }
    }
}

extension JSON {
    /// Not an array or object: what JavaScript's `ToPrimitive` leaves alone.
    var isPrimitive: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// The value of a number, as JavaScript holds every number: a Double.
    var numberValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }
}
