import BuntingCore
import BuntingJSON
import Testing

@Suite struct EngineStorageTests {
    @Test func aStorageProblemReachesSubscribersNowAndLaterAfterTheirReplay() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        _ = try harness.engine.subscribe(.banners, kind: .updates)
        _ = harness.take()
        harness.engine.reportStorageProblem("local storage was damaged")
        #expect(harness.take() == ["sub-1 ERROR featureFlags CLIENT_ERROR DO_NOT_RETRY"])
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        let events = harness.takeRaw()
        #expect(
            events.map(EngineHarness.summary) == [
                "sub-3 CACHE_REPLAY contentCards [] sync=0", "sub-3 ERROR contentCards CLIENT_ERROR DO_NOT_RETRY",
            ])
        guard case .error(_, let error)? = events.last else { return }
        #expect(error.message == "local storage was damaged")
    }

    @Test func aStorageProblemFollowsTheFeatureDisabledErrorOfADisabledChannel() throws {
        let harness = EngineHarness(document { $0["channels"] = ["banners": false] })
        harness.engine.reportStorageProblem("memory only")
        _ = try harness.engine.subscribe(.banners, kind: .events)
        #expect(
            harness.take() == [
                "sub-1 ERROR banners FEATURE_DISABLED DO_NOT_RETRY",
                "sub-1 ERROR banners CLIENT_ERROR DO_NOT_RETRY",
            ])
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

    /// A refresh writes the flags' text once, for the snapshot it sends and
    /// the cache it stores: the two carry the same flags, also for a user
    /// switched back to (whose kept cache writes its text again).
    @Test func theFlagsARefreshSendsAreTheFlagsItStores() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        guard case .dataUpdated(_, let sent, _)? = harness.takeRaw().last else {
            Issue.record("no DATA_UPDATED"); return
        }
        let stored = try #require(harness.store.loadUser("alice").caches[.featureFlags])
        #expect(stored["flags"] == sent.encodedData.value)
        #expect(sent.encodedData.value.arrayValue?.count == 4)
        #expect(stored["lastSyncAt"] == sent.lastSyncAt.map(JSON.number))

        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.take()
        try harness.engine.changeUser("alice", attributes: nil)
        guard case .cacheLoad(_, let loaded)? = harness.takeRaw().first else { Issue.record("no CACHE_LOAD"); return }
        #expect(loaded.encodedData.bytes == sent.encodedData.bytes)
    }

    /// A snapshot written into a notification is the snapshot's own text.
    @Test func aSnapshotWrittenInPlaceIsItsText() throws {
        for lastSyncAt in [nil, 0, 1_750_000_000.5] as [Double?] {
            let snapshot = ChannelSnapshot(
                channel: .contentCards, encodedData: EncodedJSON(["cards": [], "unviewedCount": 0]),
                lastSyncAt: lastSyncAt)
            var written: [UInt8] = []
            snapshot.appendEncoded(to: &written)
            #expect(written == snapshot.encoded.bytes)
            #expect(written.count == snapshot.encodedCount)
            #expect(
                snapshot.json == [
                    "contentCards": ["cards": [], "unviewedCount": 0],
                    "lastSyncAt": lastSyncAt.map(JSON.number) ?? .null,
                ])
        }
    }
}
