import BuntingCore
import BuntingJSON
import Foundation
@testable import BuntingStorage
import Testing

/// A database file removed or replaced under an open store is noticed at
/// the next commit: the store moves what it holds into memory and says so, once.
@Suite struct StoreRemovalTests {
    @Test(arguments: [false, true])
    func aRemovedFileIsNoticedAtTheNextCommitAndItsContentsKept(replaced: Bool) throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        try store.saveProfile(StoredProfile(deviceId: "device", userId: "alice"))
        try store.saveItemState(user: "alice", channel: .contentCards, itemId: "c2", state: ItemState(dismissed: true))
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 5])
        try store.enqueue(event(1))
        #expect(store.commitPending() == nil)
        #expect(store.commitPending() == nil, "nothing to commit: nothing checked, nothing told")

        try FileManager.default.removeItem(atPath: directory.database)
        if replaced { try Data().write(to: URL(fileURLWithPath: directory.database)) }
        try store.enqueue(event(2))
        let trouble = try #require(store.commitPending())
        #expect(
            trouble.storageProblem == "local storage is unavailable (\(directory.database) "
                + "was removed or replaced while the server ran); "
                + "state is kept in memory only and is lost at exit")
        #expect(trouble.eventIdsInMemory.isEmpty, "told once, by the storage problem")
        #expect(store.queuedEvents(limit: 10).map(\.eventId) == ["e1", "e2"])
        let alice = store.loadUser("alice")
        #expect(alice.itemStates[.contentCards]?["c2"]?.dismissed == true && alice.caches[.banners]?["lastSyncAt"] == 5)
        #expect(store.loadProfile()?.userId == "alice")
        try store.enqueue(event(3))
        #expect(store.commitPending() == nil)
        store.close()
        #expect(!directory.exists("bunting.sqlite3.clean"))
        #expect(FileManager.default.fileExists(atPath: directory.database) == replaced)
    }
}
