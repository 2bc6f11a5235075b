import BuntingJSON
import BuntingJSONRPC
import Testing

/// Scripts that write all their requests at once, then end their input,
/// get what they asked for: every request sees what the ones before it did,
/// and end of input finishes what was started before the server ends.
@Suite struct ScriptedSessionTests {
    static let channels = ["featureFlags", "banners", "contentCards"]

    /// One run: in process nothing races (one thread, a manual clock), so a
    /// run says what twenty runs of a process said.
    @Test(arguments: Framing.allCases)
    func aScriptGetsFreshSnapshotsAndItsFlushBeforeExit(framing: Framing) {
        var options = StdioServer.Options()
        options.framing = framing == .ndjson ? .ndjson : .lsp
        let server = InProcessServer(definitions: InProcessServer.bundledExample, framing: framing, options: options)
        var requests = Self.channels.enumerated().map { index, channel in
            #"{"jsonrpc":"2.0","id":\#(index + 1),"method":"subscribe","params":{"channel":"\#(channel)"}}"#
        }
        requests.append(
            #"{"jsonrpc":"2.0","id":4,"method":"changeUser","params":{"userId":"ada","attributes":{"tier":"gold"}}}"#)
        requests += Self.channels.enumerated().map { index, channel in
            #"{"jsonrpc":"2.0","id":\#(index + 5),"method":"getSnapshot","params":{"channel":"\#(channel)"}}"#
        }
        requests.append(
            #"{"jsonrpc":"2.0","id":8,"method":"logImpression","params":{"channel":"featureFlags","id":"new-checkout"}}"#
        )
        server.feed(requests.flatMap(server.frame))
        server.closeInput()
        #expect(server.exitStatus == 0)
        let messages = server.received
        for (index, channel) in Self.channels.enumerated() {
            let snapshot = messages.first { $0["id"] == .integer(Int64(index + 5)) }?["result"]
            #expect((snapshot?["lastSyncAt"]?.doubleValue ?? 0) > 0, "\(channel) snapshot was synced")
            #expect(snapshot?[channel] != nil && snapshot?[channel] != JSON.array([]), "\(channel) has data")
        }
        let enqueued = messages.first { $0["params"]?["action"] == "ENQUEUED" }?["params"]?["eventId"]
        let flushed = messages.first { $0["params"]?["action"] == "FLUSHED" }?["params"]?["eventId"]
        #expect(enqueued != nil && flushed == enqueued, "the impression was flushed before the end")
        let lines = server.sink.lines
        #expect(lines.count == 1 && lines.first?["eventId"] == enqueued, "the sink got it once")
    }
}
