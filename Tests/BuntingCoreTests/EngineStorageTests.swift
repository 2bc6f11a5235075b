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
        #expect(events.map(EngineHarness.summary) == [
            "sub-3 CACHE_REPLAY contentCards [] sync=0", "sub-3 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY",
        ])
        guard case .error(_, let error)? = events.last else { return }
        #expect(error.message == "local storage was damaged")
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
        guard case .analytics(_, let enqueued)? = harness.takeRaw().first else { Issue.record("no ENQUEUED"); return }
        harness.engine.flush { _, _ in }
        guard case .analytics(_, let flushed)? = harness.takeRaw().first else { Issue.record("no FLUSHED"); return }
        let sent = try #require(harness.sink.accepted.first)
        #expect(enqueued.action == .enqueued && flushed.action == .flushed)
        #expect(enqueued.eventId == sent.eventId)
        #expect(flushed.eventId == sent.eventId)
    }
}
