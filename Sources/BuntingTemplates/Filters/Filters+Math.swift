/// The math filters, on `LiquidNumber`: integers stay integers, anything
/// with a float is exact decimal arithmetic turned back into a float.
extension Renderer {
    func arithmetic(_ operation: LiquidNumber.Operation, _ input: Value, _ operand: Value, at offset: Int)
        throws(TemplateOffsetError) -> Value
    {
        let result = try LiquidNumber.apply(
            operation, try LiquidNumber.from(input, at: offset), try LiquidNumber.from(operand, at: offset), at: offset)
        return try result.value(at: offset)
    }

    func absolute(_ input: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        switch try LiquidNumber.from(input, at: offset) {
        case .integer(let number):
            guard number != Int64.min else { throw .limit("integer overflow in abs", at: offset) }
            return .integer(abs(number))
        case .decimal(var decimal):
            decimal.negative = false
            return try LiquidNumber.decimal(decimal).value(at: offset)
        }
    }

    /// `ceil` and `floor`: always an integer.
    func rounded(_ input: Value, mode: Decimal.RoundingMode, at offset: Int) throws(TemplateOffsetError) -> Value {
        switch try LiquidNumber.from(input, at: offset) {
        case .integer(let number): return .integer(number)
        case .decimal(let decimal):
            guard let integer = decimal.rounded(toPlaces: 0, mode: mode).integer else {
                throw .limit("\(mode == .up ? "ceil" : "floor"): the result does not fit in 64 bits", at: offset)
            }
            return .integer(integer)
        }
    }

    /// `round: places`, half away from zero on the exact decimal (`2.675`
    /// rounds to `2.68`); to a whole number or tens and hundreds (places of
    /// 0 or less) the result is an integer, else a float.
    func round(_ input: Value, places: Value, at offset: Int) throws(TemplateOffsetError) -> Value {
        let digits: Int
        switch try LiquidNumber.from(places, at: offset) {
        case .integer(let number): digits = Int(clamping: number)
        case .decimal(let decimal):
            digits =
                decimal.rounded(toPlaces: 0, mode: decimal.negative ? .up : .down).integer.map { Int(clamping: $0) }
                ?? (decimal.negative ? Int.min : Int.max)
        }
        let number = try LiquidNumber.from(input, at: offset)
        if case .integer(let integer) = number, digits >= 0 { return .integer(integer) }
        let rounded = number.decimal.rounded(toPlaces: max(min(digits, 400), -400), mode: .halfUp)
        if digits <= 0 {
            guard let integer = rounded.integer else {
                throw .limit("round: the result does not fit in 64 bits", at: offset)
            }
            return .integer(integer)
        }
        return try LiquidNumber.decimal(rounded).value(at: offset)
    }

    /// `at_least` (keepLarger) and `at_most`.
    func bound(_ input: Value, _ limit: Value, keepLarger: Bool, at offset: Int) throws(TemplateOffsetError) -> Value {
        let number = try LiquidNumber.from(input, at: offset)
        let bound = try LiquidNumber.from(limit, at: offset)
        let order = LiquidNumber.compare(bound, number)
        let replace = keepLarger ? order > 0 : order < 0
        return try (replace ? bound : number).value(at: offset)
    }
}
