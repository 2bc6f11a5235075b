import BuntingJSON

/// A compiled `fractional`: its argument nodes, with the fractions tabulated
/// at compile time when they are literal. A class: evaluation reads it in
/// place instead of copying its tables.
final class FractionalRule: Sendable {
    let arguments: [Node]
    /// The arguments after the first, when all of them are literal.
    let literalTail: [JSON]?
    /// Their table (nil when they are not a valid fraction list).
    let tailTable: FractionTable?
    /// Whether every argument is a literal fraction: the shorthand that
    /// buckets by flag key and targeting key, fully tabulated in `wholeTable`.
    let isLiteralShorthand: Bool
    let wholeTable: FractionTable?
    /// `targetingKey`, in the rule's attribute table.
    let targetingKey: DataPath
    /// The first argument when it is a `cat`, which the string generation
    /// hashes without building (see `Interpreter.fractional`).
    let bucketingConcatenation: Node.Concatenate?

    init(arguments: [Node], targetingKey: DataPath) {
        self.arguments = arguments
        self.targetingKey = targetingKey
        bucketingConcatenation = arguments.first as? Node.Concatenate
        var literals: [JSON] = []
        for node in arguments.dropFirst() {
            guard let value = node.literalValue else { break }
            literals.append(value)
        }
        literalTail = literals.count == arguments.count - 1 ? literals : nil
        tailTable = literalTail.flatMap { FractionTable($0[...]) }
        if let literalTail, let first = arguments.first?.literalValue, case .array = first {
            isLiteralShorthand = true
            wholeTable = FractionTable(([first] + literalTail)[...])
        } else {
            isLiteralShorthand = false
            wholeTable = nil
        }
    }
}

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

/// Where `fractional` landed.
enum FractionalResult {
    case null
    /// The variant at this position of the rule's `wholeTable`, or of its
    /// `tailTable`: known at compile time, so that flag resolution can have
    /// looked the variant up in advance.
    case whole(Int)
    case tail(Int)
    /// A variant of fractions computed during the evaluation.
    case value(JSON)

    /// The variant's value.
    func value(in rule: FractionalRule) -> JSON {
        switch self {
        case .null: return .null
        case .whole(let index): return rule.wholeTable!.variants[index]
        case .tail(let index): return rule.tailTable!.variants[index]
        case .value(let value): return value
        }
    }
}
