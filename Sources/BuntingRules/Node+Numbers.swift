import BuntingJSON

/// Comparisons and arithmetic, with JavaScript's coercions.
extension Interpreter {
    /// All comparison operators chain: `{"<": [a, b, c]}` is a < b < c, and
    /// evaluation stops at the first pair that fails (json-logic-js chains only
    /// `<` and `<=` and ignores a third operand of the others).
    mutating func compareChain(_ comparison: Comparison, _ nodes: [Node]) throws(RuleEvaluationError) -> Bool {
        var previous = try evaluate(nodes[0])
        for index in 1..<nodes.count {
            let next = try evaluate(nodes[index])
            guard Self.holds(comparison, previous, next) else { return false }
            previous = next
        }
        return true
    }

    static func holds(_ comparison: Comparison, _ lhs: JSON, _ rhs: JSON) -> Bool {
        switch comparison {
        case .looseEqual: return JavaScript.looseEquals(lhs, rhs)
        case .looseNotEqual: return !JavaScript.looseEquals(lhs, rhs)
        case .strictEqual: return JavaScript.strictEquals(lhs, rhs)
        case .strictNotEqual: return !JavaScript.strictEquals(lhs, rhs)
        case .less: return JavaScript.compare(lhs, rhs, .less)
        case .lessOrEqual: return JavaScript.compare(lhs, rhs, .lessOrEqual)
        case .greater: return JavaScript.compare(lhs, rhs, .greater)
        case .greaterOrEqual: return JavaScript.compare(lhs, rhs, .greaterOrEqual)
        }
    }

    /// `+ - * / %` over `ToNumber` of each operand. Differences from
    /// json-logic-js, where it gives NaN or throws: `*` of nothing is 1, `/` of
    /// one operand is its reciprocal, and `- / %` chain over extra operands.
    /// NaN and infinities are values, as in JavaScript.
    mutating func arithmetic(_ operation: Arithmetic, _ arguments: Arguments) throws(RuleEvaluationError) -> Double {
        if arguments.spread {
            let value = try evaluate(arguments.nodes[0])
            guard case .array(let elements) = value else {
                return Self.fold(operation, CollectionOfOne(JavaScript.toNumber(value)))
            }
            try step(elements.count / 64)
            // The operand counts the compiler enforces on lists, enforced here on spread arrays.
            let minimum = operation == .remainder ? 2 : (operation == .subtract || operation == .divide ? 1 : 0)
            guard elements.count >= minimum else {
                throw .invalidOperand(operator: operation.rawValue, message: "needs at least \(minimum) operand\(minimum == 1 ? "" : "s")")
            }
            return Self.fold(operation, elements.lazy.map(JavaScript.toNumber))
        }
        let nodes = arguments.nodes
        switch nodes.count {
        case 1:
            return Self.fold(operation, CollectionOfOne(JavaScript.toNumber(try evaluate(nodes[0]))))
        case 2:
            let first = JavaScript.toNumber(try evaluate(nodes[0]))
            let second = JavaScript.toNumber(try evaluate(nodes[1]))
            return Self.combine(operation, first, second)
        default:
            var operands: [Double] = []
            operands.reserveCapacity(nodes.count)
            for node in nodes { operands.append(JavaScript.toNumber(try evaluate(node))) }
            return Self.fold(operation, operands)
        }
    }

    private static func fold(_ operation: Arithmetic, _ operands: some Collection<Double>) -> Double {
        guard var result = operands.first else {
            switch operation {
            case .add: return 0
            case .multiply: return 1
            case .subtract, .divide, .remainder: return .nan
            }
        }
        if operands.count == 1 {
            switch operation {
            case .add, .multiply: return result
            case .subtract: return -result
            case .divide: return 1 / result
            case .remainder: return .nan
            }
        }
        for operand in operands.dropFirst() { result = combine(operation, result, operand) }
        return result
    }

    private static func combine(_ operation: Arithmetic, _ lhs: Double, _ rhs: Double) -> Double {
        switch operation {
        case .add: return lhs + rhs
        case .subtract: return lhs - rhs
        case .multiply: return lhs * rhs
        case .divide: return lhs / rhs
        // JavaScript's % keeps the dividend's sign, like C's fmod.
        case .remainder: return lhs.truncatingRemainder(dividingBy: rhs)
        }
    }

    /// `Math.max`/`Math.min`: NaN if any operand is NaN; of nothing, -∞/+∞.
    mutating func extremum(isMaximum: Bool, _ arguments: Arguments) throws(RuleEvaluationError) -> Double {
        var operands: [Double] = []
        if arguments.spread, case .array(let elements) = try evaluate(arguments.nodes[0]) {
            try step(elements.count / 64)
            guard !elements.isEmpty else {
                throw .invalidOperand(operator: isMaximum ? "max" : "min", message: "needs at least 1 operand")
            }
            operands = elements.map(JavaScript.toNumber)
        } else if arguments.spread {
            operands = [JavaScript.toNumber(try evaluate(arguments.nodes[0]))]
        } else {
            for node in arguments.nodes { operands.append(JavaScript.toNumber(try evaluate(node))) }
        }
        var result = isMaximum ? -Double.infinity : .infinity
        for operand in operands {
            if operand.isNaN { return .nan }
            result = isMaximum ? max(result, operand) : min(result, operand)
        }
        return result
    }
}
