import BuntingCore
import BuntingJSON
@testable import BuntingStorage
import Foundation
import Testing

@Suite struct StorageDirectoryTests {
    @Test func theDirectoryAndItsParentsAreMadePrivate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state/bunting")
        let storage = try StorageDirectory(path: path)
        for made in [directory.file("state"), path] {
            let mode = try FileManager.default.attributesOfItem(atPath: made)[.posixPermissions] as? Int
            #expect(mode == 0o700)
        }
        #expect(try storage.openStore().store.queuedEventCount == 0)
    }

    @Test func aSecondHolderIsRefusedUntilTheFirstLetsGo() throws {
        let directory = try TemporaryDirectory()
        var first: StorageDirectory? = try StorageDirectory(path: directory.path)
        let error = #expect(throws: StorageDirectoryError.self) { try StorageDirectory(path: directory.path) }
        #expect(error == .inUse(path: directory.path, pid: getpid()))
        _ = first
        first = nil
        _ = try StorageDirectory(path: directory.path)
    }

    @Test func aPathThroughAFileIsUnusable() throws {
        let directory = try TemporaryDirectory()
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.file("file")))
        let error = #expect(throws: StorageDirectoryError.self) {
            try StorageDirectory(path: directory.file("file/bunting"))
        }
        guard case .unusable(let message) = error else {
            Issue.record("not unusable: \(String(describing: error))"); return
        }
        #expect(message.contains("Not a directory"))
    }

    @Test func aLockFileThatIsALinkIsUnusableAndItsTargetUntouched() throws {
        let directory = try TemporaryDirectory()
        let victim = directory.file("precious.txt")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let storage = directory.file("state")
        try FileManager.default.createDirectory(
            atPath: storage, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: storage + "/bunting.lock", withDestinationPath: victim)
        let error = #expect(throws: StorageDirectoryError.self) { try StorageDirectory(path: storage) }
        #expect(error == .unusable("\(storage)/bunting.lock: it is a symbolic link"))
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
    }

    /// Only a directory no one else can write, reached through parents no
    /// one else can swap it out of, is used.
    @Test func aDirectoryOthersCouldHaveChosenIsUnusable() throws {
        let directory = try TemporaryDirectory()
        let shared = directory.file("shared")
        try FileManager.default.createDirectory(atPath: shared + "/state", withIntermediateDirectories: true)
        chmod(shared + "/state", 0o770)
        #expect(
            throws: StorageDirectoryError.unusable(
                "\(shared)/state is not safe to keep state in: others can write to it (mode 0770)")
        ) {
            try StorageDirectory(path: shared + "/state")
        }
        chmod(shared + "/state", 0o700)
        chmod(shared, 0o777)
        #expect(
            throws: StorageDirectoryError.unusable(
                "\(shared)/state is not safe to keep state in: others can "
                    + "write to \(shared) (mode 0777, without the sticky bit)"
            )
        ) { try StorageDirectory(path: shared + "/state") }
        // Sticky, as /tmp: no one else can rename what is in it.
        chmod(shared, 0o1777)
        _ = try StorageDirectory(path: shared + "/state")
        // A link of this user's to a private directory is followed.
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("mine"), withDestinationPath: shared + "/state")
        _ = try StorageDirectory(path: directory.file("mine"))
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file away"))
    func aDirectoryOrLinkOfAnotherUserIsUnusable() throws {
        let directory = try TemporaryDirectory()
        let theirs = directory.file("theirs")
        try FileManager.default.createDirectory(
            atPath: theirs, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(chown(theirs, 65534, 65534) == 0)
        #expect(
            throws: StorageDirectoryError.unusable(
                "\(theirs) is not safe to keep state in: it belongs to user 65534, not to this user (0)"
            )
        ) { try StorageDirectory(path: theirs) }
        #expect(throws: StorageDirectoryError.self) { try StorageDirectory(path: theirs + "/below") }
        let mine = directory.file("mine")
        try FileManager.default.createDirectory(
            atPath: mine, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let link = directory.file("planted")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: mine)
        #expect(lchown(link, 65534, 65534) == 0)
        #expect(
            throws: StorageDirectoryError.unusable(
                "\(link) is not safe to keep state in: \(link) is a symbolic link of user 65534")
        ) {
            try StorageDirectory(path: link)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine).isEmpty)
    }

    @Test func theDefaultFollowsTheXDGRules() {
        #expect(StorageDirectory.defaultPath { ["XDG_STATE_HOME": "/s", "HOME": "/h"][$0] } == "/s/bunting")
        #expect(
            StorageDirectory.defaultPath { ["XDG_STATE_HOME": "relative", "HOME": "/h"][$0] }
                == "/h/.local/state/bunting")
        #expect(StorageDirectory.defaultPath { ["HOME": "/h"][$0] } == "/h/.local/state/bunting")
        #expect(StorageDirectory.defaultPath { _ in nil } == nil)
    }

    @Test func aNewDatabaseHasLargePagesAndAnOldOneKeepsItsOwn() throws {
        let fresh = try TemporaryDirectory()
        let store = try openStore(fresh)
        try store.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 1])
        store.close()
        try withDatabase(fresh.database) { (database) throws in
            #expect(try integer(database, "PRAGMA page_size") == Int64(StorageDirectory.pageSize))
        }

        let old = try TemporaryDirectory()
        try withDatabase(old.database) { (database) throws in
            try database.execute("PRAGMA page_size = 4096")
            try database.execute(releasedVersion1)
        }
        let reopened = try openStore(old)
        try reopened.saveChannelCache(user: "alice", channel: .banners, cache: ["lastSyncAt": 2])
        _ = reopened.commitPending()
        #expect(reopened.loadUser("alice").caches[.banners]?["lastSyncAt"] == 2)
        reopened.close()
        try withDatabase(old.database) { (database) throws in
            #expect(try integer(database, "PRAGMA page_size") == 4096)
        }
    }

    @Test func aFileThatIsNotADatabaseIsMovedAside() throws {
        let directory = try TemporaryDirectory()
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: directory.database))
        let opened = try StorageDirectory(path: directory.path).openStore()
        let damage = try #require(opened.damage)
        #expect(damage.problem == "file is not a database")
        #expect(damage.movedTo.hasPrefix(directory.database + ".damaged-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: damage.movedTo)) == Data(repeating: 0x5A, count: 8192))
        try opened.store.enqueue(event(1))
        #expect(opened.store.queuedEventCount == 1)
    }

    @Test func theLogAndSharedMemoryFilesMoveWithTheDatabase() throws {
        let directory = try TemporaryDirectory()
        for suffix in ["", "-wal", "-shm"] {
            try Data(suffix.utf8).write(to: URL(fileURLWithPath: directory.database + suffix))
        }
        let target = try StorageDirectory.moveAside(directory.database)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: target + suffix)) == Data(suffix.utf8))
        }
        #expect(
            try directory.names().filter { $0.hasPrefix("bunting.sqlite3") }.allSatisfy { $0.contains(".damaged-") })
    }

    @Test func aDamagedPageIsFoundAtOpenAndTheFileMovedAside() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try openStore(directory)
            let big: JSON = .string(String(repeating: "x", count: 2000))
            for number in 1...200 { try store.enqueue(event(number, item: ["id": "c1", "padding": big])) }
            store.close()
        }
        // Scribble over the middle of the file, leaving the header intact.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: directory.database))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try handle.close()
        let opened = try StorageDirectory(path: directory.path).openStore()
        #expect(opened.damage != nil)
        #expect(opened.store.queuedEventCount == 0)
    }

    @Test func aDirectoryWhereTheDatabaseShouldBeIsMovedAside() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.database, withIntermediateDirectories: false)
        let opened = try StorageDirectory(path: directory.path).openStore()
        #expect(opened.damage?.problem == "not a regular file")
        #expect(try directory.names().filter { $0.hasPrefix("bunting.sqlite3.damaged-") }.count == 1)
    }

    @Test func twoDamagesInOneSecondGetTwoNames() throws {
        let directory = try TemporaryDirectory()
        var moved: Set<String> = []
        for _ in 1...2 {
            try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: directory.database))
            let opened = try StorageDirectory(path: directory.path).openStore()
            moved.insert(try #require(opened.damage?.movedTo))
            opened.store.close()
        }
        #expect(moved.count == 2)
    }

    @Test func theTimestampIsUTCInBasicISOForm() {
        let stamp = StorageDirectory.timestamp()
        #expect(stamp.count == 16 && stamp.hasSuffix("Z") && Array(stamp)[8] == "T")
    }
}
