import BuntingCore
import BuntingJSON
import Foundation
@testable import BuntingStorage
import Testing

/// The full check at open is skipped after a clean shutdown only; damage it
/// would have found is then met when SQLite reads the page, and the file is
/// moved aside as at start-up — once.
@Suite struct CleanShutdownTests {
    static let mark = "bunting.sqlite3.clean"

    @Test func aCleanCloseIsMarkedAndOpeningTakesTheMark() throws {
        let directory = try TemporaryDirectory()
        let store = try openStore(directory)
        try store.enqueue(event(1))
        #expect(!directory.exists(Self.mark))
        store.close()
        #expect(directory.exists(Self.mark))
        let reopened = try openStore(directory)
        #expect(!directory.exists(Self.mark), "a crash from here on must leave no mark")
        #expect(reopened.queuedEventCount == 1)
        reopened.close()
        #expect(directory.exists(Self.mark))
    }

    /// A mark planted as a link to another file: that file is not written.
    @Test func aMarkThatIsALinkIsNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let victim = directory.file("precious.txt")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let store = try openStore(directory)
        try FileManager.default.createSymbolicLink(atPath: directory.file(Self.mark), withDestinationPath: victim)
        store.close()
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        let mark = try FileManager.default.attributesOfItem(atPath: directory.file(Self.mark))
        #expect(mark[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func aStoreThatIsNotClosedLeavesNoMark() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try openStore(directory)
            try store.enqueue(event(1))
            #expect(store.commitPending() == nil)
        }
        #expect(!directory.exists(Self.mark))
        #expect(try openStore(directory).queuedEventCount == 1)
    }

    @Test func aFileChangedSinceItsCleanCloseIsChecked() throws {
        let directory = try TemporaryDirectory()
        try fill(directory)
        // Written to while no server ran: the mark no longer vouches for it.
        try damagePage(of: "channel_cache", in: directory, keepingTimes: false)
        let opened = try StorageDirectory(path: directory.path).openStore()
        #expect(opened.damage != nil)
        #expect(opened.store.queuedEventCount == 0)
    }

    @Test func damageAfterAnUncleanEndIsFoundAtOpen() throws {
        let directory = try TemporaryDirectory()
        try fill(directory, closing: false)
        try damagePage(of: "channel_cache", in: directory, keepingTimes: true)
        let opened = try StorageDirectory(path: directory.path).openStore()
        #expect(opened.damage != nil)
    }

    @Test func damageTheMarkCannotShowIsFoundInUseMovedAsideAndToldOnce() throws {
        let directory = try TemporaryDirectory()
        let profile = try fill(directory)
        // Bit rot: the file's size and times stay as the mark recorded them.
        try damagePage(of: "channel_cache", in: directory, keepingTimes: true)
        let opened = try StorageDirectory(path: directory.path).openStore()
        #expect(opened.damage == nil, "not checked after a clean shutdown")
        let store = opened.store
        #expect(store.loadProfile() == profile)
        #expect(store.queuedEventCount == 1)
        try store.enqueue(event(2))

        // SQLite meets the damaged page.
        #expect(store.loadUser("alice").caches.isEmpty)
        let trouble = try #require(store.commitPending())
        let problem = try #require(trouble.storageProblem)
        #expect(
            problem.hasPrefix("local storage was damaged (")
                && problem.contains("moved to \(directory.database).damaged-"))
        #expect(trouble.eventIdsInMemory.isEmpty, "the turn's event goes into the fresh file")
        #expect(try damagedFiles(directory).count == 1)

        // The fresh file serves, and nothing fails again.
        #expect(store.queuedEvents(limit: 10).map(\.eventId) == ["e2"])
        #expect(store.loadUser("alice").caches.isEmpty)
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 2])
        #expect(store.commitPending() == nil)
        store.close()
        let reopened = try openStore(directory)
        #expect(reopened.loadProfile() == profile)
        #expect(reopened.queuedEvents(limit: 10).map(\.eventId) == ["e2"])
        #expect(reopened.loadUser("alice").caches == [.banners: ["lastSyncAt": 2]])
        #expect(try damagedFiles(directory).count == 1)
    }

    /// The damaged databases moved aside (without their logs).
    private func damagedFiles(_ directory: TemporaryDirectory) throws -> [String] {
        try directory.names().filter {
            $0.hasPrefix("bunting.sqlite3.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
        }
    }

    /// A profile, a cache for alice and one queued event, closed cleanly (or not).
    @discardableResult
    private func fill(_ directory: TemporaryDirectory, closing: Bool = true) throws -> StoredProfile {
        let profile = StoredProfile(deviceId: "d", userId: "alice")
        let store = try openStore(directory)
        try store.saveProfile(profile)
        try store.saveChannelCache(
            user: "alice", channel: .contentCards, cache: ["lastSyncAt": 1, "cards": [["id": "c1"]]])
        try store.enqueue(event(1))
        #expect(store.commitPending() == nil)
        // Not closed, the store is dropped: its connection closes, and no mark is written.
        if closing { store.close() }
        return profile
    }

    /// Overwrites the root page of `table` with garbage, as a failing disk might.
    private func damagePage(of table: String, in directory: TemporaryDirectory, keepingTimes: Bool) throws {
        // Before reading the schema: opening the file may touch its times.
        var before = stat()
        #expect(stat(directory.database, &before) == 0)
        let root: Int64
        let pageSize: Int64
        do {
            let database = try Database(path: directory.database)
            root = try #require(
                try database.value("SELECT rootpage FROM sqlite_schema WHERE name = '\(table)'").integerValue)
            pageSize = try #require(try database.value("PRAGMA page_size").integerValue)
            database.close()
        }
        let fd = open(directory.database, O_WRONLY)
        #expect(fd >= 0)
        let garbage = [UInt8](repeating: 0xA5, count: Int(pageSize))
        #expect(
            garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t((root - 1) * pageSize)) }
                == garbage.count)
        close(fd)
        if keepingTimes {
            var times = [before.st_atim, before.st_mtim]
            #expect(utimensat(AT_FDCWD, directory.database, &times, 0) == 0)
        }
    }
}
