import BuntingCore
import BuntingJSON
import Foundation
import Testing

/// Input meant to break the server: it must answer each with an error and
/// keep answering afterwards.
@Suite struct HostileInputTests {
    /// Sends `bytes`, then a status request, and returns the replies that
    /// came before the status reply (the status reply must come).
    func repliesBeforeStatus(_ bytes: [UInt8], framing: ServerProcess.WireFraming, arguments: [String] = []) throws
        -> [JSON]
    {
        let server = try ServerProcess(framing: framing, arguments: ["--framing", framing.rawValue] + arguments)
        try server.sendRaw(bytes)
        // A fresh line and a frame after any junk, so the status request stands alone.
        try server.sendRaw(framing == .ndjson ? "\n" : "\r\n\r\n")
        let reply = try server.request("status", id: "after")
        #expect(reply["result"]?["version"] != nil)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        server.expectCleanProtocol()
        return server.received.filter { $0["id"] != "after" }
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func randomBytes(framing: ServerProcess.WireFraming) throws {
        var generator = SplitMix64(seed: 42)
        let junk = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let replies = try repliesBeforeStatus(junk, framing: framing)
        #expect(!replies.isEmpty)
        #expect(replies.allSatisfy { $0["error"] != nil && $0["id"] == .null })
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func hundredThousandNestedBrackets(framing: ServerProcess.WireFraming) throws {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        let replies = try repliesBeforeStatus(framing.frame(deep), framing: framing)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["TOO_DEEP"])
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func aTwentyMegabyteMessage(framing: ServerProcess.WireFraming) throws {
        let huge = Array(
            ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\",\"params\":{\"x\":\""
                + String(repeating: "a", count: 20 << 20) + "\"}}").utf8)
        let replies = try repliesBeforeStatus(framing.frame(huge), framing: framing)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["MESSAGE_TOO_LARGE"])
        #expect(replies.first?["error"]?["code"] == -32600)
    }

    @Test func aTwentyMegabyteMessageWithinARaisedLimitIsRead() throws {
        let huge = Array(
            ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\",\"params\":{\"x\":\""
                + String(repeating: "a", count: 20 << 20) + "\"}}").utf8)
        let replies = try repliesBeforeStatus(
            ServerProcess.WireFraming.ndjson.frame(huge), framing: .ndjson,
            arguments: ["--max-message-size", "\(32 << 20)"])
        #expect(replies.map { $0["error"]?["data"]?["field"] } == ["x"])
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func invalidUTF8(framing: ServerProcess.WireFraming) throws {
        let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"st"#.utf8) + [0xFF, 0xFE] + Array(#"atus"}"#.utf8)
        let replies = try repliesBeforeStatus(framing.frame(body), framing: framing)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["INVALID_UTF8"])
    }

    @Test func brokenHeaders() throws {
        let input =
            "Content-Length: x\r\n\r\nContent-Type: a\r\n\r\njunk line\r\nContent-Length: "
            + "2\r\n\r\n{}"
        let replies = try repliesBeforeStatus(Array(input.utf8), framing: .lsp)
        #expect(replies.map { $0["error"]?["data"]?["reason"] } == ["INVALID_CONTENT_LENGTH", "INVALID_REQUEST"])
    }
}
