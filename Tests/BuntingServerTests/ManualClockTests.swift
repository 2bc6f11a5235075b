import BuntingCore
import BuntingJSON
import BuntingServer
import Testing

/// `serve --clock manual`: every timer of the server runs at the time
/// `advanceClock` reaches its deadline and not before, in order, with the
/// events it causes written before the reply; `setClock` moves the wall
/// clock alone. One test per timer, each moving the clock to a hair before
/// the deadline, then to it.
@Suite struct ManualClockTests {
    static let start = 1_750_000_000.0
    /// Less than any deadline's distance, more than the clock's rounding.
    static let hair = 0.001

    @Test func aPollRunsAtItsIntervalAndNotBefore() {
        let server = InProcessServer(testing: .manualClock) { $0.pollInterval = 30 }
        server.request("subscribe", params: ["channel": "featureFlags"])
        server.request("changeUser", params: ["userId": "ada"])
        let fetches = server.source.fetchCount
        server.source.setDocument(
            #"{"flags": {"checkout": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}}"#)
        #expect(server.advanceClock(30 - Self.hair).events.isEmpty)
        #expect(server.source.fetchCount == fetches, "no poll before its interval")
        let (reply, events) = server.advanceClock(Self.hair)
        #expect(events == ["DATA_UPDATED featureFlags AUTO_SERVER_REFRESH"], "the poll's change, before the reply")
        #expect(server.source.fetchCount == fetches + 1)
        #expect(reply["time"]?.doubleValue == Self.start + 30)
        #expect(
            server.events.last?["cacheSnapshot"]?["lastSyncAt"]?.doubleValue == Self.start + 30,
            "the clock read the poll's deadline")
    }

    @Test func theSourcesFirstRetryRunsAfterTheInitialDelayAndNotBefore() {
        let server = InProcessServer(testing: [.manualClock, .faults])
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.call("injectFault", ["target": "definitions", "response": ["status": 503]])
        let fetches = server.source.fetchCount
        let before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        #expect(server.eventSummaries(from: before) == ["ERROR contentCards SERVER_ERROR SDK_WILL_RETRY"])
        #expect(server.advanceClock(1 - Self.hair).events.isEmpty, "no retry before --retry-initial-delay")
        #expect(server.source.fetchCount == fetches, "the injected answer stood in for the fetch")
        #expect(server.advanceClock(Self.hair).events == ["DATA_UPDATED contentCards MANUAL_SERVER_REFRESH"])
        #expect(server.source.fetchCount == fetches + 1)
    }

    /// Later retries double with jitter: a Retry-After fixes their time
    /// exactly (taken up to --retry-max-delay, 30 s in the harness).
    @Test func aRetryAfterHoldsTheRetryUntilThenAndNotBefore() {
        let server = InProcessServer(testing: [.manualClock, .faults])
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.call(
            "injectFault",
            ["target": "definitions", "response": ["status": 429, "headers": ["Retry-After": "20"]], "times": 2])
        let before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        #expect(server.eventSummaries(from: before) == ["ERROR contentCards RATE_LIMITED SDK_WILL_RETRY"])
        #expect(server.events.last?["rateLimitedUntil"]?.doubleValue == Self.start + 20)
        #expect(server.advanceClock(20 - Self.hair).events.isEmpty)
        #expect(
            server.advanceClock(Self.hair).events == ["ERROR contentCards RATE_LIMITED SDK_WILL_RETRY"],
            "the second 429, at 20 s")
        #expect(server.events.last?["rateLimitedUntil"]?.doubleValue == Self.start + 40, "read on the manual clock")
        #expect(server.advanceClock(20 - Self.hair).events.isEmpty)
        #expect(server.advanceClock(Self.hair).events == ["DATA_UPDATED contentCards MANUAL_SERVER_REFRESH"])
    }

    /// Every retry within one advance runs at its own time, in order, its
    /// events before the reply: a script sees the whole retry cycle at once.
    @Test func retriesWithinOneAdvanceRunInOrderEachAtItsDeadline() {
        let server = InProcessServer(testing: [.manualClock, .faults])
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.call("injectFault", ["target": "definitions", "response": ["status": 503], "times": 4])
        server.request("refresh", params: ["channel": "contentCards"])
        let (reply, events) = server.advanceClock(3600)
        // The harness's policy: 3 retries, then the integrator decides.
        #expect(
            events == [
                "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY", "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY",
                "ERROR contentCards SERVER_ERROR INTEGRATOR_MAY_RETRY",
            ])
        #expect(reply["steps"]?.integerValue == 3, "one step per retry")
        #expect(reply["time"]?.doubleValue == Self.start + 3600)
        // The next manual refresh finds the source back.
        server.request("refresh", params: ["channel": "contentCards"])
        let synced = server.events.last?["cacheSnapshot"]?["lastSyncAt"]?.doubleValue ?? 0
        #expect(synced == Self.start + 3600)
    }

    @Test func theSinksRetryRunsAfterTheInitialDelayAndNotBefore() {
        let server = InProcessServer(testing: [.manualClock, .faults])
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.request("logImpression", params: ["channel": "contentCards", "id": "welcome"])
        server.call("injectFault", ["target": "sink", "response": "timeout"])
        #expect(server.call("flush") == ["flushed": 0, "pending": 1])
        #expect(server.eventSummaries().last == "ERROR contentCards SERVER_ERROR SDK_WILL_RETRY")
        #expect(server.advanceClock(1 - Self.hair).events.isEmpty)
        #expect(server.sink.accepted.isEmpty)
        #expect(server.advanceClock(Self.hair).events == ["IMPRESSION contentCards FLUSHED"])
        #expect(server.sink.accepted.map(\.itemId) == ["welcome"])
    }

    @Test func thePeriodicFlushRunsAtItsIntervalAndNotBefore() {
        let server = InProcessServer(testing: .manualClock) { $0.flushInterval = 10 }
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.request("logImpression", params: ["channel": "contentCards", "id": "welcome"])
        #expect(server.advanceClock(10 - Self.hair).events.isEmpty)
        #expect(server.sink.accepted.isEmpty)
        #expect(server.advanceClock(Self.hair).events == ["IMPRESSION contentCards FLUSHED"])
        #expect(server.sink.accepted.map(\.itemId) == ["welcome"])
    }

    @Test func aRefreshTokenComesBackAfterTheRefillIntervalAndNotBefore() {
        let server = InProcessServer(testing: .manualClock) { configuration in
            configuration.refreshRules[.contentCards] = TokenBucket.Rule(
                capacity: 1, refillInterval: 60, refillsPerSession: false)
        }
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        var before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        #expect(server.eventSummaries(from: before) == ["DATA_UPDATED contentCards MANUAL_SERVER_REFRESH"])
        before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        #expect(server.eventSummaries(from: before) == ["ERROR contentCards RATE_LIMITED INTEGRATOR_MAY_RETRY"])
        #expect(server.events.last?["rateLimitedUntil"]?.doubleValue == Self.start + 60)
        server.advanceClock(60 - Self.hair)
        before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        #expect(server.eventSummaries(from: before) == ["ERROR contentCards RATE_LIMITED INTEGRATOR_MAY_RETRY"])
        server.advanceClock(Self.hair)
        before = server.received.count
        server.request("refresh", params: ["channel": "contentCards"])
        #expect(server.eventSummaries(from: before) == ["DATA_UPDATED contentCards MANUAL_SERVER_REFRESH"])
    }

    /// A schedule is read when the channel is refreshed: from its start on, not before.
    @Test func aCardsScheduleStartsAtItsStartAndNotBefore() {
        let server = InProcessServer(definitions: Self.scheduled, testing: .manualClock)
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        #expect(cardIds(server) == ["always"])
        server.advanceClock(3600 - Self.hair)
        server.request("openSession")
        #expect(cardIds(server) == ["always"])
        server.advanceClock(Self.hair)
        server.request("openSession")
        #expect(cardIds(server) == ["advent", "always"], "at its start")
    }

    /// Expiry is read when the snapshot is: gone at `expiresAt`, listed just before.
    @Test func aCardExpiresAtItsExpiryAndNotBefore() {
        let server = InProcessServer(definitions: Self.scheduled, testing: .manualClock)
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.advanceClock(3600)
        server.request("openSession")
        server.advanceClock(3600 - Self.hair)
        #expect(cardIds(server) == ["advent", "always"])
        server.advanceClock(Self.hair)
        #expect(cardIds(server) == ["always"], "expired")
    }

    @Test func aBannersScheduleStartsAndEndsAtItsTimesAndNotBefore() {
        let server = InProcessServer(definitions: Self.scheduled, testing: .manualClock)
        server.request("subscribe", params: ["channel": "banners"])
        server.request("changeUser", params: ["userId": "ada"])
        func filled() -> String? {
            server.request("openSession")
            return server.call("getSnapshot", ["channel": "banners"])["banners"]?["home"]?["id"]?.stringValue
        }
        #expect(filled() == "everyday")
        server.advanceClock(3600 - Self.hair)
        #expect(filled() == "everyday")
        server.advanceClock(Self.hair)
        #expect(filled() == "sale", "the sale outranks it from its start")
        server.advanceClock(3600 - Self.hair)
        #expect(filled() == "sale")
        server.advanceClock(Self.hair)
        #expect(filled() == "everyday", "its schedule ended")
    }

    @Test func memoryIsGivenBackAfterTheReleaseDelayAndNotBefore() {
        let cards = (0...Engine.largeRefreshItems).map {
            #"{"id": "card-\#($0)", "type": "classic", "title": "Card", "extras": {}, "created": \#($0)}"#
        }
        let server = InProcessServer(
            definitions: #"{"contentCards": [\#(cards.joined(separator: ","))]}"#, testing: .manualClock)
        var releases = 0
        server.engine.releaseMemory = { releases += 1 }
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.advanceClock(Engine.memoryReleaseDelay - Self.hair)
        #expect(releases == 0)
        server.advanceClock(Self.hair)
        #expect(releases == 1)
    }

    /// setClock sets the wall clock: what reads it sees the new time, and no timer runs.
    @Test func setClockMovesTheWallClockAndRunsNoTimer() {
        let server = InProcessServer(testing: .manualClock) { $0.flushInterval = 10 }
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.request("logImpression", params: ["channel": "contentCards", "id": "welcome"])
        let before = server.received.count
        let reply = server.call("setClock", ["time": "2026-12-08T09:00:00Z"])
        #expect(reply == ["time": 1_796_720_400, "date": "2026-12-08T09:00:00Z"])
        #expect(server.eventSummaries(from: before).isEmpty, "no flush: no time passed")
        server.request("openSession")
        #expect(server.events.last?["cacheSnapshot"]?["lastSyncAt"]?.doubleValue == 1_796_720_400)
        #expect(server.call("setClock", ["time": 1_700_000_000.5])["date"] == "2023-11-14T22:13:20.5Z", "and back")
        #expect(server.call("status")["clock"]?["time"]?.doubleValue == 1_700_000_000.5)
        for bad: JSON in ["next tuesday", "2026-13-01T00:00:00Z", "2026-12-08T09:00:00", true, 1e300] {
            #expect(server.request("setClock", params: ["time": bad])["error"]?["data"]?["field"] == "time", "\(bad)")
        }
        #expect(server.request("advanceClock", params: ["seconds": -1])["error"]?["data"]?["field"] == "seconds")
    }

    /// A bound on the steps of one advance: a millisecond poll over two minutes
    /// is 120,000 deadlines; past 100,000 the rest of the span passes at once.
    @Test func anAdvanceStepsThroughABoundedNumberOfDeadlines() {
        let server = InProcessServer(testing: .manualClock) { $0.pollInterval = 0.001 }
        let reply = server.advanceClock(120).reply
        #expect(reply["coalesced"] == true)
        #expect(reply["steps"]?.integerValue == Int64(ManualTime.maxSteps))
        #expect(reply["time"]?.doubleValue == Self.start + 120)
        #expect(server.advanceClock(0.01).reply["coalesced"] == false, "the next one steps again")
    }

    @Test func theClockMethodsRefuseAServerOnTheSystemClock() {
        let server = InProcessServer()
        for (method, params) in [("setClock", ["time": 1] as JSON), ("advanceClock", ["seconds": 1])] {
            let error = server.request(method, params: params)["error"]
            #expect(error?["code"] == -32011)
            #expect(error?["data"]?["reason"] == "NOT_ENABLED")
            #expect(error?["message"]?.stringValue?.contains("--clock manual") == true)
        }
        #expect(server.call("status")["clock"] == nil)
    }

    /// The queue of banners and cards the schedule tests read: one of each
    /// starting an hour in and ending (the card: expiring) an hour later.
    static let scheduled = """
        {"banners": [
           {"id": "everyday", "placementId": "home", "html": "<p>Hi</p>", "priority": 1, "properties": {}},
           {"id": "sale", "placementId": "home", "html": "<p>Sale</p>", "priority": 9, "properties": {},
            "schedule": {"start": \(start + 3600), "end": \(start + 7200)}}],
         "contentCards": [
           {"id": "always", "type": "classic", "title": "Always", "extras": {}, "created": 1700000000},
           {"id": "advent", "type": "classic", "title": "Advent", "extras": {}, "created": 1700000100,
            "schedule": {"start": \(start + 3600)}, "expiresAt": \(start + 7200)}]}
        """

    /// The ids of the cards listed, newest first.
    private func cardIds(_ server: InProcessServer) -> [String] {
        (server.call("getSnapshot", ["channel": "contentCards"])["contentCards"]?["cards"]?.arrayValue ?? []).compactMap
        { $0["id"]?.stringValue }
    }
}

extension InProcessServer {
    /// `advanceClock`'s reply, and the events it caused, each written before the reply.
    @discardableResult
    func advanceClock(_ seconds: Double) -> (reply: JSON, events: [String]) {
        let before = received.count
        let reply = request("advanceClock", params: ["seconds": .number(seconds)])
        let replyIndex = received.indices.dropFirst(before).first { received[$0]["method"] == nil } ?? received.count
        #expect(received[replyIndex...].allSatisfy { $0["method"] != "event" }, "every event before the reply")
        return (reply["result"] ?? .null, eventSummaries(from: before))
    }
}
