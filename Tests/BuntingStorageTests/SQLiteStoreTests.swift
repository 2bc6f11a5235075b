import BuntingCore
import BuntingJSON
import Foundation
@testable import BuntingStorage
import Testing

/// Opens the store in `directory` and fails the test on damage or disk trouble.
func openStore(_ directory: TemporaryDirectory) throws -> SQLiteStore {
    let storage = try StorageDirectory(path: directory.path)
    let opened = try storage.openStore()
    #expect(opened.damage == nil)
    return opened.store
}

func event(_ number: Int, channel: Channel = .contentCards, item: JSON = ["id": "c1"]) -> AnalyticsEvent {
    AnalyticsEvent(
        eventId: "e\(number)", kind: .impression, channel: channel, itemId: "c1",
        userId: number.isMultiple(of: 2) ? "alice" : nil,
        deviceId: "device", sessionId: number.isMultiple(of: 3) ? nil : "session",
        time: 1_750_000_000.125 + Double(number),
        buttonId: number == 1 ? "b1" : nil, trackingString: number == 1 ? "t-1" : nil, item: item)
}

@Suite struct SQLiteStoreTests {
    @Test func everythingSavedIsThereAfterReopening() throws {
        let directory = try TemporaryDirectory()
        let profile = StoredProfile(
            deviceId: "d-1", userId: "alice", attributes: ["plan": "gold", "age": 42], sdkEnabled: false,
            channelsEnabled: [.banners: true, .featureFlags: false], sessionId: "s-1",
            sessionFlagImpressions: ["a", "t-1"])
        let cache: JSON = [
            "lastSyncAt": .real(1_750_000_123.456), "flags": [["id": "x", "enabled": true]], "banners": [], "cards": [],
        ]
        do {
            let store = try openStore(directory)
            #expect(store.loadProfile() == nil)
            try store.saveProfile(profile)
            try store.saveChannelCache(user: "alice", channel: .featureFlags, cache: cache)
            try store.saveChannelCache(user: "", channel: .featureFlags, cache: ["lastSyncAt": 0])
            try store.saveItemState(user: "alice", channel: .contentCards, itemId: "c1", state: ItemState(viewed: true))
            try store.saveItemState(
                user: "alice", channel: .contentCards, itemId: "c1", state: ItemState(viewed: true, dismissed: true))
            try store.saveItemState(user: "alice", channel: .banners, itemId: "b", state: ItemState(clicked: true))
            try store.saveAttributes(user: "alice", attributes: ["plan": "gold"])
            for number in 1...3 { try store.enqueue(event(number)) }
            store.close()
        }
        let store = try openStore(directory)
        #expect(store.loadProfile() == profile)
        let alice = store.loadUser("alice")
        #expect(alice.caches == [.featureFlags: cache])
        #expect(
            alice.itemStates == [
                .contentCards: ["c1": ItemState(viewed: true, dismissed: true)],
                .banners: ["b": ItemState(clicked: true)],
            ])
        #expect(alice.attributes == ["plan": "gold"])
        // Without its caches, the rest of a user is all there.
        let aliceWithoutCaches = store.loadUser("alice", caches: false)
        #expect(aliceWithoutCaches.caches.isEmpty)
        #expect(aliceWithoutCaches.itemStates == alice.itemStates && aliceWithoutCaches.attributes == alice.attributes)
        #expect(store.loadUser("").caches == [.featureFlags: ["lastSyncAt": 0]])
        #expect(store.loadUser("bob").caches.isEmpty)
        #expect(store.queuedEventCount == 3)
        #expect(store.queuedEvents(limit: 10) == (1...3).map { event($0) })
    }

    @Test func theQueueIsOldestFirstAndRemovesByIdAndCounts() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        for number in [5, 3, 9, 1] { try store.enqueue(event(number)) }
        #expect(store.queuedEvents(limit: 2).map(\.eventId) == ["e5", "e3"])
        try store.removeEvents(["e3", "e1", "unknown"])
        #expect(store.queuedEventCount == 2)
        #expect(store.queuedEvents(limit: 10).map(\.eventId) == ["e5", "e9"])
        try store.enqueue(event(2))
        #expect(store.queuedEvents(limit: 10).map(\.eventId) == ["e5", "e9", "e2"])
        #expect(throws: StoreError.self) { try store.enqueue(event(2)) }
        #expect(store.queuedEventCount == 3)
    }

    @Test func wipeForgetsUsersAndTheQueueButNotTheProfile() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        try store.saveProfile(StoredProfile(deviceId: "d"))
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 1])
        try store.saveItemState(user: "alice", channel: .banners, itemId: "b", state: ItemState(dismissed: true))
        try store.saveAttributes(user: "alice", attributes: ["a": 1])
        try store.enqueue(event(1))
        try store.wipe()
        let alice = store.loadUser("alice")
        #expect(alice.caches.isEmpty && alice.itemStates.isEmpty && alice.attributes.isEmpty)
        #expect(store.queuedEventCount == 0 && store.queuedEvents(limit: 5).isEmpty)
        #expect(store.loadProfile()?.deviceId == "d")
    }

    /// Pages freed by a wipe are zeroed: what was wiped is not left in the
    /// file's free pages. A cache merely replaced may leave its old text
    /// there (the store frees pages without zeroing them, which halved the
    /// bytes a returning user's changeUser writes); the scan shows both.
    @Test func wipedDataIsNotLeftInTheFileButReplacedDataMayBe() throws {
        func filesContain(_ marker: String, _ directory: TemporaryDirectory) throws -> Bool {
            let needle = Data(marker.utf8)
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).contains { name in
                let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + name))
                return bytes.range(of: needle) != nil
            }
        }
        for wiping in [true, false] {
            let directory = try TemporaryDirectory()
            let store = try openStore(directory)
            let marker = "secret-\(UUID().uuidString)"
            // Far larger than a page: kept on overflow pages.
            let text = String(repeating: marker + " ", count: 8_000)
            try store.saveChannelCache(user: "alice", channel: .contentCards, cache: ["text": .string(text)])
            #expect(store.commitPending() == nil)
            if wiping {
                try store.wipe()
            } else {
                try store.saveChannelCache(user: "alice", channel: .contentCards, cache: ["text": "short"])
            }
            #expect(store.commitPending() == nil)
            store.close()
            #expect(try filesContain(marker, directory) == !wiping, wiping ? "wiped" : "replaced")
        }
    }

    @Test func textKeepsNulAndEveryScript() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        let odd = "nul\u{0}inside é☃ 𝄞"
        try store.saveChannelCache(user: odd, channel: .banners, cache: ["text": .string(odd)])
        try store.saveItemState(user: odd, channel: .banners, itemId: odd, state: ItemState(dismissed: true))
        #expect(store.loadUser(odd).caches[.banners]?["text"] == .string(odd))
        #expect(store.loadUser(odd).itemStates[.banners]?[ExactString(odd)]?.dismissed == true)
        #expect(store.loadUser("nul").caches.isEmpty)
    }

    @Test func aClosedStoreRefusesWritesAndReadsNothing() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        try store.enqueue(event(1))
        store.close()
        let error = #expect(throws: StoreError.self) { try store.enqueue(event(2)) }
        #expect(error?.message.contains("closed") == true)
        #expect(store.queuedEvents(limit: 5).isEmpty)
        #expect(store.loadProfile() == nil)
        store.close()
    }

    @Test func anUnchangedProfileIsNotWrittenAgain() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try openStore(directory)
            try store.saveProfile(StoredProfile(deviceId: "d", attributes: ["x": .real(0.1)]))
            store.close()
        }
        let store = try openStore(directory)
        let profile = try #require(store.loadProfile())
        func logSize() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: directory.database + "-wal")[.size] as? Int ?? -1
        }
        try store.saveProfile(profile)
        #expect(store.commitPending() == nil)
        #expect(try logSize() == 0)
        var changed = profile
        changed.sdkEnabled = false
        try store.saveProfile(changed)
        #expect(store.commitPending() == nil)
        #expect(try logSize() > 0)
        #expect(store.loadProfile() == changed)
    }

    @Test func closingCheckpointsTheLogIntoTheDatabaseFile() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        try store.enqueue(event(1))
        #expect(directory.exists("bunting.sqlite3-wal"))
        store.close()
        #expect(!directory.exists("bunting.sqlite3-wal"))
    }
}
