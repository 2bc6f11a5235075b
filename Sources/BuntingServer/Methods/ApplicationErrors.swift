import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Bunting's application error codes (-32000…-32099); each error carries its
/// `data.reason`.
extension RPCErrorCode {
    /// An id (subscription, card, flag, placement) that names nothing.
    public static let notFound = RPCErrorCode(rawValue: -32002)
    /// The request is well formed but not allowed for this item or channel.
    public static let notAllowed = RPCErrorCode(rawValue: -32003)
    /// The SDK is disabled (`disableSDK`).
    public static let sdkDisabled = RPCErrorCode(rawValue: -32004)
    /// A JSONLogic rule that does not compile or fails to evaluate.
    public static let invalidRule = RPCErrorCode(rawValue: -32005)
    /// Local storage failed.
    public static let storageError = RPCErrorCode(rawValue: -32007)
    /// A read of a channel not yet refreshed for the current user.
    public static let notSynced = RPCErrorCode(rawValue: -32008)
    /// A read of a channel the definitions turn off.
    public static let channelDisabled = RPCErrorCode(rawValue: -32009)
    /// A bound of the server reached (too many subscriptions).
    public static let limitReached = RPCErrorCode(rawValue: -32010)
}

extension RPCError {
    /// An engine refusal as a JSON-RPC error, with its reason in `data.reason`.
    static func engine(_ error: EngineError, method: String) -> RPCError {
        let details: JSONObject = ["field": .string(error.field), "why": .string(error.why)]
        switch error.kind {
        case .invalidParams:
            return .invalidParams(field: error.field, error.why)
        case .notFound:
            return RPCError(
                code: .notFound, reason: "NOT_FOUND", message: "Not found: \(error.field): \(error.why)",
                details: details)
        case .notAllowed:
            return RPCError(
                code: .notAllowed, reason: "NOT_ALLOWED", message: "Not allowed: \(error.field): \(error.why)",
                details: details)
        case .sdkDisabled:
            return RPCError(
                code: .sdkDisabled, reason: "SDK_DISABLED",
                message: "SDK disabled: \(method) is refused while the SDK is disabled",
                details: ["method": .string(method)])
        case .limitReached:
            return RPCError(
                code: .limitReached, reason: "LIMIT_REACHED", message: "Limit reached: \(error.why)",
                details: details)
        case .storage:
            return RPCError(
                code: .storageError, reason: "STORAGE_ERROR", message: "Storage error: \(error.why)",
                details: ["method": .string(method), "detail": .string(error.why)])
        }
    }

    /// A rule that does not compile or evaluate: INVALID_RULE naming `rule`.
    static func invalidRule(_ why: String) -> RPCError {
        RPCError(
            code: .invalidRule, reason: "INVALID_RULE", message: "Invalid rule: rule: \(why)",
            details: ["field": "rule", "why": .string(why)])
    }
}

/// Runs an engine call, turning its refusal into the method's RPC error.
func engineCall<T>(_ method: String, _ body: () throws(EngineError) -> T) throws(RPCError) -> T {
    do {
        return try body()
    } catch {
        throw .engine(error, method: method)
    }
}
