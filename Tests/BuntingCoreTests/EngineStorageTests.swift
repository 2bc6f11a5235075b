import BuntingCore
import BuntingJSON
import Testing

@Suite struct EngineStorageTests {
    @Test func aStorageProblemReachesSubscribersNowAndLaterAfterTheirReplay() {
        let harness = EngineHarness(testDocument)
        _ = harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.engine.subscribe(.banners, kind: .updates)
        _ = harness.take()
        harness.engine.reportStorageProblem("local storage was damaged")
        #expect(harness.take() == ["sub-1 ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY"])
        _ = harness.engine.subscribe(.contentCards, kind: .events)
        let events = harness.takeRaw()
        #expect(events.map { $0["type"]?.stringValue } == ["CACHE_REPLAY", "ERROR"])
        #expect(events.last?["message"] == "local storage was damaged")
    }

    @Test func aStorageProblemFollowsTheFeatureDisabledErrorOfADisabledChannel() {
        let harness = EngineHarness(document { $0["channels"] = ["banners": false] })
        harness.engine.reportStorageProblem("memory only")
        _ = harness.engine.subscribe(.banners, kind: .events)
        #expect(harness.take() == ["sub-1 ERROR banners FEATURE_DISABLED DO_NOT_RETRY", "sub-1 ERROR banners CLIENT_ERROR DO_NOT_RETRY"])
    }

    @Test func enqueuedAndFlushedCarryTheIdTheSinkReceives() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        let enqueued = try #require(harness.takeRaw().first)
        harness.engine.flush { _, _ in }
        let flushed = try #require(harness.takeRaw().first)
        let sent = try #require(harness.sink.accepted.first)
        #expect(enqueued["action"] == "ENQUEUED" && flushed["action"] == "FLUSHED")
        #expect(enqueued["eventId"] == .string(sent.eventId))
        #expect(flushed["eventId"] == .string(sent.eventId))
    }
}
