import BuntingJSON
import BuntingRuntime
import Foundation
import Testing

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

    @Test func sigtermExitsZero() throws {
        let server = try ServerProcess(framing: .ndjson)
        _ = try server.request("status")
        server.process.terminate()
        #expect(try server.waitForExit() == 0)
    }

    /// Started from a shell or a program that leaves SIGTERM unblocked (the
    /// test runner's own children inherit it blocked), SIGTERM still ends the
    /// server through its shutdown: the queued event reaches the sink, exit 0.
    @Test func sigtermWithSignalsUnblockedStillShutsDownAndFlushes() throws {
        let workspace = try Workspace()
        let sink = workspace.directory.appendingPathComponent("events.ndjson").path
        let unblocked = [
            "/usr/bin/env", "python3", "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, "
                + "[]); os.execv(sys.argv[1], sys.argv[1:])",
        ]
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--sink", sink, "--flush-interval", "3600"], launcher: unblocked)
        let tracked = try server.request("track", params: ["name": "checkout"])
        #expect(tracked["result"]?["eventId"]?.stringValue != nil)
        server.process.terminate()
        #expect(try server.waitForExit() == 0, "stderr: \(server.stderr)")
        let lines = try String(contentsOfFile: sink, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains(#""name":"checkout""#) == true)
    }

    @Test func forcedFramingIsUsedFromTheFirstByte() throws {
        let server = try ServerProcess(framing: .lsp, arguments: ["--framing", "lsp"])
        let reply = try server.request("status")
        #expect(reply["result"]?["framing"] == "lsp")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
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
