import BuntingJSON

/// One JSON-RPC message from the client, sorted by what the server owes it:
/// a request gets exactly one reply, a notification none, and an invalid
/// message an error reply carrying whatever id could be recovered.
public enum IncomingMessage: Equatable, Sendable {
    case request(id: RequestID, method: String, params: JSON?)
    case notification(method: String, params: JSON?)
    /// `id` is nil when none could be read; the reply then has `"id": null`.
    case invalid(id: RequestID?, error: RPCError)

    /// Checks the envelope of one (non-batch) message; `idText` is its
    /// numeric id as written, when known.
    public init(_ value: JSON, idText: String? = nil) {
        guard case .object(let members) = value else {
            self = .invalid(id: nil, error: .invalidRequest("a request must be an object, not \(value.typeName)"))
            return
        }
        var id: RequestID?
        if let rawID = members["id"] {
            guard let valid = RequestID(rawID, text: idText) else {
                self = .invalid(
                    id: nil, error: .invalidRequest("id must be a string, a number or null, not \(rawID.typeName)")
                )
                return
            }
            id = valid
        }
        guard members["jsonrpc"] == .string("2.0") else {
            let why = members["jsonrpc"] == nil ? "\"jsonrpc\": \"2.0\" is missing" : "\"jsonrpc\" must be \"2.0\""
            self = .invalid(id: id, error: .invalidRequest(why))
            return
        }
        guard let methodValue = members["method"] else {
            let why =
                members["result"] != nil || members["error"] != nil
                ? "a response was received, but this server sends no requests"
                : "\"method\" is missing"
            self = .invalid(id: id, error: .invalidRequest(why))
            return
        }
        guard case .string(let method) = methodValue else {
            self = .invalid(id: id, error: .invalidRequest("\"method\" must be a string, not \(methodValue.typeName)"))
            return
        }
        let params = members["params"]
        if let params {
            switch params {
            case .object, .array: break
            default:
                self = .invalid(
                    id: id,
                    error: .invalidRequest("\"params\" must be an object or an array, not \(params.typeName)"))
                return
            }
        }
        if let id {
            self = .request(id: id, method: method, params: params)
        } else {
            self = .notification(method: method, params: params)
        }
    }
}
