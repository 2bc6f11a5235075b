import BuntingCore
import BuntingJSON
import BuntingRuntime
@testable import BuntingStorage
import Testing

/// The text of a cache of about `megabytes` in the log, filled with `fill`,
/// or else with a letter chosen by `mark`: caches of consecutive marks differ
/// in every page, so that each is logged whole (one saved over another of the
/// same size and bytes logs only the pages that changed).
func largeCache(megabytes: Double, mark: Int = 0, fill: Character? = nil) -> EncodedJSON {
    let letter = fill ?? Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(mark % 26)))
    let text =
        #"{"lastSyncAt":\#(mark),"cards":[""# + String(repeating: letter, count: Int(megabytes * 1_048_576))
        + #""]}"#
    return EncodedJSON(trustedText: Array(text.utf8))
}

private func logBytes(_ store: SQLiteStore) -> Int {
    store.connection?.database.logBytes ?? -1
}

/// A store whose checkpoints wait for pauses on `loop`, as a server's do.
private func openStore(_ directory: TemporaryDirectory, deferringCheckpointsOn loop: EventLoop) throws -> SQLiteStore {
    let store = try openStore(directory)
    store.deferCheckpoints(on: loop)
    return store
}

@Suite struct CheckpointTests {
    @Test func withoutALoopACommitPastTheThresholdCheckpointsAsSQLiteWould() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 5))
        _ = store.commitPending()
        #expect(logBytes(store) == 0)
        #expect(!store.checkpointIsDeferred)
    }

    @Test func aSmallCommitLeavesItsPagesInTheLog() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 1])
        _ = store.commitPending()
        #expect(logBytes(store) > 0)
        #expect(logBytes(store) < Checkpoints.deferredBytes)
    }

    @Test func aDeferredCheckpointWaitsForAPauseInCommits() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        let store = try openStore(directory, deferringCheckpointsOn: loop)
        defer { store.close() }

        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 5))
        _ = store.commitPending()
        let afterFirst = logBytes(store)
        #expect(afterFirst >= Checkpoints.deferredBytes)
        #expect(store.checkpointIsDeferred)

        // Another commit before the pause is over pushes the checkpoint back.
        clock.advance(by: Checkpoints.pause * 0.6)
        loop.runPending()
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 2])
        _ = store.commitPending()
        clock.advance(by: Checkpoints.pause * 0.6)
        loop.runPending()
        #expect(logBytes(store) > afterFirst)
        #expect(store.checkpointIsDeferred)

        clock.advance(by: Checkpoints.pause * 0.6)
        loop.runPending()
        #expect(logBytes(store) == 0)
        #expect(!store.checkpointIsDeferred)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 0)
        #expect(store.loadUser("alice").caches[.banners]?["lastSyncAt"] == 2)
    }

    @Test func aBusyStoreCheckpointsOnceTheLogPassesItsBound() throws {
        let directory = try TemporaryDirectory()
        let loop = EventLoop(clock: ManualClock())
        let store = try openStore(directory, deferringCheckpointsOn: loop)
        defer { store.close() }
        var mark = 0
        // No pause ever comes: each commit rewrites a large cache.
        while logBytes(store) < Checkpoints.immediateBytes - 6 * 1_048_576 {
            mark += 1
            try store.saveChannelCache(
                user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 5, mark: mark))
            _ = store.commitPending()
            #expect(store.checkpointIsDeferred)
        }
        mark += 1
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 7, mark: mark))
        _ = store.commitPending()
        #expect(logBytes(store) == 0)
        #expect(!store.checkpointIsDeferred)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == .integer(Int64(mark)))
    }

    @Test func largeCommitsLetFourOfThemWaitInTheLog() throws {
        let directory = try TemporaryDirectory()
        let loop = EventLoop(clock: ManualClock())
        let store = try openStore(directory, deferringCheckpointsOn: loop)
        defer { store.close() }
        // Each commit adds about 12 MB: past the fixed bound after three,
        // but the log may hold four of them.
        var logged: [Int] = []
        for mark in 1...4 {
            try store.saveChannelCache(
                user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 12, mark: mark))
            _ = store.commitPending()
            logged.append(logBytes(store))
        }
        #expect(logged[2] >= Checkpoints.immediateBytes)
        #expect(logged[2] < Checkpoints.commitsPerImmediate * (logged[2] - logged[1]))
        #expect(logged[3] == 0)
        #expect(!store.checkpointIsDeferred)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 4)
    }

    /// The bound is four of the largest commits in the log, not of the
    /// last: a small commit after large ones (a user change's first writes)
    /// does not checkpoint before four large ones wait.
    @Test func aSmallCommitAfterLargeOnesLeavesThemInTheLog() throws {
        let directory = try TemporaryDirectory()
        let loop = EventLoop(clock: ManualClock())
        let store = try openStore(directory, deferringCheckpointsOn: loop)
        defer { store.close() }
        var logged: [Int] = []
        for mark in 1...3 {
            try store.saveChannelCache(
                user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 12, mark: mark))
            _ = store.commitPending()
            try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": .integer(Int64(mark))])
            _ = store.commitPending()
            logged.append(logBytes(store))
        }
        #expect(logged[2] >= Checkpoints.immediateBytes)
        #expect(logged.allSatisfy { $0 > 0 })
        #expect(store.checkpointIsDeferred)
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 12, mark: 4))
        _ = store.commitPending()
        #expect(logBytes(store) == 0)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 4)
        #expect(store.loadUser("alice").caches[.banners]?["lastSyncAt"] == 3)
    }

    @Test func whatWaitsInTheLogIsThereAfterTheStoreIsOpenedAgain() throws {
        let directory = try TemporaryDirectory()
        let loop = EventLoop(clock: ManualClock())
        do {
            let store = try openStore(directory, deferringCheckpointsOn: loop)
            try store.saveChannelCache(
                user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 5, mark: 7))
            _ = store.commitPending()
            #expect(store.checkpointIsDeferred)
            store.close()
        }
        let reopened = try openStore(directory)
        defer { reopened.close() }
        #expect(reopened.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 7)
    }
}
