import BuntingJSON

/// Builds the messages the server writes, members in a fixed order
/// (`jsonrpc`, then `id`, then `result`/`error`) so replies read the same every time.
public enum OutgoingMessage {
    public static func success(id: RequestID, result: JSON) -> JSON {
        .object(["jsonrpc": "2.0", "id": id.json, "result": result])
    }

    public static func failure(id: RequestID?, error: RPCError) -> JSON {
        .object(["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json])
    }

    public static func notification(method: String, params: JSON) -> JSON {
        .object(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }
}
