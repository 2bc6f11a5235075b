import BuntingJSON

/// Charging the work budget for work that grows with the operands: strings
/// scanned, compared, converted or built, array elements visited, compared
/// or built. One work unit is about one operation's worth of work (see
/// `EvaluationLimits.maxSteps`); what an operator does in constant time is
/// covered by the one unit every operation is charged.
///
/// Charges are taken in bulk, once per operator and operand, and only where
/// the work can be large: a string under `bytesPerUnit` bytes costs nothing
/// extra, so the common short attribute compares as before.
extension Interpreter {
    /// Bytes of string work per unit: scanning or copying 16 bytes costs
    /// about as much as evaluating one operation.
    static let bytesPerUnit = 16

    /// Charges for `count` bytes of string work, `perUnit` bytes a unit
    /// (fewer for work slower per byte than a scan or a copy).
    @inline(__always)
    mutating func charge(bytes count: Int, perUnit: Int = Interpreter.bytesPerUnit) throws(RuleEvaluationError) {
        if count >= Self.bytesPerUnit { try step(count / perUnit) }
    }

    /// Work units per array element built: an element takes 32 bytes of
    /// memory, and copying one costs about two operations.
    static let unitsPerElementBuilt = 2

    /// Charges for `count` array elements visited or compared.
    @inline(__always)
    mutating func charge(elements count: Int) throws(RuleEvaluationError) {
        if count > 0 { try step(count) }
    }

    /// Charges for `count` array elements built (see `unitsPerElementBuilt`).
    @inline(__always)
    mutating func charge(elementsBuilt count: Int) throws(RuleEvaluationError) {
        if count > 0 { try step(count * Self.unitsPerElementBuilt) }
    }

    // MARK: - Coercions that charge for their work

    /// `ToNumber`, charging for the string it parses (an array is parsed
    /// through its string form).
    mutating func number(_ value: JSON) throws(RuleEvaluationError) -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case .string(let text):
            try charge(bytes: text.utf8.count)
            return JavaScript.number(parsing: text)
        case .array(let elements) where !elements.isEmpty:
            return JavaScript.number(parsing: try string(value))
        default:
            return JavaScript.toNumber(value)
        }
    }

    /// `ToString`, charging for the string an array becomes (and each of its
    /// elements).
    mutating func string(_ value: JSON) throws(RuleEvaluationError) -> String {
        switch value {
        case .string(let text):
            return text
        case .array(let elements):
            try charge(elements: elements.count)
            let text = JavaScript.toString(value)
            try charge(bytes: text.utf8.count)
            return text
        default:
            return JavaScript.toString(value)
        }
    }

    /// `ToPrimitive`: arrays and objects become their string form (charged).
    mutating func primitive(_ value: JSON) throws(RuleEvaluationError) -> JSON {
        switch value {
        case .array: return .string(try string(value))
        case .object: return "[object Object]"
        default: return value
        }
    }

    /// Charges for comparing two strings, which reads at most the shorter.
    @inline(__always)
    mutating func charge(comparing lhs: String, _ rhs: String) throws(RuleEvaluationError) {
        try charge(bytes: min(lhs.utf8.count, rhs.utf8.count))
    }
}
