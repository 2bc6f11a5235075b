import BuntingJSON
import BuntingRuntime
import Foundation
import Testing

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
            reply["result"]?["openrpc"]?.stringValue == "1.3.2" && reply["result"]?["methods"]?.arrayValue?.count == 29
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

@Suite struct TransportTests {
    /// Runs the table over one connection: each exchange's reply must be the
    /// next message; one without a reply is followed by a ping whose reply
    /// must come next, so a stray reply would be caught.
    @Test(arguments: ServerProcess.WireFraming.allCases)
    func theExchangeTablePassesUnderEveryFraming(framing: ServerProcess.WireFraming) throws {
        let server = try ServerProcess(framing: framing)
        var expectedCount = 0
        var pingID: Int64 = 1000
        for exchange in transportExchanges {
            try server.send(exchange.send)
            if exchange.reply == nil && exchange.check == nil {
                pingID += 1
                try server.send(#"{"jsonrpc":"2.0","id":\#(pingID),"method":"status"}"#)
                expectedCount += 1
                let messages = try server.waitForMessages(count: expectedCount)
                #expect(messages[expectedCount - 1]["id"] == .integer(pingID), "\(exchange.send) got a reply")
                continue
            }
            expectedCount += 1
            let reply = try server.waitForMessages(count: expectedCount)[expectedCount - 1]
            if let expected = exchange.reply {
                #expect(reply.encodedString() == expected, "reply to \(exchange.send)")
            }
            if let check = exchange.check {
                #expect(check(reply), "reply to \(exchange.send): \(reply.encodedString())")
            }
        }
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        #expect(server.received.count == expectedCount)
        server.expectCleanProtocol()
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func pipelinedRequestsAreAllAnsweredOnceInOrder(framing: ServerProcess.WireFraming) throws {
        let server = try ServerProcess(framing: framing)
        var bytes: [UInt8] = []
        let count = 2000
        for id in 0..<count {
            bytes += framing.frame(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#.utf8))
        }
        try server.sendRaw(bytes)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        #expect(server.received.map { $0["id"]?.integerValue } == (0..<count).map { Int64($0) })
        server.expectCleanProtocol()
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func shutdownAnswersThenExitsZeroAndRefusesLaterRequests(framing: ServerProcess.WireFraming) throws {
        let server = try ServerProcess(framing: framing)
        try server.send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
        try? server.send(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#)
        #expect(try server.waitForExit() == 0)
        let replies = server.received
        #expect(replies.first?.encodedString() == #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        // A request read after shutdown is refused; one never read gets nothing.
        for reply in replies.dropFirst() {
            #expect(reply["error"]?["data"]?["reason"] == "SHUTTING_DOWN")
        }
        server.expectCleanProtocol()
    }

    @Test func sigtermExitsZero() throws {
        let server = try ServerProcess(framing: .ndjson)
        _ = try server.request("status")
        server.process.terminate()
        #expect(try server.waitForExit() == 0)
    }

    @Test func forcedFramingIsUsedFromTheFirstByte() throws {
        let server = try ServerProcess(framing: .lsp, arguments: ["--framing", "lsp"])
        let reply = try server.request("status")
        #expect(reply["result"]?["framing"] == "lsp")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    @Test func aTruncatedFrameAtEndOfInputIsReported() throws {
        let server = try ServerProcess(framing: .lsp)
        try server.sendRaw("Content-Length: 100\r\n\r\n{\"jsonrpc\":")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        #expect(server.received.map { $0["error"]?["data"]?["reason"] } == ["TRUNCATED_MESSAGE"])
    }

    @Test func strayWritesToStdoutCannotReachTheProtocolStream() throws {
        // `--help` output goes to stdout by design; `serve` moves fd 1 to stderr,
        // so whatever writes to fd 1 inside the server lands on stderr. The log
        // line at info level is such a write through stderr; check both streams.
        let server = try ServerProcess(framing: .ndjson, arguments: ["--log-level", "debug"])
        _ = try server.request("status")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        #expect(server.stderr.contains("bunting[info]"))
        server.expectCleanProtocol()
    }
}
