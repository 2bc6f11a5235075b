import BuntingCore
import BuntingJSON
import Testing

/// Requests take effect in order: what a request starts with the definitions
/// in memory is done before the next request, and shutting down finishes
/// what was started.
@Suite struct RequestOrderTests {
    @Test func changeUserRefreshesBeforeItReturns() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        _ = harness.take()
        let fetches = harness.source.fetchCount
        try harness.engine.changeUser("ada", attributes: nil)
        // Nothing else ran: the refresh is an evaluation, not I/O.
        #expect(
            harness.takeWithoutRunning() == [
                "sub-1 CACHE_LOAD featureFlags [] sync=0",
                "sub-2 CACHE_LOAD contentCards [] sync=0",
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0",
                "sub-2 DATA_UPDATED contentCards AUTO_SERVER_REFRESH [c2,old,c1,ctl,fixed] sync=+0",
            ])
        #expect(harness.engine.readiness(.featureFlags) == .synced)
        #expect(harness.source.fetchCount == fetches, "the source is not read again")
        try harness.engine.openSession()
        #expect(harness.takeWithoutRunning().count == 2)
    }

    @Test func beforeAnyDefinitionsARefreshWaitsForTheFirstFetch() throws {
        let harness = EngineHarness(testDocument, localSource: false, settleAtStart: false)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("ada", attributes: nil)
        #expect(
            harness.takeWithoutRunning() == [
                "sub-1 ERROR featureFlags FEATURE_DISABLED SDK_WILL_RETRY",
                "sub-1 CACHE_LOAD featureFlags [] sync=null",
            ])
        #expect(
            harness.take() == [
                "sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0"
            ])
    }

    @Test func readsSayWhyTheyFindNothing() throws {
        let harness = EngineHarness(document { $0["channels"] = ["banners": false] })
        guard case .notSynced(let why) = harness.engine.readiness(.featureFlags) else {
            Issue.record("synced before any refresh"); return
        }
        #expect(why.contains("subscribe to featureFlags"))
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        guard case .notSynced(let remedy) = harness.engine.readiness(.featureFlags) else {
            Issue.record("synced"); return
        }
        #expect(remedy.contains("changeUser or openSession refreshes it"))
        try harness.engine.openSession()
        #expect(harness.engine.readiness(.featureFlags) == .synced)
        #expect(harness.engine.readiness(.banners) == .disabled("the definitions turn the banners channel off"))
    }

    @Test func shuttingDownWaitsForTheFetchUnderWayAndItsEvents() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = harness.take()
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        var done = false
        harness.engine.shutDown { done = true }
        #expect(!done, "the manual refresh's fetch is still under way")
        #expect(
            harness.take() == [
                "sub-1 DATA_UPDATED featureFlags MANUAL_SERVER_REFRESH [checkout,tracked,tracked-too] sync=+0"
            ])
        #expect(done)
    }

    @Test func shuttingDownFlushesAfterTheFetch() throws {
        let harness = try refreshedHarness()
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        try harness.engine.refresh(.featureFlags, placementIds: nil)
        _ = harness.takeWithoutRunning()
        var done = false
        harness.engine.shutDown { done = true }
        harness.settle()
        #expect(done)
        #expect(harness.sink.accepted.map(\.itemId) == ["c1"])
    }
}

/// A subscription made while the first document is being fetched was told
/// FEATURE_DISABLED / DO_NOT_RETRY, though the SDK was about to have it.
@Suite struct FirstFetchSubscriptionTests {
    @Test func aSubscriptionDuringTheFirstFetchHearsThatTheSDKWillHaveIt() throws {
        let harness = EngineHarness(testDocument, localSource: false, settleAtStart: false)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        #expect(harness.takeWithoutRunning() == ["sub-1 ERROR featureFlags FEATURE_DISABLED SDK_WILL_RETRY"])
        try harness.engine.changeUser("ada", attributes: nil)
        #expect(harness.take().last?.hasPrefix("sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH") == true)
    }
}
