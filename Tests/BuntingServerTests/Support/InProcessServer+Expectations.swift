import BuntingJSON
import BuntingJSONRPC
import Foundation
import Testing

extension InProcessServer {
    /// A server that reads `framing` only (`--framing ndjson|lsp`) and
    /// writes in it, with the options `change` sets.
    convenience init(
        forcing framing: Framing, definitions: String = InProcessServer.document,
        _ change: (inout StdioServer.Options) -> Void = { _ in }
    ) {
        var options = StdioServer.Options()
        options.framing = framing == .ndjson ? .ndjson : .lsp
        change(&options)
        self.init(definitions: definitions, framing: framing, options: options)
    }

    /// The end of every test of a limit or of hostile input: the server
    /// still answers `status`, ends with status 0 at the end of input, and
    /// wrote nothing but JSON-RPC messages.
    func expectStillServingThenCleanExit(sourceLocation: SourceLocation = #_sourceLocation) {
        let status = request("status", id: "last")
        #expect(status["result"]?["version"] != nil, "still serving", sourceLocation: sourceLocation)
        closeInput()
        #expect(exitStatus == 0, sourceLocation: sourceLocation)
        expectCleanProtocol(sourceLocation: sourceLocation)
    }

    /// Every message written is a JSON-RPC message (an object or a batch array).
    func expectCleanProtocol(sourceLocation: SourceLocation = #_sourceLocation) {
        let violations = protocolViolations
        #expect(violations.isEmpty, "non-protocol output: \(violations)", sourceLocation: sourceLocation)
    }

    /// Whether `status` is answered within 100 ms (of this process's time:
    /// the work a request left behind would delay it).
    func statusAnswersPromptly(id: JSON) -> Bool {
        let start = ContinuousClock.now
        let reply = request("status", id: id)
        return reply["result"]?["version"] != nil && ContinuousClock.now - start < .milliseconds(100)
    }

    /// What the end-to-end tests of files and faults hold a live server to,
    /// at its end: `status` answered within 100 ms, then a termination
    /// signal's shutdown ending it with status 0 within 1 s.
    func expectPromptStatusAndTermination(sourceLocation: SourceLocation = #_sourceLocation) {
        let asked = ContinuousClock.now
        let reply = request("status")
        let answeredIn = ContinuousClock.now - asked
        #expect(reply["result"]?["version"] != nil, "\(reply.encodedString())", sourceLocation: sourceLocation)
        #expect(answeredIn < .milliseconds(100), "status took \(answeredIn)", sourceLocation: sourceLocation)
        let signalled = ContinuousClock.now
        terminate()
        let endedIn = ContinuousClock.now - signalled
        #expect(exitStatus == 0, sourceLocation: sourceLocation)
        #expect(endedIn < .seconds(1), "the shutdown took \(endedIn)", sourceLocation: sourceLocation)
    }
}

/// `reason` of an error reply.
func reason(_ reply: JSON) -> String? { reply["error"]?["data"]?["reason"]?.stringValue }

func isEvent(_ message: JSON, _ type: String, _ channel: String? = nil) -> Bool {
    message["method"] == "event" && message["params"]?["type"]?.stringValue == type
        && (channel == nil || message["params"]?["channel"]?.stringValue == channel)
}

/// The ids of the items in an event's snapshot.
func snapshotIds(_ event: JSON) -> [String] {
    let channel = event["params"]?["channel"]?.stringValue ?? ""
    let data = event["params"]?["cacheSnapshot"]?[channel]
    if let cards = data?["cards"]?.arrayValue { return cards.compactMap { $0["id"]?.stringValue } }
    if let flags = data?.arrayValue { return flags.compactMap { $0["id"]?.stringValue } }
    return data?.objectValue?.keys.sorted() ?? []
}
