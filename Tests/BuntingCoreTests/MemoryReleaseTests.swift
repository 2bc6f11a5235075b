import BuntingCore
import BuntingRuntime
import BuntingJSON
import Testing

/// Freed memory from large refreshes is given back once refreshes pause,
/// not after each one (which made the next refresh fault its pages in again).
@Suite struct MemoryReleaseTests {
    static func document(cards: Int) -> JSON {
        .object([
            "cards": .array(
                (0..<cards).map { index in
                    ["id": .string("card-\(index)"), "type": "classic", "created": .int(index)]
                })
        ])
    }

    @Test func largeRefreshesGiveMemoryBackOnceTheyPause() throws {
        let harness = EngineHarness(Self.document(cards: Engine.largeRefreshItems + 1))
        var releases = 0
        harness.engine.releaseMemory = { releases += 1 }
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.settle()
        #expect(releases == 0, "not right after the refresh")
        harness.advance(Engine.memoryReleaseDelay * 0.6)
        try harness.engine.changeUser("bob", attributes: nil)
        harness.advance(Engine.memoryReleaseDelay * 0.6)
        #expect(releases == 0, "another refresh came before the pause was long enough")
        harness.advance(Engine.memoryReleaseDelay * 0.6)
        #expect(releases == 1)
        #expect(harness.store.memoryReleases == 1, "the store's cached pages are freed before the trim")
        harness.advance(Engine.memoryReleaseDelay * 10)
        #expect(releases == 1, "once for the pause")
    }

    @Test func aSnapshotAfterTheReleaseHoldsTheSameFlags() throws {
        let flags = (0...Engine.largeRefreshItems).map { index -> JSON in
            ["id": .string("flag-\(index)"), "enabled": .bool(index % 2 == 0)]
        }
        let harness = EngineHarness(.object(["flags": .array(flags)]))
        harness.engine.releaseMemory = {}
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        _ = harness.takeRaw()
        // A snapshot right after the refresh uses the text the refresh wrote;
        // once refreshes pause that text is dropped and written anew.
        let before = try replayedText(harness)
        harness.advance(Engine.memoryReleaseDelay * 2)
        let after = try replayedText(harness)
        #expect(before?.count ?? 0 > 1000 * 20)
        #expect(after == before)
    }

    private func replayedText(_ harness: EngineHarness) throws -> [UInt8]? {
        _ = try harness.engine.subscribe(.featureFlags, kind: .events)
        for event in harness.takeRaw() {
            if case .cacheReplay(_, let snapshot) = event { return snapshot.encodedData.bytes }
        }
        return nil
    }

    @Test func smallRefreshesLeaveMemoryAlone() throws {
        let harness = EngineHarness(Self.document(cards: 3))
        var releases = 0
        harness.engine.releaseMemory = { releases += 1 }
        _ = try harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.advance(Engine.memoryReleaseDelay * 10)
        #expect(releases == 0)
    }
}
