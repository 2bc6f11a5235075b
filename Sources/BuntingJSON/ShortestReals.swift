/// When jansson's dump writes a value's reals as Swift's shortest
/// round-trip text, so that the value can be written in Swift
/// (`JSONWriter`) without building a jansson tree.
///
/// Jansson writes every real of one dump with one precision, `%.*g` with the
/// digits the real that needs the most needs (`digitsToRoundTrip`). A real
/// needing fewer, `d`, is written with more, `p`: the decimal of `p` digits
/// nearest to it. While `p` is at most 15, that decimal is its shortest
/// text padded with zeros, which `%g` drops: decimals of 15 digits are at
/// least 4.5 units in the last place of a double apart, and the shortest
/// text is within half a unit of the double, so no other decimal of `p`
/// digits is as near. (At 17 digits that fails: 0.1 beside a real needing
/// 17 is written 0.10000000000000001.) `p` covers a real's integer digits,
/// so `%g` writes no exponent where Swift writes none; one that Swift writes
/// with an exponent is left to jansson.
enum ShortestReals {
    /// The most digits jansson's precision may have for the texts to agree.
    static let maxPrecision = 15

    /// Swift's shortest text of `number` when jansson writes it so in any
    /// value whose reals all have one: it is finite, written without an
    /// exponent, and needs at most `maxPrecision` digits (its integer
    /// digits included, as `digitsToRoundTrip` counts them). Nil otherwise.
    static func text(of number: Double) -> String? {
        guard number.isFinite else { return nil }
        let text = number.description
        guard !text.utf8.contains(UInt8(ascii: "e")),
            max(significantDigits(text), integerDigits(number)) <= maxPrecision
        else { return nil }
        return text
    }

    /// The precision `%.*g` needs to write `number` so that it reads back
    /// exactly and without an exponent where plain digits are as short: the
    /// significant digits of Swift's shortest round-trip form, or the number of
    /// integer digits when that is more (so that 100000.0 is not `1e+05`).
    static func digitsToRoundTrip(_ number: Double) -> Int {
        min(17, max(1, significantDigits(number.description), integerDigits(number)))
    }

    /// The significant digits of a number's text (before any exponent).
    private static func significantDigits(_ text: String) -> Int {
        var significant = 0
        var leadingZeros = true
        var trailingZeros = 0
        for character in text.utf8 {
            if character == UInt8(ascii: "e") || character == UInt8(ascii: "E") { break }
            guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { continue }
            if character == UInt8(ascii: "0") {
                if leadingZeros { continue }
                trailingZeros += 1
            } else {
                leadingZeros = false
                significant += trailingZeros + 1
                trailingZeros = 0
            }
        }
        return significant
    }

    /// The digits of the number's integer part: 0 below 1, and from 1e17 on
    /// (more digits than the 17 that every double reads back from).
    private static func integerDigits(_ number: Double) -> Int {
        let magnitude = number.magnitude
        return magnitude >= 1 && magnitude < 1e17 ? Int(magnitude.rounded(.down)).description.count : 0
    }
}
