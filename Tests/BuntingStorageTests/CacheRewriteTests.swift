import BuntingCore
import BuntingJSON
@testable import BuntingStorage
import Testing

/// A cache saved again with the same items: the store writes over the row in
/// place and logs only the pages whose bytes changed.
@Suite struct CacheRewriteTests {
    /// Twice this stays under the log's size that makes a store with no loop checkpoint.
    private static let megabytes = 1.5
    private static let cacheBytes = Int(megabytes * 1_048_576)

    /// Bytes the write-ahead log gained by saving `cache` for alice and committing.
    private func logged(_ store: SQLiteStore, _ cache: EncodedJSON) throws -> Int {
        let before = store.connection?.database.logBytes ?? -1
        try store.saveChannelCache(user: "alice", channel: .contentCards, encoded: cache)
        #expect(store.commitPending() == nil)
        return (store.connection?.database.logBytes ?? -1) - before
    }

    @Test func theSameItemsWithAnotherSyncTimeLogAFewPagesNotTheCache() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        let first = try logged(store, largeCache(megabytes: Self.megabytes, mark: 1_000_000_000, fill: "x"))
        #expect(first >= Self.cacheBytes)

        let again = try logged(store, largeCache(megabytes: Self.megabytes, mark: 1_000_000_001, fill: "x"))
        #expect(again > 0)
        #expect(again <= 8 * 16_384)
        #expect(store.loadUser("alice").caches[.contentCards]?["lastSyncAt"] == 1_000_000_001)
    }

    @Test func otherItemsOfTheSameSizeAreWrittenWhole() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        _ = try logged(store, largeCache(megabytes: Self.megabytes, mark: 1, fill: "x"))
        let other = #"{"lastSyncAt":2,"cards":[""# + String(repeating: "y", count: Self.cacheBytes) + #""]}"#
        #expect(try logged(store, EncodedJSON(trustedText: Array(other.utf8))) >= Self.cacheBytes)
        #expect(store.loadUser("alice").caches[.contentCards]?["cards"]?[0]?.stringValue?.hasPrefix("yyy") == true)
    }

    @Test func aCacheOfAnotherSizeReplacesTheRow() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        defer { store.close() }
        _ = try logged(store, largeCache(megabytes: Self.megabytes, mark: 1))
        _ = try logged(store, largeCache(megabytes: 0.001, mark: 22))
        let loaded = store.loadUser("alice").caches[.contentCards]
        #expect(loaded?["lastSyncAt"] == 22)
        #expect(loaded?["cards"]?[0]?.stringValue?.utf8.count == Int(0.001 * 1_048_576))
    }
}
