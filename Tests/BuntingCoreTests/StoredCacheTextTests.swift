import BuntingCore
import BuntingJSON
import Testing

/// The text a channel's cache is stored as keeps its size while its items
/// stay the same: the store then writes over the old text in place and
/// writes only the bytes that changed (the time of the refresh), instead of
/// megabytes for a user switched back to or a refresh that found nothing new.
@Suite struct StoredCacheTextTests {
    /// The offsets at which two texts of the same length differ.
    private func differences(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
    }

    @Test func aReturningUsersCachesAreStoredAsTextsOfTheSameSizeDifferingInTheSyncTimeOnly() throws {
        let harness = EngineHarness(testDocument)
        for channel in Channel.allCases { _ = try harness.engine.subscribe(channel, kind: .events) }
        // A whole second, then a time with a fraction: numbers of other lengths.
        try harness.engine.changeUser("alice", attributes: nil)
        harness.advance(2)
        try harness.engine.changeUser("bob", attributes: nil)
        harness.advance(0.123_456_789)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.settle()
        for channel in Channel.allCases {
            let texts = harness.recordingStore.texts("alice", channel)
            try #require(texts.count == 2, "\(channel)")
            #expect(texts[0].count == texts[1].count, "\(channel)")
            let changed = differences(texts[0], texts[1])
            #expect(!changed.isEmpty, "\(channel)")
            // `{"lastSyncAt":` and the number's 24 bytes.
            #expect(changed.allSatisfy { $0 < 14 + 24 }, "\(channel): \(changed.prefix(5))")
            let stored = harness.store.loadUser("alice").caches[channel]?["lastSyncAt"]?.doubleValue
            #expect(abs((stored ?? 0) - (EngineHarness.startTime + 2.123_457)) < 1e-6, "\(channel)")
        }
    }

    @Test func theStoredTextIsJSONTheCacheIsReadBackFrom() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.settle()
        let text = try #require(harness.recordingStore.texts("alice", .contentCards).last)
        let parsed = try JSON.parse(text)
        #expect(parsed["lastSyncAt"]?.doubleValue == EngineHarness.startTime)
        #expect(parsed == harness.store.loadUser("alice").caches[.contentCards])
        #expect(parsed["cards"]?.arrayValue?.isEmpty == false)
    }

    /// A refresh's caches are stored once its DATA_UPDATED events are sent
    /// (the client reads them while the loop writes), each channel's once,
    /// under the user it was evaluated for, before anything else is done.
    @Test func aRefreshStoresItsCachesOnceItsEventsAreSent() throws {
        let harness = EngineHarness(testDocument)
        for channel in Channel.allCases { _ = try harness.engine.subscribe(channel, kind: .events) }
        _ = harness.take()
        let store = harness.recordingStore
        let savedBefore = store.savedTexts.count
        let sentBefore = store.notificationsSent()
        // When the engine hands its events over: (saves made, notifications sent) then.
        var handedOver: [(saved: Int, sent: Int)] = []
        harness.engine.handOverEvents = { handedOver.append((store.savedTexts.count, store.notificationsSent())) }
        try harness.engine.changeUser("alice", attributes: nil)
        let sent = harness.takeWithoutRunning()
        // Once, after every event of the change and before any of its saves.
        #expect(handedOver.map(\.saved) == [savedBefore])
        #expect(handedOver.map(\.sent) == [sentBefore + sent.count])
        #expect(sent.count { $0.contains("DATA_UPDATED") } == 3, "\(sent)")
        let saves = store.savedTexts[savedBefore...]
        #expect(saves.map(\.user) == ["alice", "alice", "alice"])
        #expect(Set(saves.map(\.channel)) == Set(Channel.allCases))
        // Every save came after every notification the change sent.
        #expect(
            store.notificationsBeforeSave[savedBefore...].allSatisfy { $0 == sentBefore + sent.count },
            "\(store.notificationsBeforeSave[savedBefore...]) \(sentBefore) \(sent)")
        for channel in Channel.allCases {
            #expect(harness.store.loadUser("alice").caches[channel]?["lastSyncAt"] != nil, "\(channel)")
        }
        // Switching users stores nothing of the new user's before its own refresh.
        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.takeWithoutRunning()
        #expect(store.savedTexts[(savedBefore + 3)...].allSatisfy { $0.user == "bob" })
        #expect(store.texts("alice", .featureFlags).count == 1)
    }
}
