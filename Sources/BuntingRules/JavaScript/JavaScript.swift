import BuntingJSON

/// JavaScript's type coercions over `JSON` values, as json-logic-js gets them
/// from the language: `ToNumber`, `ToString`, `ToPrimitive`, loose and strict
/// equality and relational comparison.
///
/// JSONLogic has no spec of its own for these; every widely used engine copies
/// what JavaScript does, so Bunting does too. JSON has no `undefined` and no
/// functions, which keeps the rules short.
///
/// Package-wide, so that GrowthBook's conditions (BuntingExperiments), which
/// coerce as the same language does, use these rather than copies.
package enum JavaScript {}

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
