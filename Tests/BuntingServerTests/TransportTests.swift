import BuntingJSON
import BuntingJSONRPC
import Testing

/// The transport's answers at the ends of a session, over the server as
/// `bunting serve` assembles it. (The table of exchanges under both
/// framings, pipelined requests, signals and stdout stay end-to-end.)
@Suite struct TransportTests {
    @Test(arguments: Framing.allCases)
    func shutdownAnswersThenExitsZeroAndRefusesLaterRequests(framing: Framing) {
        let server = InProcessServer(framing: framing)
        // In one read: the request after shutdown is read, and refused.
        server.feed(server.frame(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#) + server.frame(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#))
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
