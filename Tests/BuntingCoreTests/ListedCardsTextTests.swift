import BuntingCore
import BuntingJSON
import BuntingRuntime
import Testing

/// The content cards' snapshot is written once and sent again while the
/// cards, their states and which of them expired stay the same: these check
/// that each of those changes is listed at once, and that what is sent again
/// is the text listing the cards anew writes.
@Suite struct ListedCardsTextTests {
    /// The cards a snapshot lists now, as `[id,…]`, and its data's text.
    private func listed(_ harness: EngineHarness) -> (ids: String, text: [UInt8]) {
        let snapshot = harness.engine.snapshot(.contentCards)
        return (EngineHarness.items(snapshot.json["contentCards"]!), snapshot.encodedData.bytes)
    }

    /// The data texts of the CACHE_LOADs and DATA_UPDATEDs sent since the last take, in order.
    private func sentData(_ harness: EngineHarness) -> (loaded: [[UInt8]], updated: [[UInt8]]) {
        var sent: (loaded: [[UInt8]], updated: [[UInt8]]) = ([], [])
        for event in harness.takeRaw() {
            switch event {
            case .cacheLoad(_, let snapshot): sent.loaded.append(snapshot.encodedData.bytes)
            case .dataUpdated(_, let snapshot, _): sent.updated.append(snapshot.encodedData.bytes)
            default: break
            }
        }
        return sent
    }

    private func card(_ id: String, in harness: EngineHarness) -> JSON? {
        harness.engine.snapshot(.contentCards).json["contentCards"]?["cards"]?.arrayValue?
            .first { $0["id"]?.stringValue == id }
    }

    @Test func aCardLeavesWhenItExpiresAndComesBackWhenTheClockIsSetBack() throws {
        let harness = EngineHarness(testDocument)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.settle()
        #expect(listed(harness).ids == allCards)
        harness.advance(59)
        #expect(listed(harness).ids == allCards, "one second before its expiry")
        harness.advance(1)
        #expect(listed(harness).ids == "[c2,c1,ctl,fixed]", "at its expiry")
        harness.clock.stepWallClock(to: EngineHarness.startTime + 30)
        #expect(listed(harness).ids == allCards, "the wall clock set back before the expiry")
    }

    @Test func eachChangeOfACardsStateIsListedAtOnce() throws {
        let harness = EngineHarness(testDocument)
        try harness.engine.refresh(.contentCards, placementIds: nil)
        harness.settle()
        #expect(card("c1", in: harness)?["viewed"] == false)
        try harness.engine.logImpression(.contentCards, ids: ["c1"])
        #expect(card("c1", in: harness)?["viewed"] == true)
        #expect(harness.engine.snapshot(.contentCards).json["contentCards"]?["unviewedCount"] == 3)
        try harness.engine.logClick(.contentCards, id: "c2", buttonId: nil)
        #expect(card("c2", in: harness)?["clicked"] == true)
        try harness.engine.logDismiss(.contentCards, id: "c1")
        #expect(listed(harness).ids == "[c2,old,ctl,fixed]")
    }

    @Test func aReturningUsersCacheLoadListsTheCardsAsTheyLeftThem() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        _ = harness.take()
        try harness.engine.logImpression(.contentCards, ids: ["c2"])
        try harness.engine.logDismiss(.contentCards, id: "c1")
        let left = listed(harness)
        #expect(left.ids == "[c2,old,ctl,fixed]")
        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.takeRaw()
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(sentData(harness).loaded == [left.text])
    }

    /// A refresh that finds the cards a returning user's `CACHE_LOAD` listed
    /// sends that listing again, the same buffer, instead of listing them anew.
    @Test func aRefreshThatFindsAReturningUsersCardsSendsTheListingItsCacheLoadSent() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        try harness.engine.changeUser("bob", attributes: nil)
        _ = harness.takeRaw()
        try harness.engine.changeUser("alice", attributes: nil)
        let sent = sentData(harness)
        let loaded = try #require(sent.loaded.first)
        let updated = try #require(sent.updated.first)
        #expect(sent.loaded.count == 1 && sent.updated.count == 1)
        #expect(!loaded.isEmpty)
        #expect(loaded == updated)
        let shared = loaded.withUnsafeBufferPointer { load in
            updated.withUnsafeBufferPointer { update in load.baseAddress == update.baseAddress }
        }
        #expect(shared)
        // A card's state changed meanwhile: listed anew, with the change.
        try harness.engine.logImpression(.contentCards, ids: ["c2"])
        try harness.engine.refresh(.contentCards, placementIds: nil)
        let refreshed = sentData(harness).updated
        #expect(refreshed.count == 1 && refreshed.first != loaded)
    }

    @Test func aReturningUserWhoseCardExpiredMeanwhileIsListedWithoutIt() throws {
        let harness = EngineHarness(testDocument)
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(listed(harness).ids == allCards)
        try harness.engine.changeUser("bob", attributes: nil)
        harness.advance(60)
        _ = harness.take()
        try harness.engine.changeUser("alice", attributes: nil)
        #expect(harness.takeWithoutRunning().first == "sub-1 CACHE_LOAD contentCards [c2,c1,ctl,fixed] sync=+0")
    }

    @Test func theTextSentAgainIsTheTextListingTheCardsAnewWrites() throws {
        let harness = EngineHarness(MemoryReleaseTests.document(cards: Engine.largeRefreshItems + 1))
        harness.engine.releaseMemory = {}
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        _ = harness.takeRaw()
        try harness.engine.logImpression(.contentCards, ids: ["card-7"])
        let kept = listed(harness)
        #expect(kept.text == listed(harness).text)
        // Refreshes paused: the kept text is dropped and the cards listed anew.
        harness.advance(Engine.memoryReleaseDelay * 2)
        let anew = listed(harness)
        #expect(anew.text.count > (Engine.largeRefreshItems + 1) * 20)
        #expect(anew.text == kept.text)
    }
}
