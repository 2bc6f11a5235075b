import BuntingJSON

/// `+ - * / %` and `min`/`max`, with JavaScript's coercions.
enum Arithmetic: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

/// Operands of arithmetic and min/max. `spread` is set when the operator was
/// given one operation instead of an argument list (`{"+": {"var": "xs"}}`):
/// an array result then supplies the operands.
struct Arguments: Sendable {
    var nodes: [Node]
    var spread: Bool
}

extension Node {
    /// `+ - * / %` (see `Interpreter.arithmetic`).
    final class Calculation: Node, @unchecked Sendable {
        let operation: Arithmetic
        let arguments: Arguments

        init(_ operation: Arithmetic, _ arguments: Arguments) {
            self.operation = operation
            self.arguments = arguments
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return .number(try interpreter.arithmetic(operation, arguments))
        }
    }

    /// `max` (isMaximum) or `min`.
    final class Extremum: Node, @unchecked Sendable {
        let isMaximum: Bool
        let arguments: Arguments

        init(isMaximum: Bool, _ arguments: Arguments) {
            self.isMaximum = isMaximum
            self.arguments = arguments
        }

        override func evaluate(_ interpreter: inout Interpreter) throws(RuleEvaluationError) -> JSON {
            try interpreter.step()
            return .number(try interpreter.extremum(isMaximum: isMaximum, arguments))
        }
    }
}

extension Interpreter {
    /// `+ - * / %` over `ToNumber` of each operand. Differences from
    /// json-logic-js, where it gives NaN or throws: `*` of nothing is 1, `/` of
    /// one operand is its reciprocal, and `- / %` chain over extra operands.
    /// NaN and infinities are values, as in JavaScript.
    mutating func arithmetic(_ operation: Arithmetic, _ arguments: Arguments) throws(RuleEvaluationError) -> Double {
        if arguments.spread {
            let value = try evaluate(arguments.nodes[0])
            guard case .array(let elements) = value else {
                return Self.fold(operation, CollectionOfOne(try number(value)))
            }
            // The operand counts the compiler enforces on lists, enforced here on spread arrays.
            let minimum = operation == .remainder ? 2 : (operation == .subtract || operation == .divide ? 1 : 0)
            guard elements.count >= minimum else {
                throw .invalidOperand(
                    operator: operation.rawValue,
                    message: "needs at least \(minimum) operand\(minimum == 1 ? "" : "s")")
            }
            return Self.fold(operation, try numbers(of: elements))
        }
        let nodes = arguments.nodes
        switch nodes.count {
        case 1:
            return Self.fold(operation, CollectionOfOne(try number(try evaluate(nodes[0]))))
        case 2:
            let first = try number(try evaluate(nodes[0]))
            let second = try number(try evaluate(nodes[1]))
            return Self.combine(operation, first, second)
        default:
            var operands: [Double] = []
            operands.reserveCapacity(nodes.count)
            for node in nodes { operands.append(try number(try evaluate(node))) }
            return Self.fold(operation, operands)
        }
    }

    /// `ToNumber` of each element of a spread array, one unit each (and the
    /// strings parsed).
    private mutating func numbers(of elements: [JSON]) throws(RuleEvaluationError) -> [Double] {
        try charge(elements: elements.count)
        var operands: [Double] = []
        operands.reserveCapacity(elements.count)
        for element in elements { operands.append(try number(element)) }
        return operands
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
        if arguments.spread {
            let value = try evaluate(arguments.nodes[0])
            if case .array(let elements) = value {
                guard !elements.isEmpty else {
                    throw .invalidOperand(operator: isMaximum ? "max" : "min", message: "needs at least 1 operand")
                }
                operands = try numbers(of: elements)
            } else {
                operands = [try number(value)]
            }
        } else {
            for node in arguments.nodes { operands.append(try number(try evaluate(node))) }
        }
        var result = isMaximum ? -Double.infinity : .infinity
        for operand in operands {
            if operand.isNaN { return .nan }
            result = isMaximum ? max(result, operand) : min(result, operand)
        }
        return result
    }
}
