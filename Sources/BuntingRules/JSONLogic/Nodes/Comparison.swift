import BuntingJSON

/// `==`, `===`, `!=`, `!==`, `<`, `<=`, `>`, `>=`.
enum Comparison: String, Sendable {
    case looseEqual = "==", strictEqual = "===", looseNotEqual = "!=", strictNotEqual = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    func holds(_ lhs: JSON, _ rhs: JSON) -> Bool {
        // Two numbers, the common case: every operator compares their values.
        if let a = lhs.numberValue, let b = rhs.numberValue { return holds(a, b) }
        switch self {
        case .looseEqual: return JavaScript.looseEquals(lhs, rhs)
        case .looseNotEqual: return !JavaScript.looseEquals(lhs, rhs)
        case .strictEqual: return JavaScript.strictEquals(lhs, rhs)
        case .strictNotEqual: return !JavaScript.strictEquals(lhs, rhs)
        case .less: return JavaScript.compare(lhs, rhs, .less)
        case .lessOrEqual: return JavaScript.compare(lhs, rhs, .lessOrEqual)
        case .greater: return JavaScript.compare(lhs, rhs, .greater)
        case .greaterOrEqual: return JavaScript.compare(lhs, rhs, .greaterOrEqual)
        }
    }

    /// The comparison of two numbers (NaN makes all but `!=`/`!==` false).
    @inline(__always)
    func holds(_ a: Double, _ b: Double) -> Bool {
        switch self {
        case .looseEqual, .strictEqual: return a == b
        case .looseNotEqual, .strictNotEqual: return a != b
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }
}
