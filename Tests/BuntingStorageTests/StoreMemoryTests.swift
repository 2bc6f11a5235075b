import BuntingCore
@testable import BuntingStorage
import Testing

/// What the store frees when the server pauses.
@Suite struct StoreMemoryTests {
    @Test func releasingMemoryFreesTheCachedPages() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: largeCache(megabytes: 1, mark: 1))
        _ = store.commitPending()
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 1)
        let cached = store.connection?.database.cacheBytes ?? 0
        store.releaseMemory()
        let released = store.connection?.database.cacheBytes ?? 0
        #expect(cached > 256 * 1024)
        #expect(released < cached / 4)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 1, "what was cached is read again")
    }
}
