import BuntingJSON

// Compiled into two test targets: the end-to-end tests run the table over
// real pipes, and BuntingServerTests (through a symbolic link) in process.

/// One request (or notification) and the reply it must get: exact text, or
/// nil when it must get none. `check` covers replies with varying parts.
struct Exchange: Sendable {
    let send: String
    let reply: String?
    var check: (@Sendable (JSON) -> Bool)?
}

/// The table of exchanges every framing must pass, in order, over one connection.
let transportExchanges: [Exchange] = [
    Exchange(
        send: #"{"jsonrpc":"2.0","id":1,"method":"status"}"#, reply: nil,
        check: { reply in
            reply["id"] == 1 && reply["result"]?["version"]?.stringValue != nil
                && reply["result"]?["uptime"]?.isNumber == true
        }),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":"discover","method":"rpc.discover"}"#, reply: nil,
        check: { reply in
            reply["result"]?["openrpc"]?.stringValue == "1.3.2" && reply["result"]?["methods"]?.arrayValue?.count == 34
        }),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":2.0,"method":"status","params":{"x":1}}"#,
        reply:
            #"{"jsonrpc":"2.0","id":2.0,"error":{"code":-32602,"message":"Invalid params: x: unknown field (this method takes no params)","data":{"reason":"INVALID_PARAMS","field":"x","why":"unknown field (this method takes no params)"}}}"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":-3,"method":"nope"}"#,
        reply:
            #"{"jsonrpc":"2.0","id":-3,"error":{"code":-32601,"message":"Method not found: nope","data":{"reason":"METHOD_NOT_FOUND","method":"nope"}}}"#
    ),
    Exchange(send: #"{"jsonrpc":"2.0","method":"status"}"#, reply: nil),
    Exchange(send: #"{"jsonrpc":"2.0","method":"nope"}"#, reply: nil),
    Exchange(
        send: #"[]"#,
        reply:
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: an empty batch is not a request","data":{"reason":"EMPTY_BATCH"}}}"#
    ),
    Exchange(
        send: #"[1,"x"]"#,
        reply:
            #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a request must be an object, not integer","data":{"reason":"INVALID_REQUEST"}}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a request must be an object, not string","data":{"reason":"INVALID_REQUEST"}}}]"#
    ),
    Exchange(send: #"[{"jsonrpc":"2.0","method":"status"},{"jsonrpc":"2.0","method":"nope"}]"#, reply: nil),
    Exchange(
        send:
            #"[{"jsonrpc":"2.0","id":"a","method":"nope"},{"jsonrpc":"2.0","method":"status"},{"jsonrpc":"2.0","id":"b","method":"getBanner","params":{"placementId":7}}]"#,
        reply:
            #"[{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found: nope","data":{"reason":"METHOD_NOT_FOUND","method":"nope"}}},{"jsonrpc":"2.0","id":"b","error":{"code":-32602,"message":"Invalid params: placementId: must be a string, not integer","data":{"reason":"INVALID_PARAMS","field":"placementId","why":"must be a string, not integer"}}}]"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":4,"method":"status","params":[1]}"#,
        reply:
            #"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: params: by-position params are not supported; pass an object with named fields","data":{"reason":"INVALID_PARAMS","field":"","why":"by-position params are not supported; pass an object with named fields"}}}"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":true,"method":"status"}"#,
        reply:
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: id must be a string, a number or null, not boolean","data":{"reason":"INVALID_REQUEST"}}}"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":null,"method":"nope"}"#,
        reply:
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found: nope","data":{"reason":"METHOD_NOT_FOUND","method":"nope"}}}"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":5,"method":"status""#,
        reply:
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: '}' expected near end of file at line 1, column 41","data":{"reason":"INVALID_JSON","position":41,"line":1,"column":41,"detail":"'}' expected near end of file"}}}"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":6,"method":"status","params":{"a":1,"a":2}}"#,
        reply:
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: duplicate object key near '\"a\"' at line 1, column 61","data":{"reason":"DUPLICATE_KEY","position":61,"line":1,"column":61,"detail":"duplicate object key near '\"a\"'"}}}"#
    ),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":18446744073709551616,"method":"status"}"#, reply: nil,
        check: { reply in
            reply["id"] == .null && reply["error"]?["data"]?["reason"] == "NUMBER_OUT_OF_RANGE"
        }),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":"nul\u0000id","method":"nope"}"#, reply: nil,
        check: { reply in
            reply["id"] == .string("nul\u{0}id")
        }),
    Exchange(
        send: #"{"jsonrpc":"2.0","id":"é☃","method":"status","params":{}}"#, reply: nil,
        check: { reply in
            reply["id"] == "é☃" && reply["result"] != nil
        }),
]
