import BuntingCore
import BuntingJSON
import BuntingRuntime
@testable import BuntingStorage
import Testing

/// The text of a cache of about `pages` pages of the log (4 KB each).
private func largeCache(pages: Int, mark: Int = 0) -> EncodedJSON {
    let text = #"{"lastSyncAt":\#(mark),"cards":[""# + String(repeating: "x", count: pages * 4096) + #""]}"#
    return EncodedJSON(trustedText: Array(text.utf8))
}

private func logFrames(_ store: SQLiteStore) -> Int {
    store.connection?.database.logFrames ?? -1
}

@Suite struct CheckpointTests {
    @Test func withoutALoopACommitPastTheThresholdCheckpointsAsSQLiteWould() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(pages: 1200))
        _ = store.commitPending()
        #expect(logFrames(store) == 0)
        #expect(!store.checkpointIsDeferred)
    }

    @Test func aSmallCommitLeavesItsPagesInTheLog() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 1])
        _ = store.commitPending()
        #expect(logFrames(store) > 0)
        #expect(logFrames(store) < Checkpoints.deferredFrames)
    }

    @Test func aDeferredCheckpointWaitsForAPauseInCommits() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        let store = try openStore(directory)
        defer { store.close() }
        store.deferCheckpoints(on: loop)

        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(pages: 1200))
        _ = store.commitPending()
        let afterFirst = logFrames(store)
        #expect(afterFirst >= Checkpoints.deferredFrames)
        #expect(store.checkpointIsDeferred)

        // Another commit before the pause is over pushes the checkpoint back.
        clock.advance(by: Checkpoints.pause * 0.6)
        loop.runPending()
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 2])
        _ = store.commitPending()
        clock.advance(by: Checkpoints.pause * 0.6)
        loop.runPending()
        #expect(logFrames(store) > afterFirst)
        #expect(store.checkpointIsDeferred)

        clock.advance(by: Checkpoints.pause * 0.6)
        loop.runPending()
        #expect(logFrames(store) == 0)
        #expect(!store.checkpointIsDeferred)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 0)
        #expect(store.loadUser("alice").caches[.banners]?["lastSyncAt"] == 2)
    }

    @Test func aBusyStoreCheckpointsOnceTheLogPassesItsBound() throws {
        let directory = try TemporaryDirectory()
        let loop = EventLoop(clock: ManualClock())
        let store = try openStore(directory)
        defer { store.close() }
        store.deferCheckpoints(on: loop)
        var mark = 0
        // No pause ever comes: each commit rewrites a large cache.
        while logFrames(store) < Checkpoints.immediateFrames - 1500 {
            mark += 1
            try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(pages: 1200, mark: mark))
            _ = store.commitPending()
            #expect(store.checkpointIsDeferred)
        }
        mark += 1
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(pages: 1600, mark: mark))
        _ = store.commitPending()
        #expect(logFrames(store) == 0)
        #expect(!store.checkpointIsDeferred)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == .integer(Int64(mark)))
    }

    @Test func whatWaitsInTheLogIsThereAfterTheStoreIsOpenedAgain() throws {
        let directory = try TemporaryDirectory()
        let loop = EventLoop(clock: ManualClock())
        do {
            let store = try openStore(directory)
            store.deferCheckpoints(on: loop)
            try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(pages: 1200, mark: 7))
            _ = store.commitPending()
            #expect(store.checkpointIsDeferred)
            store.close()
        }
        let reopened = try openStore(directory)
        defer { reopened.close() }
        #expect(reopened.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 7)
    }
}
