import BuntingJSON

/// A JSON-RPC error code: the standard ones, and the two this transport
/// answers by itself. Open, so that a server adds its application codes
/// (-32000…-32099) as constants of its own.
public struct RPCErrorCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public static let parseError = RPCErrorCode(rawValue: -32700)
    public static let invalidRequest = RPCErrorCode(rawValue: -32600)
    public static let methodNotFound = RPCErrorCode(rawValue: -32601)
    public static let invalidParams = RPCErrorCode(rawValue: -32602)
    public static let internalError = RPCErrorCode(rawValue: -32603)

    /// A method of the protocol that this build does not implement yet.
    public static let notImplemented = RPCErrorCode(rawValue: -32001)
    /// The server is shutting down and takes no more work.
    public static let shuttingDown = RPCErrorCode(rawValue: -32006)
}

/// The `error` member of a response: `{code, message, data?}`.
///
/// Every error this transport and Bunting send carries `data.reason`, a word a client can switch on.
public struct RPCError: Error, Equatable, Sendable {
    public var code: RPCErrorCode
    public var message: String
    public var data: JSON?

    public init(code: RPCErrorCode, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// An error whose `data` is `{"reason": reason}` plus `details`.
    public init(code: RPCErrorCode, reason: String, message: String, details: JSONObject = [:]) {
        var data: JSONObject = ["reason": .string(reason)]
        data.merge(details)
        self.init(code: code, message: message, data: .object(data))
    }

    public var json: JSON {
        var object: JSONObject = ["code": .integer(code.rawValue), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    // MARK: - The standard errors, with the data Bunting gives them

    public static func parseError(_ error: JSONParseError) -> RPCError {
        var details: JSONObject = ["position": .int(error.position)]
        if error.line > 0 {
            details["line"] = .int(error.line)
            details["column"] = .int(error.column)
        }
        details["detail"] = .string(error.message)
        let reason: String
        switch error.kind {
        case .tooDeep: reason = "TOO_DEEP"
        case .invalidUTF8: reason = "INVALID_UTF8"
        case .numberOutOfRange: reason = "NUMBER_OUT_OF_RANGE"
        case .duplicateKey: reason = "DUPLICATE_KEY"
        case .empty: reason = "EMPTY_MESSAGE"
        default: reason = "INVALID_JSON"
        }
        return RPCError(
            code: .parseError, reason: reason, message: "Parse error: \(error.description)", details: details)
    }

    public static func framing(_ problem: FramingProblem) -> RPCError {
        var details: JSONObject = [:]
        if case .messageTooLarge(let limit) = problem { details["limit"] = .int(limit) }
        let code: RPCErrorCode = if case .messageTooLarge = problem { .invalidRequest } else { .parseError }
        let title = code == .invalidRequest ? "Invalid request" : "Parse error"
        return RPCError(code: code, reason: problem.reason, message: "\(title): \(problem.message)", details: details)
    }

    public static func invalidRequest(_ why: String, reason: String = "INVALID_REQUEST") -> RPCError {
        RPCError(code: .invalidRequest, reason: reason, message: "Invalid request: \(why)")
    }

    /// Method not found, with the closest known name when one is close.
    public static func methodNotFound(_ method: String, suggestion: String? = nil) -> RPCError {
        var details: JSONObject = ["method": .string(method)]
        var message = "Method not found: \(method)"
        if let suggestion {
            details["suggestion"] = .string(suggestion)
            message += " (did you mean \(suggestion)?)"
        }
        return RPCError(code: .methodNotFound, reason: "METHOD_NOT_FOUND", message: message, details: details)
    }

    /// Invalid params, naming the field (its name, `name[index]` for an element
    /// of an array, `""` for the params as a whole) and why.
    public static func invalidParams(field: String, _ why: String) -> RPCError {
        RPCError(
            code: .invalidParams, reason: "INVALID_PARAMS",
            message: "Invalid params: \(field.isEmpty ? "params" : field): \(why)",
            details: ["field": .string(field), "why": .string(why)])
    }

    public static func internalError(_ why: String) -> RPCError {
        RPCError(code: .internalError, reason: "INTERNAL_ERROR", message: "Internal error: \(why)")
    }

    public static func notImplemented(_ method: String) -> RPCError {
        RPCError(
            code: .notImplemented, reason: "NOT_IMPLEMENTED",
            message: "\(method) is part of the protocol but not implemented in this build",
            details: ["method": .string(method)])
    }
}
