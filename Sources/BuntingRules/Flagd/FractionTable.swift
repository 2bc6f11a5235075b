import BuntingJSON

/// Variants and their cumulative weights, as flagd reads a fraction list.
/// A class, so that evaluation reads it in place.
final class FractionTable: Sendable {
    let variants: [JSON]
    /// Running totals of the weights; the last is the total weight.
    let rangeEnds: [UInt64]

    var totalWeight: UInt64 { rangeEnds.last ?? 0 }

    /// Each fraction is `[variant]` (weight 1) or `[variant, weight]` with an
    /// integer weight, negative counting as 0. Anything else makes the whole
    /// list invalid (nil), and so the `fractional` result null, as in flagd.
    init?(_ fractions: ArraySlice<JSON>) {
        var variants: [JSON] = []
        var ends: [UInt64] = []
        var total: UInt64 = 0
        for fraction in fractions {
            guard case .array(let pair) = fraction, pair.count == 1 || pair.count == 2 else { return nil }
            var weight: UInt64 = 1
            if pair.count == 2 {
                guard case .integer(let number) = pair[1] else { return nil }
                // Capped so that the sum cannot overflow; any cap above
                // Int32.max fails the total check all the same.
                weight = UInt64(min(max(number, 0), 1 << 32))
            }
            total += weight
            variants.append(pair[0])
            ends.append(total)
        }
        self.variants = variants
        rangeEnds = ends
    }

    /// The position of the variant whose range holds `hash × total >> 32`;
    /// nil when the ranges are empty.
    func pick(_ hash: UInt32) -> Int? {
        let bucket = (UInt64(hash) * totalWeight) >> 32
        for (index, end) in rangeEnds.enumerated() where bucket < end {
            return index
        }
        return nil
    }
}
