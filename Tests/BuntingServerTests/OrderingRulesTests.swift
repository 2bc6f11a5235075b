import BuntingCore
import BuntingJSON
import Testing

/// The ordering rules of `EngineEvent`, over the server as `bunting serve`
/// assembles it, in process: each test takes milliseconds.
@Suite struct OrderingRulesTests {
    @Test func aReplyComesBeforeTheEventsItsRequestCaused() {
        let server = InProcessServer()
        let subscribe = server.received.count
        server.request("subscribe", params: ["channel": "contentCards"], id: 1)
        #expect(server.received[subscribe]["id"] == 1, "the reply first")
        #expect(server.received[subscribe + 1]["params"]?["type"] == "CACHE_REPLAY")
        let change = server.received.count
        server.request("changeUser", params: ["userId": "ada"], id: 2)
        #expect(server.received[change]["id"] == 2)
        #expect(
            server.eventSummaries(from: change) == [
                "CACHE_LOAD contentCards", "DATA_UPDATED contentCards AUTO_SERVER_REFRESH",
            ])
    }

    @Test func aBatchsArrayComesBeforeTheEventsOfAllItsRequests() {
        let server = InProcessServer()
        server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        let before = server.received.count
        server.send(
            #"[{"jsonrpc":"2.0","id":2,"method":"changeUser","params":{"userId":"ada"}},{"jsonrpc":"2.0","id":3,"method":"openSession"}]"#
        )
        #expect(server.received[before].arrayValue?.count == 2, "the batch's array first")
        #expect(
            server.eventSummaries(from: before) == [
                "CACHE_LOAD featureFlags", "DATA_UPDATED featureFlags AUTO_SERVER_REFRESH",
                "DATA_UPDATED featureFlags AUTO_SERVER_REFRESH",
            ])
    }

    /// No ENQUEUED reaches the client before the commit that makes its event durable.
    @Test func enqueuedIsWrittenOnlyAfterTheCommitOfItsEvent() {
        let store = CommitRecordingStore()
        let server = InProcessServer(store: store)
        var early: [String] = []
        server.onWrite = { message in
            guard message["params"]?["action"] == "ENQUEUED", let id = message["params"]?["eventId"]?.stringValue else {
                return
            }
            if !store.committed.contains(id) { early.append(id) }
        }
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.request("logImpression", params: ["channel": "contentCards", "ids": ["welcome", "sale"]])
        server.notify("logClick", params: ["channel": "contentCards", "id": "sale"])
        server.request("track", params: ["name": "checkout"])
        #expect(server.eventSummaries().filter { $0.hasSuffix("ENQUEUED") }.count == 3)
        #expect(early.isEmpty, "ENQUEUED before its commit: \(early)")
        #expect(store.committed.count == 4)
    }

    /// Requests take effect in order: a read after changeUser sees the new user's data.
    @Test func aReadAfterChangeUserSeesTheNewUser() {
        let server = InProcessServer()
        server.request("subscribe", params: ["channel": "featureFlags"])
        server.send(
            #"{"jsonrpc":"2.0","id":1,"method":"changeUser","params":{"userId":"ada","attributes":{"tier":"gold"}}}"#
                + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"getFeatureFlag","params":{"id":"checkout"}}"#)
        let read = server.received.first { $0["id"] == 2 }
        #expect(read?["result"]?["enabled"] == true)
    }

    /// After `shutdown` the reply, then every later request SHUTTING_DOWN, then the end.
    @Test func shutdownAnswersThenRefusesWhatFollowsAndEnds() {
        let server = InProcessServer()
        server.send(
            #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"status"}"#)
        #expect(server.received.first { $0["id"] == 1 }?["result"] == [:])
        #expect(server.received.first { $0["id"] == 2 }?["error"]?["data"]?["reason"] == "SHUTTING_DOWN")
        #expect(server.exitStatus == 0)
    }

    /// End of input finishes the flush it started before the server ends.
    @Test func endOfInputFlushesQueuedEventsFirst() {
        let server = InProcessServer()
        server.request("changeUser", params: ["userId": "ada"])
        server.request("track", params: ["name": "checkout"])
        server.closeInput()
        #expect(server.sink.accepted.map(\.itemId) == ["checkout"])
        #expect(server.exitStatus == 0)
    }
}
