import BuntingJSON

/// Variants and their cumulative weights, as flagd reads a fraction list.
/// A class, so that evaluation reads it in place.
final class FractionTable: Sendable {
    let variants: [JSON]
    /// Running totals of the weights; the last is the total weight.
    let rangeEnds: [UInt64]

    var totalWeight: UInt64 { rangeEnds.last ?? 0 }

    /// Each fraction is `[variant]` (weight 1) or `[variant, weight]` with a
    /// whole-number weight, negative counting as 0. Anything else makes the
    /// whole list invalid (nil), and so the `fractional` result null, as in
    /// flagd.
    init?(_ fractions: ArraySlice<JSON>) {
        var variants: [JSON] = []
        var ends: [UInt64] = []
        var total: UInt64 = 0
        for fraction in fractions {
            guard case .array(let pair) = fraction, pair.count == 1 || pair.count == 2 else { return nil }
            var weight: UInt64 = 1
            if pair.count == 2 {
                guard let number = Self.weight(pair[1]) else { return nil }
                weight = number
            }
            // Past Int32.max the list is refused anyway: the running total
            // stops at 2³³, so that it cannot overflow however many there are.
            total = min(total + weight, 1 << 33)
            variants.append(pair[0])
            ends.append(total)
        }
        self.variants = variants
        rangeEnds = ends
    }

    /// A weight, capped at 2³²: an integer, or a real with no fraction (the
    /// flagd daemon reads every JSON number as a double, so `50.0` is 50 there;
    /// flagd-core's Python refuses it). Nil for anything else.
    private static func weight(_ value: JSON) -> UInt64? {
        switch value {
        case .integer(let number):
            return UInt64(min(max(number, 0), 1 << 32))
        case .real(let number) where number.rounded(.towardZero) == number:
            return UInt64(min(max(number, 0), 4_294_967_296))
        default:
            return nil
        }
    }

    /// The position of the variant whose range holds `hash × total >> 32`;
    /// nil when the ranges are empty or the total is past 2³² (the caller
    /// refuses totals past Int32.max before). A binary search over long
    /// tables, so that picking costs no more than a constant.
    func pick(_ hash: UInt32) -> Int? {
        let total = totalWeight
        guard total <= 1 << 32 else { return nil }
        let bucket = (UInt64(hash) * total) >> 32
        guard rangeEnds.count > 8 else {
            for (index, end) in rangeEnds.enumerated() where bucket < end { return index }
            return nil
        }
        // The first range ending past the bucket (ends never decrease).
        var low = 0
        var high = rangeEnds.count
        while low < high {
            let middle = low + (high - low) / 2
            if rangeEnds[middle] > bucket { high = middle } else { low = middle + 1 }
        }
        return low < rangeEnds.count ? low : nil
    }
}
