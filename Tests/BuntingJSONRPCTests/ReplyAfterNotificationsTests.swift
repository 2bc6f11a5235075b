import BuntingJSON
import BuntingJSONRPC
import Testing

/// `Responder.succeedAfterItsNotifications`: a reply that says what its
/// request caused is over (a manual clock moved past timers) comes after
/// the notifications the request caused; in a batch the batch's order holds.
@Suite struct ReplyAfterNotificationsTests {
    final class Harness {
        var sent: [JSON] = []
        var sentWhenAnswered: [String] = []
        var connection: RPCConnection!

        init() {
            let table = MethodTable([
                .deferred("settle") { [unowned self] _, responder in
                    connection.notify(method: "event", params: ["n": 1])
                    connection.notify(method: "event", params: ["n": 2])
                    responder.succeedAfterItsNotifications("settled")
                },
                .deferred("answerFirst") { [unowned self] _, responder in
                    connection.notify(method: "event", params: ["n": 4])
                    responder.succeed("answered")
                    // Seen by the client before the handler's remaining work.
                    sentWhenAnswered = sent.map(ReplyAfterNotificationsTests.summary)
                    connection.notify(method: "event", params: ["n": 5])
                },
                .immediate("plain") { [unowned self] _ in
                    connection.notify(method: "event", params: ["n": 3])
                    return "done"
                },
            ])
            connection = RPCConnection(methods: table) { [unowned self] message in
                sent.append(try! JSON.parse(message.encoded))
            }
        }

        func receive(_ text: String) {
            Array(text.utf8).withUnsafeBytes { connection.receive(.parse($0, maxDepth: 512, maxBatchLength: 1000)) }
        }
    }

    @Test func theNotificationsComeFirstAndThenTheReply() {
        let harness = Harness()
        harness.receive(#"{"jsonrpc":"2.0","id":1,"method":"settle"}"#)
        #expect(harness.sent.map(Self.summary) == ["event 1", "event 2", "reply settled"])
        harness.receive(#"{"jsonrpc":"2.0","id":2,"method":"plain"}"#)
        #expect(
            harness.sent.suffix(2).map(Self.summary) == ["reply done", "event 3"],
            "other replies come first as always")
    }

    /// changeUser answers before its refresh: the reply and what the request
    /// sent so far go out then, not when the handler returns.
    @Test func aMethodThatAnswersBeforeItsWorkIsDoneReleasesWhatItSentWithTheReply() {
        let harness = Harness()
        harness.receive(#"{"jsonrpc":"2.0","id":1,"method":"answerFirst"}"#)
        #expect(harness.sentWhenAnswered == ["reply answered", "event 4"])
        #expect(harness.sent.map(Self.summary) == ["reply answered", "event 4", "event 5"])
    }

    @Test func inABatchTheArrayComesFirst() {
        let harness = Harness()
        harness.receive(#"[{"jsonrpc":"2.0","id":1,"method":"settle"},{"jsonrpc":"2.0","id":2,"method":"plain"}]"#)
        #expect(harness.sent.first?.arrayValue?.count == 2, "the batch's array first")
        #expect(harness.sent.dropFirst().map(Self.summary) == ["event 1", "event 2", "event 3"])
    }

    /// `event N` or `reply RESULT`.
    static func summary(_ message: JSON) -> String {
        if let n = message["params"]?["n"] { return "event \(n.encodedString())" }
        return "reply \(message["result"]?.stringValue ?? "?")"
    }
}
