import BuntingJSON

/// Exact arithmetic on JSON numbers for the numeric keywords.
enum SchemaNumber {
    /// The order of two numbers, exact even between a large integer and a real:
    /// negative when `a < b`, zero when equal, positive when `a > b`.
    static func compare(_ a: JSON, _ b: JSON) -> Int {
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.integer(let x), .real(let y)):
            return compare(x, y)
        case (.real(let x), .integer(let y)):
            return -compare(y, x)
        case (.real(let x), .real(let y)):
            return x < y ? -1 : (x == y ? 0 : 1)
        default:
            return 0
        }
    }

    private static func compare(_ integer: Int64, _ real: Double) -> Int {
        if real.isNaN { return 0 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        let floor = real.rounded(.down)
        let whole = Int64(floor)
        if integer < whole { return -1 }
        if integer > whole { return 1 }
        return real > floor ? -1 : 0
    }

    /// Whether `value` divided by `divisor` (positive) is a whole number.
    ///
    /// Reals are read as the shortest decimal that round-trips, so that
    /// `0.3` is a multiple of `0.1` as a person expects, and the division is
    /// done exactly on the decimal digits. Only when those digits cannot be
    /// brought to a common scale in 64 bits does it fall back to floating point.
    static func isMultiple(_ value: JSON, of divisor: JSON) -> Bool {
        if case .integer(let x) = value, case .integer(let d) = divisor, d > 0 {
            return x % d == 0
        }
        guard let x = Decimal(value), let d = Decimal(divisor), d.digits != 0 else { return false }
        if x.digits == 0 { return true }
        let scale = min(x.exponent, d.exponent)
        if let quotientDigits = power(of: 10, d.exponent - scale).flatMap({
            d.digits.multipliedReportingOverflow(by: $0)
        }),
            !quotientDigits.overflow
        {
            // x / d is whole when x.digits * 10^(x.exponent - scale) ≡ 0 (mod D).
            let modulus = quotientDigits.partialValue
            let shifted = multiplyModulo(x.digits % modulus, powerModulo(10, x.exponent - scale, modulus), modulus)
            return shifted == 0
        }
        guard let real = value.doubleValue, let divisorReal = divisor.doubleValue else { return false }
        let quotient = real / divisorReal
        return quotient.isFinite && quotient.rounded(.towardZero) == quotient
    }

    /// A number as digits × 10^exponent, without sign and without trailing zeros in `digits`.
    private struct Decimal {
        var digits: UInt64
        var exponent: Int

        init?(_ value: JSON) {
            switch value {
            case .integer(let number):
                digits = number.magnitude
                exponent = 0
            case .real(let number):
                guard number.isFinite else { return nil }
                let text = number.magnitude.description
                let parts = text.split(separator: "e", maxSplits: 1)
                var exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
                var digits: UInt64 = 0
                var seenPoint = false
                for character in parts[0].utf8 {
                    if character == UInt8(ascii: ".") {
                        seenPoint = true
                        continue
                    }
                    let (shifted, overflow) = digits.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    digits = shifted + UInt64(character - UInt8(ascii: "0"))
                    if seenPoint { exponent -= 1 }
                }
                self.digits = digits
                self.exponent = exponent
            default:
                return nil
            }
            while digits != 0, digits % 10 == 0 {
                digits /= 10
                exponent += 1
            }
        }
    }

    private static func power(of base: UInt64, _ exponent: Int) -> UInt64? {
        var result: UInt64 = 1
        for _ in 0..<exponent {
            let (next, overflow) = result.multipliedReportingOverflow(by: base)
            if overflow { return nil }
            result = next
        }
        return result
    }

    private static func powerModulo(_ base: UInt64, _ exponent: Int, _ modulus: UInt64) -> UInt64 {
        var result: UInt64 = 1 % modulus
        var factor = base % modulus
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result = multiplyModulo(result, factor, modulus) }
            factor = multiplyModulo(factor, factor, modulus)
            remaining >>= 1
        }
        return result
    }

    /// (a × b) mod m for a, b < m, through a 128-bit product.
    private static func multiplyModulo(_ a: UInt64, _ b: UInt64, _ modulus: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return modulus.dividingFullWidth((product.high, product.low)).remainder
    }
}
