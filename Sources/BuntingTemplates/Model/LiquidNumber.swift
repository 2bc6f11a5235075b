/// Numbers as Shopify's Liquid does arithmetic on them: integers stay
/// integers (division floored, modulo taking the divisor's sign), and once a
/// float is involved both sides become exact decimals (Ruby's BigDecimal of
/// the float's shortest digits), so that `0.1 | plus: 0.2` is `0.3`. The
/// decimal result goes back to a float. Integers are 64-bit here: a result
/// past that is an error, where Ruby would grow a big integer.
enum LiquidNumber {
    case integer(Int64)
    case decimal(Decimal)

    /// Liquid's `to_number`: integers and floats as they are, a string that
    /// is a decimal (`-12.5`) as that decimal, any other string by its
    /// leading digits (`'7,42'` is 7, `'abc'` is 0), anything else 0.
    static func from(_ value: Value, at offset: Int) throws(TemplateOffsetError) -> LiquidNumber {
        switch value {
        case .integer(let number): return .integer(number)
        case .float(let number): return .decimal(Decimal(number))
        case .string(let text):
            if let decimal = Decimal(decimalText: text) { return .decimal(decimal) }
            guard let number = RubyNumber.leadingInteger(text) else {
                throw .limit("the number '\(text.prefix(40))' does not fit in 64 bits", at: offset)
            }
            return .integer(number)
        default:
            return .integer(0)
        }
    }

    /// The result as a template value: a decimal goes back to a float.
    func value(at offset: Int) throws(TemplateOffsetError) -> Value {
        switch self {
        case .integer(let number): return .integer(number)
        case .decimal(let decimal):
            let number = decimal.double
            guard number.isFinite else { throw .limit("a number grew too large for a float", at: offset) }
            return .float(number)
        }
    }

    var decimal: Decimal {
        switch self {
        case .integer(let number): return Decimal(number)
        case .decimal(let decimal): return decimal
        }
    }

    var isZero: Bool {
        switch self {
        case .integer(let number): return number == 0
        case .decimal(let decimal): return decimal.coefficient == 0
        }
    }

    enum Operation: String {
        case plus, minus, times
        case dividedBy = "divided_by"
        case modulo
    }

    static func apply(_ operation: Operation, _ lhs: LiquidNumber, _ rhs: LiquidNumber, at offset: Int)
        throws(TemplateOffsetError) -> LiquidNumber
    {
        if case .integer(let a) = lhs, case .integer(let b) = rhs {
            let (result, overflow): (Int64, Bool)
            switch operation {
            case .plus: (result, overflow) = a.addingReportingOverflow(b)
            case .minus: (result, overflow) = a.subtractingReportingOverflow(b)
            case .times: (result, overflow) = a.multipliedReportingOverflow(by: b)
            case .dividedBy:
                guard b != 0 else { throw .invalid("divided by 0", at: offset) }
                (result, overflow) = flooredDivision(a, b)
            case .modulo:
                guard b != 0 else { throw .invalid("divided by 0", at: offset) }
                (result, overflow) = flooredModulo(a, b)
            }
            guard !overflow else { throw .limit("integer overflow in \(operation.rawValue)", at: offset) }
            return .integer(result)
        }
        let a = lhs.decimal
        let b = rhs.decimal
        switch operation {
        case .plus: return .decimal(a.adding(b))
        case .minus: return .decimal(a.adding(b.negated))
        case .times: return .decimal(a.multiplied(by: b))
        case .dividedBy:
            guard b.coefficient != 0 else { throw .invalid("divided by 0", at: offset) }
            return .decimal(a.divided(by: b))
        case .modulo:
            guard b.coefficient != 0 else { throw .invalid("divided by 0", at: offset) }
            return .decimal(a.flooredModulo(b))
        }
    }

    private static func flooredDivision(_ a: Int64, _ b: Int64) -> (Int64, Bool) {
        let (quotient, overflow) = a.dividedReportingOverflow(by: b)
        if overflow { return (quotient, true) }
        if a % b != 0, (a < 0) != (b < 0) { return (quotient - 1, false) }
        return (quotient, false)
    }

    private static func flooredModulo(_ a: Int64, _ b: Int64) -> (Int64, Bool) {
        let (remainder, overflow) = a.remainderReportingOverflow(dividingBy: b)
        if overflow { return (0, false) } // Int64.min % -1 is 0.
        if remainder != 0, (remainder < 0) != (b < 0) { return (remainder + b, false) }
        return (remainder, false)
    }

    /// -1, 0 or 1.
    static func compare(_ lhs: LiquidNumber, _ rhs: LiquidNumber) -> Int {
        if case .integer(let a) = lhs, case .integer(let b) = rhs { return a < b ? -1 : (a == b ? 0 : 1) }
        return lhs.decimal.compare(rhs.decimal)
    }
}

/// An exact decimal: ± coefficient × 10^exponent, with up to 38 digits.
/// Where a result would need more, it is computed in floating point instead
/// (the digits lost are far below what a float keeps).
struct Decimal {
    var negative: Bool
    var coefficient: UInt128
    var exponent: Int

    /// Zero keeps its sign, as BigDecimal's does: `0 | times: -1.5` is `-0.0`.
    init(negative: Bool, coefficient: UInt128, exponent: Int) {
        self.negative = negative
        self.coefficient = coefficient
        self.exponent = exponent
    }

    init(_ integer: Int64) {
        self.init(negative: integer < 0, coefficient: UInt128(integer.magnitude), exponent: 0)
    }

    /// The float's shortest digits, as Ruby's `BigDecimal(float.to_s)`.
    init(_ number: Double) {
        guard number.isFinite else {
            self.init(negative: number < 0, coefficient: UInt128(UInt64.max), exponent: 400)
            return
        }
        let (negative, digits, pointPosition) = RubyFloat.shortestDigits(number)
        self.init(negative: negative, coefficient: UInt128(digits) ?? 0, exponent: pointPosition - digits.count)
    }

    /// A string of the form `-?\d+\.\d+` (spaces around it allowed), as
    /// Liquid's `to_number` recognises decimals; nil for any other text.
    init?(decimalText text: String) {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, MarkupScanner.isWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, MarkupScanner.isWhitespace(last) { bytes = bytes.dropLast() }
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot > bytes.startIndex, dot < bytes.endIndex - 1,
            bytes[..<dot].allSatisfy(ExpressionLexer.isDigit), bytes[(dot + 1)...].allSatisfy(ExpressionLexer.isDigit)
        else { return nil }
        var coefficient: UInt128 = 0
        var exponent = 0
        var overflowed = false
        for byte in bytes where byte != UInt8(ascii: ".") {
            let (times, overflow1) = coefficient.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt128(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 {
                overflowed = true
                break
            }
            coefficient = sum
        }
        if overflowed {
            // More than 38 digits: what a float keeps of them is enough.
            self.init(Double(String(decoding: bytes, as: UTF8.self)).map { negative ? -$0 : $0 } ?? 0)
            return
        }
        exponent = -(bytes.endIndex - dot - 1)
        self.init(negative: negative, coefficient: coefficient, exponent: exponent)
    }

    var negated: Decimal { Decimal(negative: !negative, coefficient: coefficient, exponent: exponent) }

    /// The nearest double (strtod of the exact digits).
    var double: Double {
        if coefficient == 0 { return negative ? -0.0 : 0.0 }
        guard exponent > -400, exponent < 400 else {
            return exponent < 0 ? (negative ? -0.0 : 0.0) : (negative ? -.infinity : .infinity)
        }
        let magnitude = Double("\(coefficient)e\(exponent)") ?? .nan
        return negative ? -magnitude : magnitude
    }

    private static func powerOfTen(_ count: Int) -> UInt128? {
        guard count >= 0, count <= 38 else { return nil }
        var result: UInt128 = 1
        for _ in 0..<count { result *= 10 }
        return result
    }

    /// Both coefficients at the smaller exponent, or nil if one would
    /// outgrow 128 bits.
    private static func aligned(_ a: Decimal, _ b: Decimal) -> (UInt128, UInt128, Int)? {
        let exponent = min(a.exponent, b.exponent)
        guard let scaleA = powerOfTen(a.exponent - exponent), let scaleB = powerOfTen(b.exponent - exponent) else {
            return nil
        }
        let (left, overflowA) = a.coefficient.multipliedReportingOverflow(by: scaleA)
        let (right, overflowB) = b.coefficient.multipliedReportingOverflow(by: scaleB)
        guard !overflowA, !overflowB else { return nil }
        return (left, right, exponent)
    }

    func adding(_ other: Decimal) -> Decimal {
        guard let (a, b, exponent) = Self.aligned(self, other) else { return Decimal(double + other.double) }
        if negative == other.negative {
            let (sum, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { return Decimal(double + other.double) }
            return Decimal(negative: negative, coefficient: sum, exponent: exponent)
        }
        // A difference of zero is +0, as in IEEE and BigDecimal.
        if a == b { return Decimal(negative: false, coefficient: 0, exponent: exponent) }
        if a > b { return Decimal(negative: negative, coefficient: a - b, exponent: exponent) }
        return Decimal(negative: other.negative, coefficient: b - a, exponent: exponent)
    }

    func multiplied(by other: Decimal) -> Decimal {
        let (product, overflow) = coefficient.multipliedReportingOverflow(by: other.coefficient)
        guard !overflow else { return Decimal(double * other.double) }
        return Decimal(negative: negative != other.negative, coefficient: product, exponent: exponent + other.exponent)
    }

    /// The quotient to at least 20 significant digits, with a last digit
    /// marking an inexact rest so that rounding to a double is not misled.
    func divided(by other: Decimal) -> Decimal {
        guard coefficient != 0 else {
            return Decimal(negative: negative != other.negative, coefficient: 0, exponent: 0)
        }
        var numerator = coefficient
        var scale = 0
        while numerator < UInt128.max / 10 {
            numerator *= 10
            scale += 1
        }
        var quotient = numerator / other.coefficient
        let rest = numerator % other.coefficient
        var exponent = self.exponent - other.exponent - scale
        if rest != 0, quotient < UInt128.max / 10 {
            quotient = quotient * 10 + 1
            exponent -= 1
        }
        return Decimal(negative: negative != other.negative, coefficient: quotient, exponent: exponent)
    }

    /// The remainder with the divisor's sign (Ruby's `%`).
    func flooredModulo(_ other: Decimal) -> Decimal {
        guard let (a, b, exponent) = Self.aligned(self, other) else {
            let divisor = other.double
            var remainder = double.truncatingRemainder(dividingBy: divisor)
            if remainder != 0, (remainder < 0) != (divisor < 0) { remainder += divisor }
            return Decimal(remainder)
        }
        var remainder = a % b
        var resultNegative = negative && remainder != 0
        if remainder != 0, negative != other.negative {
            remainder = b - remainder
            resultNegative = other.negative
        }
        return Decimal(negative: resultNegative, coefficient: remainder, exponent: exponent)
    }

    func compare(_ other: Decimal) -> Int {
        if negative != other.negative {
            if coefficient == 0 && other.coefficient == 0 { return 0 }
            return negative ? -1 : 1
        }
        let magnitudeOrder: Int
        if let (a, b, _) = Self.aligned(self, other) {
            magnitudeOrder = a < b ? -1 : (a == b ? 0 : 1)
        } else {
            let x = abs(double)
            let y = abs(other.double)
            magnitudeOrder = x < y ? -1 : (x == y ? 0 : 1)
        }
        return negative ? -magnitudeOrder : magnitudeOrder
    }

    /// Rounded half away from zero to `digits` decimal places (negative:
    /// to tens, hundreds…), as BigDecimal's default rounding does.
    func rounded(toPlaces digits: Int, mode: RoundingMode) -> Decimal {
        let drop = -digits - exponent
        guard drop > 0 else { return self }
        guard let divisor = Self.powerOfTen(drop) else {
            // Every digit goes: the result is 0, or one unit away from it.
            let awayFromZero = coefficient != 0 && (mode == .up && !negative || mode == .down && negative)
            return Decimal(negative: negative, coefficient: awayFromZero ? 1 : 0, exponent: -digits)
        }
        var kept = coefficient / divisor
        let rest = coefficient % divisor
        switch mode {
        case .halfUp: if rest * 2 >= divisor { kept += 1 }
        case .up: if rest != 0, !negative { kept += 1 }
        case .down: if rest != 0, negative { kept += 1 }
        }
        return Decimal(negative: negative, coefficient: kept, exponent: -digits)
    }

    enum RoundingMode {
        /// Half away from zero.
        case halfUp
        /// Toward +infinity (ceil).
        case up
        /// Toward -infinity (floor).
        case down
    }

    /// The value as a 64-bit integer when it is a whole number that fits.
    var integer: Int64? {
        var magnitude = coefficient
        if exponent > 0 {
            guard let scale = Self.powerOfTen(exponent) else { return magnitude == 0 ? 0 : nil }
            let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: scale)
            guard !overflow else { return nil }
            magnitude = scaled
        } else if exponent < 0 {
            guard let scale = Self.powerOfTen(-exponent) else { return magnitude == 0 ? 0 : nil }
            guard magnitude % scale == 0 else { return nil }
            magnitude /= scale
        }
        if negative {
            guard magnitude <= UInt128(Int64.max) + 1 else { return nil }
            return magnitude == UInt128(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt128(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}
