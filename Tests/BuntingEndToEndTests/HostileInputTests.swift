import BuntingCore
import BuntingJSON
import Foundation
import Testing

/// Input meant to break the server, through a real process that must
/// survive it: it must answer each with an error and keep answering
/// afterwards. (The answers to nesting, size, UTF-8 and header slips are
/// checked in process, `BuntingServerTests.HostileInputTests`.)
@Suite struct HostileInputTests {
    /// Sends `bytes`, then a status request, and returns the replies that
    /// came before the status reply (the status reply must come).
    func repliesBeforeStatus(_ bytes: [UInt8], framing: ServerProcess.WireFraming) throws -> [JSON] {
        let server = try ServerProcess(framing: framing, arguments: ["--framing", framing.rawValue])
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
}
