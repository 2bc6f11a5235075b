/// Floats printed as Ruby prints them, which is what Shopify's Liquid
/// outputs: the shortest digits that read back as the same double, in fixed
/// notation with at least one decimal (`5.0`, `0.0001`,
/// `1000000000000000.0`) unless the exponent is below -4 or above 15, then
/// as `1.0e+16`, `2.5e-05`.
enum RubyFloat {
    static func format(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        let (negative, digits, pointPosition) = shortestDigits(number)
        var text = negative ? "-" : ""
        if digits == "0" { return text + "0.0" }
        let count = digits.count
        if pointPosition > 0 && pointPosition <= 16 {
            if count <= pointPosition {
                text += digits + String(repeating: "0", count: pointPosition - count) + ".0"
            } else {
                let split = digits.index(digits.startIndex, offsetBy: pointPosition)
                text += digits[..<split] + "." + digits[split...]
            }
        } else if pointPosition <= 0 && pointPosition > -4 {
            text += "0." + String(repeating: "0", count: -pointPosition) + digits
        } else {
            let first = digits.prefix(1)
            let rest = digits.dropFirst()
            let exponent = pointPosition - 1
            let magnitude = abs(exponent)
            text +=
                first + "." + (rest.isEmpty ? "0" : rest) + "e" + (exponent < 0 ? "-" : "+")
                + (magnitude < 10 ? "0" : "") + String(magnitude)
        }
        return text
    }

    /// The shortest decimal digits that read back as `number` (no leading or
    /// trailing zeros; "0" for zero) and where the decimal point goes: the
    /// value is 0.DIGITS × 10^pointPosition. Swift's own description gives
    /// the shortest digits; this takes them apart.
    static func shortestDigits(_ number: Double) -> (negative: Bool, digits: String, pointPosition: Int) {
        var text = Substring(number.description)
        var negative = false
        if text.first == "-" {
            negative = true
            text = text.dropFirst()
        }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var integerPart = text
        var fraction: Substring = ""
        if let dot = text.firstIndex(of: ".") {
            integerPart = text[..<dot]
            fraction = text[text.index(after: dot)...]
        }
        var digits = String(integerPart) + String(fraction)
        var pointPosition = integerPart.count + exponent
        // Leading zeros move the point; trailing zeros say nothing.
        while digits.first == "0", digits.count > 1 {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == "0", digits.count > 1 { digits.removeLast() }
        if digits == "0" { pointPosition = 1 }
        return (negative, digits, pointPosition)
    }
}
