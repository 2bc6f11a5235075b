import BuntingJSON
import BuntingJSONRPC
import Testing

/// Input meant to break the server, over the server as `bunting serve`
/// assembles it, fed through the real framer: each gets the error it
/// should, and the server keeps answering afterwards. (Random bytes through
/// a real process, which must survive them, stay end-to-end.)
@Suite struct HostileInputTests {
    /// Sends `bytes`, then a status request, and returns the replies that
    /// came before the status reply (the status reply must come).
    func repliesBeforeStatus(
        _ bytes: [UInt8], framing: Framing, _ change: (inout StdioServer.Options) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [JSON] {
        let server = InProcessServer(forcing: framing, change)
        server.feed(bytes)
        // A fresh line and a frame after any junk, so the status request stands alone.
        server.feed(Array((framing == .ndjson ? "\n" : "\r\n\r\n").utf8))
        let reply = server.request("status", id: "after")
        #expect(reply["result"]?["version"] != nil, sourceLocation: sourceLocation)
        server.closeInput()
        #expect(server.exitStatus == 0, sourceLocation: sourceLocation)
        server.expectCleanProtocol(sourceLocation: sourceLocation)
        return server.received.filter { $0["id"] != "after" }
    }

    private func framed(_ body: [UInt8], _ framing: Framing) -> [UInt8] {
        framing == .lsp ? Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body : body + [10]
    }

    @Test(arguments: Framing.allCases)
    func hundredThousandNestedBrackets(framing: Framing) {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        let replies = repliesBeforeStatus(framed(deep, framing), framing: framing)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["TOO_DEEP"])
    }

    static let twentyMegabyteRequest = Array(
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\",\"params\":{\"x\":\""
            + String(repeating: "a", count: 20 << 20) + "\"}}").utf8)

    @Test(arguments: Framing.allCases)
    func aTwentyMegabyteMessage(framing: Framing) {
        let replies = repliesBeforeStatus(framed(Self.twentyMegabyteRequest, framing), framing: framing)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["MESSAGE_TOO_LARGE"])
        #expect(replies.first?["error"]?["code"] == -32600)
    }

    @Test func aTwentyMegabyteMessageWithinARaisedLimitIsRead() {
        let replies = repliesBeforeStatus(framed(Self.twentyMegabyteRequest, .ndjson), framing: .ndjson) {
            $0.maxMessageBytes = 32 << 20
        }
        #expect(replies.map { $0["error"]?["data"]?["field"] } == ["x"])
    }

    @Test(arguments: Framing.allCases)
    func invalidUTF8(framing: Framing) {
        let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"st"#.utf8) + [0xFF, 0xFE] + Array(#"atus"}"#.utf8)
        let replies = repliesBeforeStatus(framed(body, framing), framing: framing)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["INVALID_UTF8"])
    }

    @Test func brokenHeaders() {
        let input =
            "Content-Length: x\r\n\r\nContent-Type: a\r\n\r\njunk line\r\nContent-Length: "
            + "2\r\n\r\n{}"
        let replies = repliesBeforeStatus(Array(input.utf8), framing: .lsp)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["INVALID_CONTENT_LENGTH", "INVALID_REQUEST"])
    }
}
