import BuntingJSON

/// Why an evaluation stopped without a result.
///
/// JSONLogic with JavaScript semantics almost never fails: bad operands give
/// NaN or `false`, not errors. What remains are the bounds that keep a hostile
/// rule from exhausting time or memory, the `throw` operator, and flagd
/// operators given input that flagd itself fails on.
public enum RuleEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More work than `EvaluationLimits.maxSteps` work units.
    case tooManySteps(limit: Int)
    /// A string longer than `EvaluationLimits.maxStringLength` UTF-8 bytes would be built.
    case stringTooLong(limit: Int)
    /// An array longer than `EvaluationLimits.maxArrayLength` would be built.
    case arrayTooLong(limit: Int)
    /// Raised by `{"throw": …}` and not caught by `try`; the payload is an
    /// object whose `type` names the error.
    case thrown(JSON)
    /// An operator was given an operand it cannot work with.
    case invalidOperand(operator: String, message: String)

    /// Whether `try` may catch this error. Exceeded bounds are never caught,
    /// so that a rule cannot carry on past them.
    var isCatchable: Bool {
        switch self {
        case .thrown, .invalidOperand: return true
        default: return false
        }
    }

    /// The error object `try` hands to its next argument: `{"type": …}`.
    var payload: JSON {
        switch self {
        case .thrown(let payload): return payload
        case .invalidOperand(let name, let message): return ["type": .string(name), "message": .string(message)]
        default: return ["type": .string(description)]
        }
    }

    public var description: String {
        switch self {
        case .tooManySteps(let limit): return "evaluation exceeded its work budget of \(limit) units"
        case .stringTooLong(let limit): return "a string would exceed \(limit) bytes"
        case .arrayTooLong(let limit): return "an array would exceed \(limit) elements"
        case .thrown(let payload):
            if case .string(let type)? = payload["type"] { return "thrown: \(type)" }
            return "thrown: \(payload.encodedString())"
        case .invalidOperand(let name, let message): return "\(name): \(message)"
        }
    }
}
