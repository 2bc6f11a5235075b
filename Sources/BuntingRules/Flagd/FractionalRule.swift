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
