import BuntingJSON

/// `==`, `===`, `!=`, `!==`, `<`, `<=`, `>`, `>=`.
enum Comparison: String, Sendable {
    case looseEqual = "==", strictEqual = "===", looseNotEqual = "!=", strictNotEqual = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

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

    /// The comparison of two strings, by code units (every operator compares
    /// two strings as strings).
    @inline(__always)
    func holds(_ a: String, _ b: String) -> Bool {
        switch self {
        case .looseEqual, .strictEqual: return JavaScript.sameCodeUnits(a, b)
        case .looseNotEqual, .strictNotEqual: return !JavaScript.sameCodeUnits(a, b)
        case .less: return JavaScript.compare(a, b, .less)
        case .lessOrEqual: return JavaScript.compare(a, b, .lessOrEqual)
        case .greater: return JavaScript.compare(a, b, .greater)
        case .greaterOrEqual: return JavaScript.compare(a, b, .greaterOrEqual)
        }
    }

    /// The comparison of two values with JavaScript's coercions, charging
    /// nothing: for operands whose coercion costs no more than a constant
    /// (`Interpreter.holds` charges for the others).
    func holdsCheaply(_ lhs: JSON, _ rhs: JSON) -> Bool {
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

    /// The relation of `<` `<=` `>` `>=`; nil for the equalities.
    var relation: JavaScript.Relation? {
        switch self {
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        case .looseEqual, .looseNotEqual, .strictEqual, .strictNotEqual: return nil
        }
    }
}

extension Interpreter {
    /// Whether `lhs comparison rhs` holds, with JavaScript's coercions,
    /// charging for the strings compared or parsed and the arrays turned
    /// into strings.
    @inline(__always)
    mutating func holds(_ comparison: Comparison, _ lhs: JSON, _ rhs: JSON) throws(RuleEvaluationError) -> Bool {
        // Two numbers, the common case: every operator compares their values.
        if let a = lhs.numberValue, let b = rhs.numberValue { return comparison.holds(a, b) }
        return try holdsCoercing(comparison, lhs, rhs)
    }

    private mutating func holdsCoercing(
        _ comparison: Comparison, _ lhs: JSON, _ rhs: JSON
    ) throws(RuleEvaluationError) -> Bool {
        switch comparison {
        case .strictEqual, .strictNotEqual:
            // Arrays and objects are never strictly equal: nothing to convert.
            if case .string(let a) = lhs, case .string(let b) = rhs { try charge(comparing: a, b) }
            return JavaScript.strictEquals(lhs, rhs) == (comparison == .strictEqual)
        case .looseEqual, .looseNotEqual:
            // Two arrays or objects are never loosely equal either; one of them
            // against a primitive is compared by its string form.
            let converts = lhs.isPrimitive != rhs.isPrimitive
            let left = converts ? try primitive(lhs) : lhs
            let right = converts ? try primitive(rhs) : rhs
            try charge(primitives: left, right)
            return JavaScript.looseEquals(left, right) == (comparison == .looseEqual)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let left = try primitive(lhs)
            let right = try primitive(rhs)
            try charge(primitives: left, right)
            return JavaScript.compare(left, right, comparison.relation!)
        }
    }

    /// Charges for comparing two primitives: two strings are compared, one
    /// string is parsed as a number.
    private mutating func charge(primitives lhs: JSON, _ rhs: JSON) throws(RuleEvaluationError) {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): try charge(comparing: a, b)
        case (.string(let text), _), (_, .string(let text)): try charge(bytes: text.utf8.count)
        default: break
        }
    }
}
