import BuntingJSON
import BuntingJSONRPC

extension RPCErrorCode {
    /// A method for testing campaigns on a server not started for it
    /// (`--clock manual`, `--faults`).
    public static let notEnabled = RPCErrorCode(rawValue: -32011)
}

extension RPCError {
    /// `method` needs `option`, which this server was not started with.
    static func notEnabled(_ method: String, needs option: String) -> RPCError {
        RPCError(
            code: .notEnabled, reason: "NOT_ENABLED",
            message: "Not enabled: \(method) needs a server started with \(option)",
            details: ["method": .string(method), "why": .string("the server was not started with \(option)")])
    }
}
