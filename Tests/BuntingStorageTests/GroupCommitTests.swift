import BuntingCore
import BuntingJSON
import Foundation
@testable import BuntingStorage
import Testing

/// Writes wait for `commitPending()`, and what a failed transaction undid is
/// kept in memory and redone. A database allowed no more pages than it has
/// (`max_page_count`) fails like a full disk: SQLite answers SQLITE_FULL and
/// rolls the whole transaction back.
@Suite struct GroupCommitTests {
    /// An item big enough that a few events need a new page.
    static let bigItem: JSON = ["id": "c1", "padding": .string(String(repeating: "x", count: 1500))]

    @Test func writesWaitForTheCommitAndReadsSeeThemMeanwhile() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        let logSize = {
            (try? FileManager.default.attributesOfItem(atPath: directory.database + "-wal")[.size] as? Int) ?? -1
        }
        let before = logSize()
        for number in 1...3 { try store.enqueue(event(number)) }
        try store.saveItemState(user: "alice", channel: .contentCards, itemId: "c1", state: ItemState(viewed: true))
        #expect(logSize() == before, "nothing is written before the commit")
        #expect(store.queuedEvents(limit: 10).map(\.eventId) == ["e1", "e2", "e3"])
        #expect(store.queuedEventCount == 3)
        #expect(store.loadUser("alice").itemStates[.contentCards]?["c1"]?.viewed == true)
        #expect(store.commitPending() == nil)
        #expect(logSize() > before)
        #expect(store.commitPending() == nil, "nothing left to commit")
        store.close()
        let reopened = try openStore(directory)
        #expect(reopened.queuedEvents(limit: 10).map(\.eventId) == ["e1", "e2", "e3"])
    }

    @Test func eventsOfAnUndoneTransactionAreKeptInMemoryToldAndStoredLater() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        try store.enqueue(event(1))
        #expect(store.commitPending() == nil)
        try limitPages(store, to: 0)

        // The turn's events go into one transaction until one needs a page there is not.
        var refused: Int?
        for number in 2...40 {
            do {
                try store.enqueue(event(number, item: Self.bigItem))
            } catch {
                #expect(error.message.contains("database or disk is full"))
                refused = number
                break
            }
        }
        let failed = try #require(refused, "the page limit was never reached")
        let kept = (2..<failed).map { "e\($0)" }
        #expect(!kept.isEmpty)
        let trouble = try #require(store.commitPending())
        #expect(trouble.eventIdsInMemory == kept)
        #expect(trouble.reason?.contains("database or disk is full") == true)
        #expect(trouble.storageProblem == nil)
        #expect(
            trouble.message(forEvents: 2).hasPrefix(
                "2 analytics events could not be stored (cannot commit to \(directory.database): "))
        // Still queued, oldest first, after the one in the file.
        #expect(store.queuedEventCount == 1 + kept.count)
        #expect(store.queuedEvents(limit: 100).map(\.eventId) == ["e1"] + kept)
        #expect(store.queuedEvents(limit: 2).map(\.eventId) == ["e1", kept[0]])

        // While the disk stays full they stay in memory, and are told once.
        #expect(throws: StoreError.self) { try store.enqueue(event(100, item: Self.bigItem)) }
        #expect(store.commitPending() == nil)
        #expect(store.queuedEventCount == 1 + kept.count)

        // The first transaction that can be committed stores them, before what it writes.
        try limitPages(store, to: 1000)
        try store.enqueue(event(101))
        #expect(store.commitPending() == nil)
        store.close()
        let reopened = try openStore(directory)
        #expect(reopened.queuedEvents(limit: 100).map(\.eventId) == ["e1"] + kept + ["e101"])
    }

    @Test func aRemovalAndAProfileUndoneAreRedone() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        _ = store.loadProfile()
        for number in 1...3 { try store.enqueue(event(number)) }
        #expect(store.commitPending() == nil)
        try limitPages(store, to: 0)

        // Delivered and removed, then undone with the transaction: not sent twice.
        try store.removeEvents(["e1"])
        let profile = StoredProfile(deviceId: "d", userId: "alice")
        try store.saveProfile(profile)
        try fillUntilRefused(store, from: 10)
        #expect(store.commitPending() != nil)
        let held = numbered(store, from: 10)
        #expect(store.queuedEvents(limit: 100).map(\.eventId) == ["e2", "e3"] + held)
        #expect(store.queuedEventCount == 2 + held.count)
        #expect(store.loadProfile() == profile)

        try limitPages(store, to: 1000)
        #expect(store.commitPending() == nil)
        store.close()
        let reopened = try openStore(directory)
        #expect(reopened.loadProfile() == profile)
        #expect(reopened.queuedEvents(limit: 100).map(\.eventId) == ["e2", "e3"] + held)
    }

    @Test func aWipeUndoneIsRedoneAndWhatItWipedIsNotReadMeanwhile() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        for number in 1...3 { try store.enqueue(event(number)) }
        try store.saveItemState(user: "bob", channel: .banners, itemId: "b", state: ItemState(dismissed: true))
        #expect(store.commitPending() == nil)
        try limitPages(store, to: 0)

        try store.wipe()
        try fillUntilRefused(store, from: 50)
        #expect(store.commitPending() != nil)
        let held = numbered(store, from: 50)
        #expect(store.loadUser("bob").itemStates.isEmpty)
        #expect(store.queuedEvents(limit: 100).map(\.eventId) == held)
        #expect(store.queuedEventCount == held.count)

        try limitPages(store, to: 1000)
        #expect(store.commitPending() == nil)
        store.close()
        let reopened = try openStore(directory)
        #expect(reopened.loadUser("bob").itemStates.isEmpty)
        #expect(reopened.queuedEvents(limit: 100).map(\.eventId) == held)
    }

    /// Lets the file grow by `pages` more pages at most.
    private func limitPages(_ store: SQLiteStore, to pages: Int) throws {
        let database = try #require(store.connection?.database)
        let count = try #require(try database.value("PRAGMA page_count").integerValue)
        try database.execute("PRAGMA max_page_count = \(Int(count) + pages)")
    }

    /// Enqueues big events from `e<first>` on until one is refused.
    private func fillUntilRefused(_ store: SQLiteStore, from first: Int) throws {
        for number in first..<(first + 40) {
            do {
                try store.enqueue(event(number, item: Self.bigItem))
            } catch {
                return
            }
        }
        Issue.record("the page limit was never reached")
    }

    /// The queued events from `e<first>` on: those a test's failed transaction left in memory.
    private func numbered(_ store: SQLiteStore, from first: Int) -> [String] {
        store.queuedEvents(limit: 100).map(\.eventId).filter { Int($0.dropFirst()) ?? 0 >= first }
    }
}
