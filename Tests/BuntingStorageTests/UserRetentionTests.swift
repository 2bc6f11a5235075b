import BuntingCore
import BuntingJSON
import BuntingRuntime
import Foundation
@testable import BuntingStorage
import Testing

/// The store forgets users not seen for a while, never the current one,
/// and keeps a user's item states within a bound, oldest forgotten first;
/// on the loop's clock, moved by hand.
@Suite struct UserRetentionTests {
    static let day = 86_400.0

    private func store(_ directory: TemporaryDirectory, _ retention: UserRetention, clock: ManualClock) throws -> (
        SQLiteStore, EventLoop
    ) {
        let loop = EventLoop(clock: clock)
        let store = try openStore(directory)
        store.forgetUsers(retention, on: loop)
        return (store, loop)
    }

    private func fill(_ store: SQLiteStore, _ user: String) throws {
        try store.saveChannelCache(user: user, channel: .banners, cache: ["lastSyncAt": 1])
        try store.saveItemState(user: user, channel: .contentCards, itemId: "c1", state: ItemState(dismissed: true))
        try store.saveAttributes(user: user, attributes: ["tier": "gold"])
    }

    /// Whether the file holds anything of `user`'s, read without making
    /// the user current (`loadUser` counts as seeing them).
    private func isKept(_ store: SQLiteStore, _ user: String) throws -> Bool {
        let database = try #require(store.connection?.database)
        var rows: Int64 = 0
        for table in ["channel_cache", "item_state", "user_attributes", "user_seen"] {
            rows += try database.value("SELECT count(*) FROM \(table) WHERE user = '\(user)'").integerValue ?? 0
        }
        #expect(rows == 0 || rows == 4, "\(user) is kept whole or not at all")
        return rows > 0
    }

    @Test func usersNotSeenForTheRetentionAreForgottenButNotTheCurrentOne() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let (store, loop) = try store(directory, UserRetention(forgetAfter: 10 * Self.day), clock: clock)
        defer { store.close() }
        try store.saveProfile(StoredProfile(deviceId: "device", userId: "alice"))
        for user in ["alice", "bob", "carol"] { try fill(store, user) }
        try store.enqueue(event(1))
        #expect(store.commitPending() == nil)
        loop.runPending()
        #expect(try ["alice", "bob", "carol"].allSatisfy { try isKept(store, $0) }, "all seen just now")

        clock.advance(by: 6 * Self.day)
        try store.saveAttributes(user: "bob", attributes: ["tier": "silver"])
        _ = store.commitPending()
        clock.advance(by: 5 * Self.day)
        loop.runPending()
        // Carol and alice not seen for 11 days; alice is the current user.
        #expect(try isKept(store, "alice") && isKept(store, "bob"))
        #expect(try !isKept(store, "carol"))
        #expect(store.queuedEventCount == 1, "queued analytics are not a user's data")

        clock.advance(by: 6 * Self.day)
        loop.runPending()
        #expect(try !isKept(store, "bob"))
        #expect(try isKept(store, "alice"))
    }

    /// Being made current counts as being seen: the user read back is not
    /// forgotten for the days that follow.
    @Test func aUserMadeCurrentCountsAsSeen() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let (store, loop) = try store(directory, UserRetention(forgetAfter: 10 * Self.day), clock: clock)
        defer { store.close() }
        try store.saveProfile(StoredProfile(deviceId: "device", userId: "alice"))
        try fill(store, "bob")
        _ = store.commitPending()
        clock.advance(by: 9 * Self.day)
        _ = store.loadUser("bob")
        _ = store.commitPending()
        clock.advance(by: 9 * Self.day)
        loop.runPending()
        #expect(try isKept(store, "bob"))
    }

    @Test func aUsersItemStatesPastTheBoundGoOldestFirst() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let (store, loop) = try store(directory, UserRetention(maxItemStatesPerUser: 3), clock: clock)
        defer { store.close() }
        for item in ["c5", "c4", "c3", "c2", "c1"] {
            try store.saveItemState(user: "alice", channel: .contentCards, itemId: item, state: ItemState(viewed: true))
            clock.advance(by: 60)
        }
        // c4 changed again: now the newest.
        try store.saveItemState(
            user: "alice", channel: .contentCards, itemId: "c4", state: ItemState(viewed: true, clicked: true))
        try store.saveItemState(user: "bob", channel: .contentCards, itemId: "c1", state: ItemState(viewed: true))
        _ = store.commitPending()
        clock.advance(by: UserRetention.sweepInterval)
        loop.runPending()
        #expect(store.loadUser("alice").itemStates[.contentCards].map { Set($0.keys) } == ["c4", "c2", "c1"])
        #expect(store.loadUser("bob").itemStates[.contentCards]?.count == 1)
    }

    /// A database of the previous version: its users count as seen when it
    /// is brought up to date, not as never seen.
    @Test func usersOfAnOlderDatabaseCountAsSeenWhenItIsUpdated() throws {
        let directory = try TemporaryDirectory()
        try withDatabase(directory.database) { (database) throws in
            try database.execute(releasedVersion1)
            try database.execute(
                """
                INSERT INTO user_attributes (user, attributes) VALUES ('dora', '{"tier":"gold"}');
                INSERT INTO item_state (user, channel, item_id, viewed, clicked, dismissed) VALUES ('dora', 'contentCards', 'c1', 1, 0, 1);
                """)
        }
        let clock = ManualClock(unixTime: SystemClock().unixTime())
        let (store, loop) = try store(directory, UserRetention(forgetAfter: Self.day), clock: clock)
        defer { store.close() }
        loop.runPending()
        #expect(store.loadUser("dora").attributes["tier"] == "gold")
        clock.advance(by: 2 * Self.day)
        loop.runPending()
        clock.advance(by: UserRetention.sweepInterval)
        loop.runPending()
        #expect(store.loadUser("dora").attributes.isEmpty && store.loadUser("dora").itemStates.isEmpty)
    }
}
