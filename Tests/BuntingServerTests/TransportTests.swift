import BuntingJSON
import BuntingJSONRPC
import Testing

/// The transport's answers, over the server as `bunting serve` assembles
/// it. (The table of exchanges also runs end-to-end under both framings;
/// pipelined requests, signals and stdout stay end-to-end.)
@Suite struct TransportTests {
    /// Runs the table over one connection: each exchange's reply must be the
    /// next message; one without a reply is followed by a ping whose reply
    /// must come next, so a stray reply would be caught.
    @Test(arguments: Framing.allCases)
    func theExchangeTablePassesUnderEveryFraming(framing: Framing) {
        let server = InProcessServer(definitions: InProcessServer.bundledExample, framing: framing)
        var pingID: Int64 = 1000
        for exchange in transportExchanges {
            let before = server.received.count
            server.send(exchange.send)
            if exchange.reply == nil && exchange.check == nil {
                pingID += 1
                server.send(#"{"jsonrpc":"2.0","id":\#(pingID),"method":"status"}"#)
                #expect(server.received.count == before + 1, "\(exchange.send) got a reply")
                #expect(server.received.last?["id"] == .integer(pingID), "\(exchange.send) got a reply")
                continue
            }
            #expect(server.received.count == before + 1, "one reply to \(exchange.send)")
            guard let reply = server.received.last, server.received.count > before else { continue }
            if let expected = exchange.reply {
                #expect(reply.encodedString() == expected, "reply to \(exchange.send)")
            }
            if let check = exchange.check {
                #expect(check(reply), "reply to \(exchange.send): \(reply.encodedString())")
            }
        }
        server.closeInput()
        #expect(server.exitStatus == 0)
        server.expectCleanProtocol()
    }

    @Test(arguments: Framing.allCases)
    func shutdownAnswersThenExitsZeroAndRefusesLaterRequests(framing: Framing) {
        let server = InProcessServer(framing: framing)
        // In one read: the request after shutdown is read, and refused.
        server.feed(
            server.frame(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
                + server.frame(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#))
        // Input sent once the server stopped reading is never read.
        server.send(#"{"jsonrpc":"2.0","id":3,"method":"status"}"#)
        #expect(server.exitStatus == 0)
        let replies = server.received
        #expect(replies.count == 2)
        #expect(server.receivedText.first == #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        // A request read after shutdown is refused; one never read gets nothing.
        for reply in replies.dropFirst() {
            #expect(reply["error"]?["data"]?["reason"] == "SHUTTING_DOWN")
        }
        server.expectCleanProtocol()
    }

    @Test func aTruncatedFrameAtEndOfInputIsReported() {
        let server = InProcessServer(framing: .lsp)
        server.feed(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\":".utf8))
        server.closeInput()
        #expect(server.exitStatus == 0)
        #expect(server.received.map { $0["error"]?["data"]?["reason"] } == ["TRUNCATED_MESSAGE"])
    }
}
