import BuntingJSON
import BuntingJSONRPC
import Testing

/// A connection with a small method table, recording what it sends.
final class ConnectionHarness {
    var sent: [JSON] = []
    /// The same messages as the text written.
    var sentText: [String] = []
    var pending: [Responder] = []
    var connection: RPCConnection!

    init(limits: RPCConnection.Limits = RPCConnection.Limits()) {
        let table = MethodTable([
            .immediate("echo", params: [.any("value", required: true), .any("optional")]) { params throws(RPCError) in
                try params.requiredValue("value")
            },
            .immediate("typed", params: [.string("name", required: true), .stringArray("tags")]) {
                params throws(RPCError) in
                let name = try params.string("name")
                let tags = params.optionalStringArray("tags") ?? []
                return .object(["name": .string(name), "tags": .array(tags.map(JSON.string))])
            },
            .immediate("noisy") { [unowned self] _ in
                connection.notify(method: "event", params: ["n": 1])
                connection.notify(method: "event", params: ["n": 2])
                return "done"
            },
            .deferred("later") { [unowned self] _, responder in
                pending.append(responder)
            },
            .deferred("forgetful") { _, _ in },
            .immediate("failing") { _ throws(RPCError) in
                throw RPCError(code: RPCErrorCode(rawValue: -32002), reason: "NOT_FOUND", message: "no such thing")
            },
            Method("someday", params: [.any("x")], .notImplemented),
        ])
        connection = RPCConnection(methods: table, limits: limits) { [unowned self] message in
            sentText.append(String(decoding: message.encoded, as: UTF8.self))
            sent.append(try! JSON.parse(message.encoded))
        }
    }

    /// Sends one raw message text and returns what was written in reply.
    @discardableResult
    func exchange(_ text: String) -> [JSON] {
        let before = sent.count
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes {
            connection.receive(.parse($0, maxDepth: 512, maxBatchLength: connection.limits.maxBatchLength))
        }
        return Array(sent[before...])
    }
}

func result(_ reply: JSON?) -> JSON? { reply?["result"] }
func errorCode(_ reply: JSON?) -> Int64? { reply?["error"]?["code"]?.integerValue }
func reason(_ reply: JSON?) -> String? { reply?["error"]?["data"]?["reason"]?.stringValue }

@Suite struct RPCConnectionTests {
    @Test func aRequestGetsExactlyOneReply() throws {
        let replies = ConnectionHarness().exchange(
            #"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"value":[1,"a"]}}"#)
        #expect(replies == [try JSON.parse(#"{"jsonrpc":"2.0","id":1,"result":[1,"a"]}"#)])
        #expect(replies[0].encodedString() == #"{"jsonrpc":"2.0","id":1,"result":[1,"a"]}"#)
    }

    @Test func aNotificationGetsNone() {
        let harness = ConnectionHarness()
        #expect(harness.exchange(#"{"jsonrpc":"2.0","method":"echo","params":{"value":1}}"#).isEmpty)
        #expect(harness.exchange(#"{"jsonrpc":"2.0","method":"missing"}"#).isEmpty)
        #expect(harness.exchange(#"{"jsonrpc":"2.0","method":"echo","params":{"nope":1}}"#).isEmpty)
        #expect(harness.exchange(#"{"jsonrpc":"2.0","method":"failing"}"#).isEmpty)
    }

    @Test(arguments: [#"7"#, #"-7"#, #"1.0"#, #"2.5"#, #""abc""#, #""""#, #"null"#, #"9223372036854775807"#])
    func idsAreEchoedExactly(id: String) {
        let replies = ConnectionHarness().exchange(
            #"{"jsonrpc":"2.0","id":"# + id + #","method":"echo","params":{"value":0}}"#)
        #expect(replies.count == 1)
        #expect(replies.first?.encodedString() == #"{"jsonrpc":"2.0","id":"# + id + #","result":0}"#)
    }

    /// Numbers are echoed as written, though the parser reads `1e2` as 100.0.
    @Test(arguments: [#"1e2"#, #"1.50"#, #"1e-400"#, #"-0"#, #"0"#, #"-0.0"#, #"1E+2"#])
    func numericIdsAreEchoedAsWritten(id: String) {
        let harness = ConnectionHarness()
        harness.exchange(#"{"jsonrpc":"2.0","id":"# + id + #","method":"echo","params":{"value":0}}"#)
        let spaced = #"{"method":"echo","id" : "# + id + #"  ,"jsonrpc":"2.0","params":{"value":2}}"#
        harness.exchange(#"[{"jsonrpc":"2.0","id":"# + id + #","method":"echo","params":{"value":1}},"# + spaced + "]")
        #expect(
            harness.sentText == [
                #"{"jsonrpc":"2.0","id":"# + id + #","result":0}"#,
                #"[{"jsonrpc":"2.0","id":"# + id + #","result":1},{"jsonrpc":"2.0","id":"# + id + #","result":2}]"#,
            ])
    }

    @Test(arguments: [#"true"#, #"[1]"#, #"{"a":1}"#])
    func idsOfOtherTypesAreInvalidRequests(id: String) {
        let reply = ConnectionHarness().exchange(#"{"jsonrpc":"2.0","id":"# + id + #","method":"echo"}"#).first
        #expect(errorCode(reply) == -32600)
        #expect(reply?["id"] == .null)
    }

    @Test func theEnvelopeIsChecked() {
        let harness = ConnectionHarness()
        let cases: [(String, JSON)] = [
            (#"{"id":1,"method":"echo"}"#, 1),
            (#"{"jsonrpc":"1.0","id":2,"method":"echo"}"#, 2),
            (#"{"jsonrpc":2.0,"id":3,"method":"echo"}"#, 3),
            (#"{"jsonrpc":"2.0","id":4}"#, 4),
            (#"{"jsonrpc":"2.0","id":5,"method":5}"#, 5),
            (#"{"jsonrpc":"2.0","id":6,"method":"echo","params":"x"}"#, 6),
            (#"{"jsonrpc":"2.0","id":7,"result":{}}"#, 7),
            (#"{"jsonrpc":"2.0","method":1}"#, .null),
            (#""just a string""#, .null),
            (#"42"#, .null),
        ]
        for (text, id) in cases {
            let replies = harness.exchange(text)
            #expect(replies.count == 1, "\(text)")
            #expect(errorCode(replies.first) == -32600, "\(text)")
            #expect(replies.first?["id"] == id, "\(text)")
            #expect(reason(replies.first) == "INVALID_REQUEST", "\(text)")
        }
    }

    @Test func unknownMethodsAreNamed() {
        let reply = ConnectionHarness().exchange(#"{"jsonrpc":"2.0","id":"x","method":"nope"}"#).first
        #expect(errorCode(reply) == -32601)
        #expect(reply?["error"]?["data"]?["method"] == "nope")
        #expect(reply?["id"] == "x")
    }

    @Test func invalidParamsNameTheFieldAndWhy() {
        let harness = ConnectionHarness()
        let missing = harness.exchange(#"{"jsonrpc":"2.0","id":1,"method":"typed","params":{}}"#).first
        #expect(errorCode(missing) == -32602)
        #expect(missing?["error"]?["data"]?["field"] == "name")
        #expect(missing?["error"]?["data"]?["why"] == "is required")

        let wrongType = harness.exchange(#"{"jsonrpc":"2.0","id":2,"method":"typed","params":{"name":3}}"#).first
        #expect(wrongType?["error"]?["data"]?["field"] == "name")
        #expect(wrongType?["error"]?["data"]?["why"] == "must be a string, not integer")

        let nested = harness.exchange(
            #"{"jsonrpc":"2.0","id":3,"method":"typed","params":{"name":"n","tags":["a",false]}}"#
        ).first
        #expect(nested?["error"]?["data"]?["field"] == "tags[1]")

        let unknown = harness.exchange(#"{"jsonrpc":"2.0","id":4,"method":"typed","params":{"name":"n","colour":1}}"#)
            .first
        #expect(errorCode(unknown) == -32602)
        #expect(unknown?["error"]?["data"]?["field"] == "colour")
    }

    @Test func byPositionParamsAreRefusedButAnEmptyArrayIsNoParams() {
        let harness = ConnectionHarness()
        let positional = harness.exchange(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}"#).first
        #expect(errorCode(positional) == -32602)
        let empty = harness.exchange(#"{"jsonrpc":"2.0","id":2,"method":"noisy","params":[]}"#).first
        #expect(result(empty) == "done")
    }

    @Test func applicationErrorsCarryAReason() {
        let reply = ConnectionHarness().exchange(#"{"jsonrpc":"2.0","id":1,"method":"failing"}"#).first
        #expect(errorCode(reply) == -32002)
        #expect(reason(reply) == "NOT_FOUND")
    }

    @Test func notYetImplementedMethodsSaySo() {
        let harness = ConnectionHarness()
        let reply = harness.exchange(#"{"jsonrpc":"2.0","id":1,"method":"someday","params":{"x":1}}"#).first
        #expect(errorCode(reply) == -32001)
        #expect(reason(reply) == "NOT_IMPLEMENTED")
        // Their params are still checked first.
        #expect(
            errorCode(harness.exchange(#"{"jsonrpc":"2.0","id":2,"method":"someday","params":{"y":1}}"#).first)
                == -32602)
    }

    @Test func parseErrorsHaveNullIdAndAPosition() {
        let reply = ConnectionHarness().exchange("{\"jsonrpc\":\"2.0\",\n\"id\":1,,}").first
        #expect(errorCode(reply) == -32700)
        #expect(reply?["id"] == .null)
        #expect(reply?["error"]?["data"]?["line"] == 2)
        #expect(reason(reply) == "INVALID_JSON")
    }

    @Test func framingProblemsAreAnswered() {
        let harness = ConnectionHarness()
        harness.connection.receive(.brokenFrame(.messageTooLarge(limit: 1024)))
        #expect(errorCode(harness.sent.last) == -32600)
        #expect(reason(harness.sent.last) == "MESSAGE_TOO_LARGE")
        #expect(harness.sent.last?["error"]?["data"]?["limit"] == 1024)
        harness.connection.receive(.brokenFrame(.missingContentLength))
        #expect(errorCode(harness.sent.last) == -32700)
        #expect(reason(harness.sent.last) == "MISSING_CONTENT_LENGTH")
    }

    // MARK: - Batches

    @Test func aBatchGetsOneArrayInRequestOrderWithoutNotificationReplies() throws {
        let replies = ConnectionHarness().exchange(
            """
            [{"jsonrpc":"2.0","id":1,"method":"echo","params":{"value":"a"}},
             {"jsonrpc":"2.0","method":"echo","params":{"value":"n"}},
             {"jsonrpc":"2.0","id":2,"method":"nope"},
             {"foo":"bar"},
             {"jsonrpc":"2.0","id":3,"method":"echo","params":{"value":"c"}}]
            """)
        #expect(replies.count == 1)
        let array = try #require(replies.first?.arrayValue)
        #expect(array.count == 4)
        #expect(result(array[0]) == "a")
        #expect(errorCode(array[1]) == -32601)
        #expect(errorCode(array[2]) == -32600)
        #expect(array[2]["id"] == .null)
        #expect(result(array[3]) == "c")
    }

    /// Replies of exactly the limit let the next request run; one byte past, it does not.
    @Test(arguments: [(0, "echo"), (-1, "REPLY_TOO_LARGE")])
    func aBatchsRepliesAreBounded(slack: Int, secondOutcome: String) throws {
        let single = #"{"jsonrpc":"2.0","id":1,"result":"0123456789"}"#.utf8.count
        var limits = RPCConnection.Limits()
        limits.maxBatchReplyBytes = single + slack
        let harness = ConnectionHarness(limits: limits)
        let request = { (id: Int) in #"{"jsonrpc":"2.0","id":\#(id),"method":"echo","params":{"value":"0123456789"}}"# }
        let replies = try #require(harness.exchange("[\(request(1)),\(request(2)),\(request(3))]").first?.arrayValue)
        #expect(replies.map { $0["id"] } == [1, 2, 3])
        #expect(result(replies[0]) == "0123456789")
        #expect((result(replies[1]) == "0123456789" ? "echo" : reason(replies[1])) == secondOutcome)
        #expect(reason(replies[2]) == "REPLY_TOO_LARGE")
    }

    @Test func anEmptyBatchIsOneInvalidRequest() {
        let replies = ConnectionHarness().exchange("[]")
        #expect(replies.count == 1)
        #expect(replies.first?.arrayValue == nil)
        #expect(errorCode(replies.first) == -32600)
        #expect(reason(replies.first) == "EMPTY_BATCH")
    }

    @Test func aBatchOfInvalidItemsGetsAnErrorForEach() throws {
        let replies = ConnectionHarness().exchange("[1,2,3]")
        let array = try #require(replies.first?.arrayValue)
        #expect(array.count == 3)
        #expect(array.allSatisfy { errorCode($0) == -32600 && $0["id"] == .null })
    }

    @Test func aBatchOfNotificationsGetsNothing() {
        let replies = ConnectionHarness().exchange(
            #"[{"jsonrpc":"2.0","method":"echo","params":{"value":1}},{"jsonrpc":"2.0","method":"nope"}]"#)
        #expect(replies.isEmpty)
    }

    @Test func aNestedBatchIsAnInvalidItem() throws {
        let replies = ConnectionHarness().exchange(
            #"[[{"jsonrpc":"2.0","id":1,"method":"echo","params":{"value":1}}]]"#)
        let array = try #require(replies.first?.arrayValue)
        #expect(array.count == 1)
        #expect(errorCode(array[0]) == -32600)
    }

    // MARK: - Order and answering

    @Test func notificationsCausedByARequestFollowItsReply() {
        let replies = ConnectionHarness().exchange(#"{"jsonrpc":"2.0","id":1,"method":"noisy"}"#)
        #expect(replies.map { $0["method"] ?? $0["id"] } == [1, "event", "event"])
        #expect(replies[1]["params"]?["n"] == 1)
        #expect(replies[2]["params"]?["n"] == 2)
    }

    @Test func notificationsCausedInABatchFollowTheBatch() {
        let replies = ConnectionHarness().exchange(
            #"[{"jsonrpc":"2.0","id":1,"method":"noisy"},{"jsonrpc":"2.0","id":2,"method":"noisy"}]"#)
        #expect(replies.count == 5)
        #expect(replies[0].arrayValue?.count == 2)
        #expect(replies[1...].allSatisfy { $0["method"] == "event" })
    }

    @Test func notificationsOutsideARequestGoStraightOut() {
        let harness = ConnectionHarness()
        harness.connection.notify(method: "event", params: ["n": 9])
        #expect(harness.sent.count == 1)
    }

    @Test func aDeferredReplyArrivesWhenAnswered() {
        let harness = ConnectionHarness()
        #expect(harness.exchange(#"{"jsonrpc":"2.0","id":"slow","method":"later"}"#).isEmpty)
        #expect(harness.exchange(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"value":1}}"#).count == 1)
        harness.pending.removeFirst().succeed("finally")
        #expect(harness.sent.last?["id"] == "slow")
        #expect(result(harness.sent.last) == "finally")
    }

    @Test func aBatchWaitsForItsDeferredItems() {
        let harness = ConnectionHarness()
        let replies = harness.exchange(
            #"[{"jsonrpc":"2.0","id":1,"method":"later"},{"jsonrpc":"2.0","id":2,"method":"noisy"}]"#)
        #expect(replies.isEmpty)
        harness.pending.removeFirst().succeed("late")
        #expect(harness.sent.count == 3)
        #expect(harness.sent[0].arrayValue?.map { $0["id"] } == [1, 2])
        #expect(harness.sent[1]["method"] == "event")
    }

    @Test func aHandlerThatNeverAnswersStillProducesOneReply() {
        let reply = ConnectionHarness().exchange(#"{"jsonrpc":"2.0","id":1,"method":"forgetful"}"#)
        #expect(reply.count == 1)
        #expect(errorCode(reply.first) == -32603)
    }

    @Test func afterShutdownBeginsRequestsAreRefused() {
        let harness = ConnectionHarness()
        harness.connection.beginShutdown()
        let reply = harness.exchange(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"value":1}}"#).first
        #expect(errorCode(reply) == -32006)
        #expect(reason(reply) == "SHUTTING_DOWN")
    }
}

@Suite struct DidYouMeanTests {
    @Test func aSlipOfAKnownNameIsSuggested() {
        #expect(EditDistance.closest(to: "echp", among: ["echo", "typed"]) == "echo")
        #expect(EditDistance.closest(to: "TYPED", among: ["echo", "typed"]) == "typed")
        #expect(EditDistance.closest(to: "nope", among: ["echo", "typed"]) == nil)
    }

    /// Names of another length are not compared, so a huge name costs nothing.
    @Test func aHugeNameGetsNoSuggestion() {
        let reply = ConnectionHarness().exchange(
            #"{"jsonrpc":"2.0","id":1,"method":""# + String(repeating: "e", count: 100_000) + #""}"#
        ).first
        #expect(errorCode(reply) == -32601 && reply?["error"]?["data"]?["suggestion"] == nil)
        #expect(EditDistance.closest(to: "echoooo", among: ["echo"]) == nil)
    }
}
