import BuntingJSON
import BuntingJSONRPC
import Testing

/// The framing slips an LSP client makes, each followed by 100 well-framed
/// requests, over the server as `bunting serve` assembles it: every one of
/// those is answered, once, and the slip gets an error that says what was
/// wrong.
@Suite struct FramingSlipServerTests {
    static let status = #"{"jsonrpc":"2.0","id":0,"method":"status"}"#
    /// Two characters fewer than it has bytes.
    static let accented = #"{"jsonrpc":"2.0","id":0,"method":"status","params":{"é":"é"}}"#

    /// Accented characters near the end: cut in characters, the body still ends with a bracket.
    static let accentedNearTheEnd =
        #"{"jsonrpc":"2.0","id":0,"method":"status","params":{"name":"Zoë","city":"Zürich"}}"#

    static let slips: [(name: String, bytes: String, reason: String)] = [
        (
            "a Content-Length counted in characters", "Content-Length: \(accented.count)\r\n\r\n\(accented)",
            "CONTENT_LENGTH_MISMATCH"
        ),
        (
            "a Content-Length counted in characters, accents near the end",
            "Content-Length: \(accentedNearTheEnd.count)\r\n\r\n\(accentedNearTheEnd)", "CONTENT_LENGTH_MISMATCH"
        ),
        ("a Content-Length 5 bytes short", "Content-Length: \(status.utf8.count - 5)\r\n\r\n\(status)", "INVALID_JSON"),
        (
            "a Content-Length one byte too long", "Content-Length: \(status.utf8.count + 1)\r\n\r\n\(status)",
            "CONTENT_LENGTH_MISMATCH"
        ),
        ("a Content-Length of -1", "Content-Length: -1\r\n\r\n\(status)", "INVALID_CONTENT_LENGTH"),
        (
            "two different Content-Length headers",
            "Content-Length: \(status.utf8.count)\r\nContent-Length: 7\r\n\r\n\(status)", "INVALID_CONTENT_LENGTH"
        ),
        (
            "a misspelt Content-Length", "Content-Lenght: \(status.utf8.count)\r\n\r\n\(status)",
            "MISSING_CONTENT_LENGTH"
        ),
        (
            "a stray byte before a header", "xContent-Length: \(status.utf8.count)\r\n\r\n\(status)",
            "MISSING_CONTENT_LENGTH"
        ),
    ]

    @Test(arguments: slips.indices)
    func everyLaterRequestIsAnsweredOnce(index: Int) {
        let slip = Self.slips[index]
        // With the framing detected from the slip itself, and forced.
        for leading in [false, true] {
            var options = StdioServer.Options()
            options.framing = leading ? .auto : .lsp
            let server = InProcessServer(framing: .lsp, options: options)
            var bytes = Array(slip.bytes.utf8)
            for id in 1...100 {
                bytes += server.frame(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#)
            }
            server.feed(bytes)
            server.closeInput()
            #expect(server.exitStatus == 0)
            let received = server.received
            let answered = received.compactMap { $0["id"]?.integerValue }
            #expect(answered == Array(1...100), "\(slip.name): \(answered.count) answers")
            let errors = received.filter { $0["id"] == .null }
            // One error a slip: the rest of a message cut short is skipped quietly.
            #expect(
                errors.map { $0["error"]?["data"]?["reason"]?.stringValue } == [slip.reason],
                "\(slip.name): \(errors.map { $0.encodedString() })")
            if slip.reason == "CONTENT_LENGTH_MISMATCH", slip.name.contains("characters") {
                #expect(
                    errors.first?["error"]?["message"]?.stringValue?.contains(
                        "counts bytes of UTF-8, not characters") == true)
            }
            server.expectCleanProtocol()
        }
    }
}
