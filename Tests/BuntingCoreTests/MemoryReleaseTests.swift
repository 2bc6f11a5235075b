import BuntingCore
import BuntingRuntime
import BuntingJSON
import Testing

/// Freed memory from large refreshes is given back once refreshes pause,
/// not after each one (which made the next refresh fault its pages in again).
@Suite struct MemoryReleaseTests {
    static func document(cards: Int) -> JSON {
        .object(["cards": .array((0..<cards).map { index in
            ["id": .string("card-\(index)"), "type": "classic", "created": .int(index)]
        })])
    }

    @Test func largeRefreshesGiveMemoryBackOnceTheyPause() throws {
        let harness = EngineHarness(Self.document(cards: Engine.largeRefreshItems + 1))
        var releases = 0
        harness.engine.releaseMemory = { releases += 1 }
        _ = harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.settle()
        #expect(releases == 0, "not right after the refresh")
        harness.advance(Engine.memoryReleaseDelay * 0.6)
        try harness.engine.changeUser("bob", attributes: nil)
        harness.advance(Engine.memoryReleaseDelay * 0.6)
        #expect(releases == 0, "another refresh came before the pause was long enough")
        harness.advance(Engine.memoryReleaseDelay * 0.6)
        #expect(releases == 1)
        harness.advance(Engine.memoryReleaseDelay * 10)
        #expect(releases == 1, "once for the pause")
    }

    @Test func smallRefreshesLeaveMemoryAlone() throws {
        let harness = EngineHarness(Self.document(cards: 3))
        var releases = 0
        harness.engine.releaseMemory = { releases += 1 }
        _ = harness.engine.subscribe(.contentCards, kind: .events)
        try harness.engine.changeUser("alice", attributes: nil)
        harness.advance(Engine.memoryReleaseDelay * 10)
        #expect(releases == 0)
    }
}
