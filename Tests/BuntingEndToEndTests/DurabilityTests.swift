import BuntingJSON
import Foundation
import Testing

/// Restarts, damage, limits and locking, with the real binary on a real
/// storage directory (the crash test is in CrashTests).
@Suite struct DurabilityTests {
    @Test func aRestartedServerIsTheSameUserAndReplaysItsStoredCacheBeforeAnyRefresh() throws {
        let workspace = try StorageWorkspace()
        let first = try workspace.startServer()
        _ = try first.call("subscribe", ["channel": "contentCards"])
        _ = try first.call("changeUser", ["userId": "alice"])
        var lastSyncAt = try first.waitForEvent("DATA_UPDATED", "contentCards")["cacheSnapshot"]?["lastSyncAt"]
        #expect(lastSyncAt?.doubleValue ?? 0 > 0)
        _ = try first.call("logImpression", ["channel": "contentCards", "id": "c1"])
        _ = try first.call("logDismiss", ["channel": "contentCards", "id": "c2"])
        try first.waitForEvent("DATA_UPDATED", "contentCards") { $0["reason"] == "CLIENT_ACTION" }
        #expect(try first.shutDown() == 0)

        for ending in ["SIGKILL", "shutdown"] {
            let server = try workspace.startServer()
            _ = try server.call("subscribe", ["channel": "contentCards"])
            let status = try server.call("status")
            // Before anything is asked of it, the server sent the replay and nothing else.
            #expect(server.events.map { $0["type"] } == ["CACHE_REPLAY"])
            let replay = try #require(server.events.first)
            let cards = replay["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue ?? []
            #expect(cards.map { $0["id"] } == ["c1"], "the dismissed card stays dismissed")
            #expect(cards.first?["viewed"] == true)
            #expect(replay["cacheSnapshot"]?["lastSyncAt"] == lastSyncAt)
            #expect(status["result"]?["userId"] == "alice")
            _ = try server.call("openSession")
            let refreshed = try server.waitForEvent("DATA_UPDATED", "contentCards")
            #expect(refreshed["reason"] == "AUTO_SERVER_REFRESH")
            #expect(refreshed["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.map { $0["id"] } == ["c1"])
            lastSyncAt = refreshed["cacheSnapshot"]?["lastSyncAt"]
            if ending == "SIGKILL" {
                server.killHard()
            } else {
                #expect(try server.shutDown() == 0)
            }
        }

        // Coming back to a user loads that user's stored cache: CACHE_LOAD.
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "contentCards"])
        _ = try server.call("changeUser", ["userId": "bob"])
        let start = server.received.count
        _ = try server.call("changeUser", ["userId": "alice"])
        let load = try server.waitForEvent("CACHE_LOAD", "contentCards", from: start)
        #expect(load["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.map { $0["id"] } == ["c1"])
        #expect(load["cacheSnapshot"]?["lastSyncAt"] == lastSyncAt)
        #expect(try server.shutDown() == 0)
    }

    /// The database itself is held: removing the lock file lets no second
    /// server share it (they would double each other's events).
    @Test func aSecondServerIsRefusedEvenWhenTheLockFileWasRemoved() throws {
        let workspace = try StorageWorkspace()
        let first = try workspace.startServer()
        _ = try first.call("changeUser", ["userId": "alice"])
        try FileManager.default.removeItem(atPath: workspace.storage + "/bunting.lock")
        let second = try workspace.startServer()
        #expect(try second.waitForExit() == 1)
        #expect(second.stderrContains("storage directory \(workspace.storage) is in use by another bunting serve"))
        #expect(second.received.isEmpty)
        #expect(try first.call("status")["result"]?["userId"] == "alice")
        #expect(try first.shutDown() == 0)
    }

    @Test func aSecondServerOnTheSameDirectoryIsRefusedAndTheFirstCarriesOn() throws {
        let workspace = try StorageWorkspace()
        let first = try workspace.startServer()
        _ = try first.call("changeUser", ["userId": "alice"])
        let second = try workspace.startServer()
        #expect(try second.waitForExit() == 1)
        #expect(
            second.stderrContains(
                "storage directory \(workspace.storage) is in use by another "
                    + "bunting serve (pid \(first.process.processIdentifier))"))
        #expect(second.received.isEmpty)
        #expect(try first.call("status")["result"]?["userId"] == "alice")
        #expect(try first.shutDown() == 0)
        let third = try workspace.startServer()
        #expect(try third.call("status")["result"]?["userId"] == "alice")
        #expect(try third.shutDown() == 0)
    }

    @Test func aCorruptDatabaseIsMovedAsideReportedAndReplacedByAFreshOne() throws {
        let workspace = try StorageWorkspace()
        let first = try workspace.startServer(sink: false)
        _ = try first.call("subscribe", ["channel": "contentCards"])
        _ = try first.call("changeUser", ["userId": "alice"])
        try first.waitForEvent("DATA_UPDATED", "contentCards")
        _ = try first.call("logImpression", ["channel": "contentCards", "ids": ["c1", "c2"]])
        #expect(try first.shutDown() == 0)
        let size = try FileManager.default.attributesOfItem(atPath: workspace.database)[.size] as? Int ?? 0
        var scribble = SystemRandomNumberGenerator()
        try Data((0..<max(size, 4096)).map { _ in UInt8.random(in: 0...255, using: &scribble) })
            .write(to: URL(fileURLWithPath: workspace.database))

        let second = try workspace.startServer(sink: false)
        _ = try second.call("subscribe", ["channel": "contentCards"])
        let status = try second.call("status")["result"]
        let events = second.events
        #expect(events.map { $0["type"] } == ["CACHE_REPLAY", "ERROR"])
        #expect(
            events.first?["cacheSnapshot"] == ["contentCards": ["cards": [], "unviewedCount": 0], "lastSyncAt": 0])
        let error = try #require(events.last)
        #expect(error["reason"] == "CLIENT_ERROR" && error["retryState"] == "DO_NOT_RETRY")
        let message = error["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix("local storage was damaged (")
                && message.contains("moved to \(workspace.database).damaged-"))
        #expect(second.stderrContains("\(workspace.database) is damaged"))
        #expect(status?["userId"] == .null && status?["pendingAnalytics"] == 0)
        #expect(
            try workspace.names(in: workspace.storage).filter { $0.hasPrefix("bunting.sqlite3.damaged-") }.count == 1)
        // The fresh storage works, and is not reported again.
        _ = try second.call("changeUser", ["userId": "bob"])
        try second.waitForEvent("DATA_UPDATED", "contentCards")
        #expect(try second.call("logImpression", ["channel": "contentCards", "id": "c1"])["result"] == [:])
        #expect(try second.shutDown() == 0)
        let third = try workspace.startServer(sink: false)
        _ = try third.call("subscribe", ["channel": "contentCards"])
        #expect(try third.call("status")["result"]?["pendingAnalytics"] == 1)
        #expect(third.events.map { $0["type"] } == ["CACHE_REPLAY"])
        #expect(try third.shutDown() == 0)
    }

    /// A server killed leaves no mark of a clean shutdown, so the next start
    /// checks the whole file; the start after a clean shutdown does not.
    @Test func theStartAfterAKillChecksTheFileAndTheStartAfterACleanShutdownDoesNot() throws {
        let workspace = try StorageWorkspace()
        let checking = "storage: checking \(workspace.database): it was not closed cleanly"
        let first = try workspace.startServer(sink: false)
        _ = try first.call("changeUser", ["userId": "alice"])
        #expect(try first.shutDown() == 0)
        #expect(FileManager.default.fileExists(atPath: workspace.database + ".clean"))

        let second = try workspace.startServer(sink: false)
        #expect(try second.call("status")["result"]?["userId"] == "alice")
        // Logged after the store is open: a check would have been logged before it.
        #expect(second.stderrContains("storage: \(workspace.database)\n"))
        #expect(!second.stderr.contains(checking))
        #expect(!FileManager.default.fileExists(atPath: workspace.database + ".clean"))
        second.killHard()

        let third = try workspace.startServer(sink: false)
        #expect(try third.call("status")["result"]?["userId"] == "alice")
        #expect(third.stderrContains(checking))
        #expect(try third.shutDown() == 0)
    }

    /// Bit rot while no server ran (the file's size and times unchanged):
    /// the start after a clean shutdown does not check the file, so the
    /// damage shows when SQLite reads the page, and ends as damage found at
    /// start-up does — moved aside, reported, replaced — once.
    @Test func damageTheStartDidNotLookForIsMovedAsideWhenMetAndReportedOnce() throws {
        let workspace = try StorageWorkspace()
        let marker = "rot-\(UUID().uuidString)"
        try Data(StorageWorkspace.definitions.replacingOccurrences(of: "\"Two\"", with: "\"\(marker)\"").utf8)
            .write(to: URL(fileURLWithPath: workspace.definitions))
        let first = try workspace.startServer(sink: false)
        _ = try first.call("subscribe", ["channel": "contentCards"])
        _ = try first.call("changeUser", ["userId": "alice"])
        try first.waitForEvent("DATA_UPDATED", "contentCards")
        #expect(try first.shutDown() == 0)
        // The pages of the stored snapshots: read when the server loads its user.
        try scribbleOverPages(holding: marker, in: workspace.database)

        let second = try workspace.startServer(sink: false)
        _ = try second.call("subscribe", ["channel": "contentCards"])
        #expect(try second.call("status")["result"]?["userId"] == "alice")
        #expect(second.stderrContains("storage: \(workspace.database)\n"))
        #expect(!second.stderr.contains("storage: checking"))
        #expect(second.stderrContains("\(workspace.database) is damaged ("))
        let events = second.events
        #expect(events.prefix(2).map { $0["type"] } == ["CACHE_REPLAY", "ERROR"])
        let error = try #require(events.dropFirst().first)
        #expect(error["reason"] == "CLIENT_ERROR" && error["retryState"] == "DO_NOT_RETRY")
        let message = error["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix("local storage was damaged (")
                && message.contains("moved to \(workspace.database).damaged-"))
        #expect(
            try workspace.names(in: workspace.storage).filter {
                $0.hasPrefix("bunting.sqlite3.damaged-") && !$0.hasSuffix("-wal")
            }.count == 1)

        // The fresh file serves, and nothing fails again.
        _ = try second.call("changeUser", ["userId": "bob"])
        try second.waitForEvent("DATA_UPDATED", "contentCards")
        #expect(try second.call("logImpression", ["channel": "contentCards", "id": "c1"])["result"] == [:])
        _ = try second.call("changeUser", ["userId": "alice"])
        try second.waitForEvent("DATA_UPDATED", "contentCards") {
            $0["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.count == 2
        }
        #expect(second.events.filter { $0["type"] == "ERROR" }.count == 1)
        #expect(try second.shutDown() == 0)
        #expect(second.stderr.components(separatedBy: " is damaged (").count == 2)

        let third = try workspace.startServer(sink: false)
        _ = try third.call("subscribe", ["channel": "contentCards"])
        let status = try third.call("status")["result"]
        #expect(status?["userId"] == "alice" && status?["pendingAnalytics"] == 1)
        #expect(third.events.map { $0["type"] } == ["CACHE_REPLAY"])
        #expect(try third.shutDown() == 0)
    }

    /// A file not closed cleanly (here: changed since its clean close) is
    /// checked in full once the first requests are answered, not before:
    /// damage on a page the start does not read (another user's attributes)
    /// is found by that check and ends as damage met while serving — moved
    /// aside, told once, the fresh file serving with the current user.
    @Test func theCheckAFileOwesComesAfterTheFirstRepliesAndFindsDamageTheyDidNotRead() throws {
        let workspace = try StorageWorkspace()
        let marker = "rot-\(UUID().uuidString)"
        let first = try workspace.startServer(sink: false)
        // Past a page: the marker lies on an overflow page of bob's row alone.
        _ = try first.call(
            "changeUser",
            ["userId": "bob", "attributes": ["note": .string(String(repeating: "x", count: 30_000) + marker)]])
        _ = try first.call("changeUser", ["userId": "alice"])
        #expect(try first.shutDown() == 0)
        try scribbleOverPages(holding: marker, in: workspace.database)
        // Written to since: the mark no longer vouches for the file.
        #expect(utimensat(AT_FDCWD, workspace.database, nil, 0) == 0)

        let second = try workspace.startServer(sink: false)
        _ = try second.call("subscribe", ["channel": "contentCards"])
        #expect(try second.call("status")["result"]?["userId"] == "alice")
        #expect(second.stderrContains("storage: checking \(workspace.database): it was not closed cleanly"))
        try second.waitForEvent("ERROR", "contentCards")
        let events = second.events
        #expect(events.map { $0["type"] } == ["CACHE_REPLAY", "ERROR"])
        let message = events.last?["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix("local storage was damaged (")
                && message.contains("moved to \(workspace.database).damaged-"))
        // Found by the quick check (its words), after the server began serving.
        #expect(second.stderrContains("\(workspace.database) is damaged (*** in database main ***"))
        let log = second.stderr
        if let serving = log.range(of: " on stdin/stdout"), let damaged = log.range(of: " is damaged (") {
            #expect(serving.lowerBound < damaged.lowerBound)
        }
        #expect(try second.call("status")["result"]?["userId"] == "alice")
        #expect(try second.shutDown() == 0)
        #expect(
            try workspace.names(in: workspace.storage).filter {
                $0.hasPrefix("bunting.sqlite3.damaged-") && !$0.hasSuffix("-wal")
            }.count == 1)

        let third = try workspace.startServer(sink: false)
        _ = try third.call("subscribe", ["channel": "contentCards"])
        #expect(try third.call("status")["result"]?["userId"] == "alice")
        #expect(!third.stderr.contains("storage: checking"))
        #expect(third.events.map { $0["type"] } == ["CACHE_REPLAY"])
        #expect(try third.shutDown() == 0)
    }

    /// Overwrites every page of `database` that holds `marker`, keeping the
    /// file's size and times: damage no look at the file's metadata can see.
    private func scribbleOverPages(holding marker: String, in database: String) throws {
        var before = stat()
        #expect(stat(database, &before) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        var pages: Set<Int> = []
        var searchFrom = bytes.startIndex
        while let found = bytes.range(of: Data(marker.utf8), in: searchFrom..<bytes.endIndex) {
            pages.insert((found.lowerBound - bytes.startIndex) / pageSize)
            searchFrom = found.upperBound
        }
        #expect(!pages.isEmpty && !pages.contains(0))
        let fd = open(database, O_WRONLY)
        #expect(fd >= 0)
        let garbage = [UInt8](repeating: 0xA5, count: pageSize)
        for page in pages {
            #expect(
                garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(page * pageSize)) } == pageSize)
        }
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, database, &times, 0) == 0)
    }

    @Test func aQueueOverItsLimitDropsTheOldestWithAnErrorAndALogLine() throws {
        let workspace = try StorageWorkspace()
        let first = try workspace.startServer(sink: false, ["--max-queued-events", "3"])
        _ = try first.call("subscribe", ["channel": "contentCards"])
        _ = try first.call("changeUser", ["userId": "alice"])
        try first.waitForEvent("DATA_UPDATED", "contentCards")
        for _ in 1...5 { _ = try first.call("logImpression", ["channel": "contentCards", "id": "c1"]) }
        let enqueued = first.eventIds("ENQUEUED")
        #expect(enqueued.count == 5)
        let errors = first.events.filter { $0["type"] == "ERROR" }
        #expect(errors.count == 2)
        #expect(
            errors.allSatisfy {
                $0["reason"] == "CLIENT_ERROR" && $0["retryState"] == "DO_NOT_RETRY"
                    && $0["message"] == "analytics queue full: dropped the oldest events"
            })
        #expect(first.stderrContains("analytics queue full (3 events): dropped the 1 oldest"))
        #expect(try first.call("status")["result"]?["pendingAnalytics"] == 3)
        #expect(try first.shutDown() == 0)

        let second = try workspace.startServer(["--max-queued-events", "3"])
        #expect(try second.call("flush")["result"] == ["flushed": 3, "pending": 0])
        #expect(try second.shutDown() == 0)
        #expect(try workspace.sinkContents().ids == Array(enqueued.suffix(3)))
    }

    /// The writes of a turn are committed together, after their ENQUEUED
    /// was staged: when that commit fails, the events are kept in memory,
    /// still queued, and each subscription told ENQUEUED of one is told so.
    // Under ThreadSanitizer a server at the file size limit dies of SIGBUS,
    // and the sanitizer fails while reporting it ("nested bug"): not seen in
    // the normal and AddressSanitizer builds, not yet understood.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "SIGBUS under ThreadSanitizer at the file size limit"))
    func aFullDiskKeepsTheTurnsEventsInMemoryWithAnErrorAndTheServerServesOn() throws {
        let workspace = try StorageWorkspace()
        // A file size limit (512 KB: a new database has pages of 16 KB, and
        // the log of its schema alone is 200 KB) makes the write-ahead log
        // hit the wall after a few commits, as a full disk would (writes
        // fail with EFBIG).
        let limited = try ServerProcess(
            framing: .ndjson, arguments: workspace.arguments(sink: true, ["--flush-interval", "3600"]),
            launcher: ["/bin/sh", "-c", "ulimit -f 1024 && exec \"$@\"", "sh"])
        _ = try limited.call("subscribe", ["channel": "contentCards"])
        _ = try limited.call("changeUser", ["userId": "alice"])
        try limited.waitForEvent("DATA_UPDATED", "contentCards")
        var failedAt: Int?
        for _ in 1...2000 {
            #expect(try limited.call("logImpression", ["channel": "contentCards", "id": "c1"])["result"] == [:])
            // A later reply: what the turn of the impression wrote is in by then.
            _ = try limited.call("status")
            if let index = limited.received.firstIndex(where: { $0["params"]?["type"] == "ERROR" }) {
                failedAt = index
                break
            }
        }
        let errorIndex = try #require(failedAt, "the file size limit was never reached")
        let error = try #require(limited.received[errorIndex]["params"])
        #expect(
            error["channel"] == "contentCards" && error["reason"] == "CLIENT_ERROR"
                && error["retryState"] == "DO_NOT_RETRY")
        let message = error["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("1 analytics event could not be stored (cannot commit to \(workspace.database): "))
        #expect(message.hasSuffix("; kept in memory until sent, and lost if the server stops first"))
        #expect(limited.stderrContains("storage: cannot commit to \(workspace.database)"))
        // The ENQUEUED just before the ERROR is the event whose commit failed; those before it are stored.
        let enqueuedBefore = limited.received[..<errorIndex].compactMap { message -> String? in
            guard message["params"]?["action"] == "ENQUEUED" else { return nil }
            return message["params"]?["eventId"]?.stringValue
        }
        let stored = Array(enqueuedBefore.dropLast())
        #expect(!stored.isEmpty)

        // The next turn's commit fails too: its event is told, the first one not again.
        _ = try limited.call("logImpression", ["channel": "contentCards", "id": "c2"])
        _ = try limited.call("status")
        let errors = limited.events.filter { $0["type"] == "ERROR" }
        #expect(
            errors.count == 2
                && errors.last?["message"]?.stringValue?.hasPrefix("1 analytics event could not") == true)
        let enqueued = limited.eventIds("ENQUEUED")
        #expect(try limited.call("status")["result"]?["pendingAnalytics"] == .int(enqueued.count))
        // Reads and refreshes go on from memory.
        #expect(
            try limited.call("getSnapshot", ["channel": "contentCards"])["result"]?["contentCards"]?["cards"]?
                .arrayValue?.count == 2)
        _ = try limited.call("refresh", ["channel": "contentCards"])
        try limited.waitForEvent("DATA_UPDATED", "contentCards") { $0["reason"] == "MANUAL_SERVER_REFRESH" }

        // Kept in memory until sent: delivered, from the file and from memory alike.
        #expect(try limited.call("flush")["result"] == ["flushed": .int(enqueued.count), "pending": 0])
        // Their removal from the file could not be committed either: they are not sent twice.
        #expect(try limited.call("flush")["result"] == ["flushed": 0, "pending": 0])
        #expect(try limited.shutDown() == 0)
        #expect(Set(try workspace.sinkContents().ids) == Set(enqueued))

        // The stored ones whose removal was undone go again; the sink already holds them.
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "contentCards"])
        #expect(try server.call("flush")["result"] == ["flushed": .int(stored.count), "pending": 0])
        #expect(server.events.filter { $0["type"] == "ERROR" }.isEmpty)
        #expect(try server.shutDown() == 0)
        let sink = try workspace.sinkContents().ids
        #expect(sink.count == Set(sink).count && Set(sink) == Set(enqueued))
    }

    /// Each event written when the commit of its turn could not be: kept in
    /// memory, lost if the server stops before sending it — told, not silent.
    @Test(
        .disabled(
            if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
            "SIGBUS under ThreadSanitizer at the file size limit"))
    func eventsKeptInMemoryAreLostAtShutdownOnlyWithALogLine() throws {
        let workspace = try StorageWorkspace()
        let limited = try ServerProcess(
            framing: .ndjson, arguments: workspace.arguments(sink: false),
            launcher: ["/bin/sh", "-c", "ulimit -f 1024 && exec \"$@\"", "sh"])
        _ = try limited.call("subscribe", ["channel": "contentCards"])
        _ = try limited.call("changeUser", ["userId": "alice"])
        try limited.waitForEvent("DATA_UPDATED", "contentCards")
        var told = 0
        for _ in 1...2000 where told == 0 {
            _ = try limited.call("logImpression", ["channel": "contentCards", "id": "c1"])
            _ = try limited.call("status")
            told = limited.events.filter { $0["type"] == "ERROR" }.count
        }
        #expect(told == 1)
        let enqueued = limited.eventIds("ENQUEUED")
        #expect(try limited.shutDown() == 0)
        #expect(limited.stderrContains("storage: 1 analytics event kept in memory could not be stored: lost"))

        let server = try workspace.startServer()
        #expect(try server.call("flush")["result"] == ["flushed": .int(enqueued.count - 1), "pending": 0])
        #expect(try server.shutDown() == 0)
        #expect(try workspace.sinkContents().ids == Array(enqueued.dropLast()))
    }

    @Test func anUnusableStorageDirectoryMeansMemoryAndSubscribersAreTold() throws {
        let workspace = try StorageWorkspace()
        let storage = workspace.definitions + "/state" // through a file: ENOTDIR, for root too
        let server = try ServerProcess(
            framing: .ndjson,
            arguments: ["--storage", storage, "--definitions", workspace.definitions, "--framing", "ndjson"])
        _ = try server.call("subscribe", ["channel": "banners"])
        let events = try server.waitForMessages(count: 3).compactMap { $0["params"] }
        #expect(events.map { $0["type"] } == ["CACHE_REPLAY", "ERROR"])
        let message = events.last?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("local storage is unavailable (cannot create \(storage): Not a directory)"))
        #expect(server.stderrContains("keeping state in memory only"))
        _ = try server.call("changeUser", ["userId": "alice"])
        try server.waitForEvent("DATA_UPDATED", "banners")
        #expect(try server.call("logImpression", ["channel": "banners", "id": "top"])["result"] == [:])
        #expect(try server.shutDown() == 0)
    }

    @Test(.enabled(if: getuid() != 0, "root writes to read-only directories"))
    func aReadOnlyStorageDirectoryMeansMemory() throws {
        let workspace = try StorageWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.storage, withIntermediateDirectories: false)
        chmod(workspace.storage, 0o500)
        defer { chmod(workspace.storage, 0o700) }
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "banners"])
        try server.waitForEvent("ERROR", "banners") {
            $0["message"]?.stringValue?.hasPrefix("local storage is unavailable") == true
        }
        #expect(try server.shutDown() == 0)
    }

    /// A `bunting.lock` planted as a link to someone's file: the file is
    /// neither truncated nor written; the directory is not used.
    @Test func aLockFileThatIsALinkIsNotFollowed() throws {
        let workspace = try StorageWorkspace()
        try FileManager.default.createDirectory(
            atPath: workspace.storage, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let victim = workspace.root + "/precious.txt"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(
            atPath: workspace.storage + "/bunting.lock", withDestinationPath: victim)
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "banners"])
        let error = try server.waitForEvent("ERROR", "banners")
        let message = error["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix(
                "local storage is unavailable (\(workspace.storage)/bunting.lock: it is a symbolic link)"),
            "\(message)")
        #expect(server.stderrContains("keeping state in memory only"))
        try server.expectPromptStatusAndTermination()
        #expect(String(decoding: FileManager.default.contents(atPath: victim) ?? Data(), as: UTF8.self) == "precious\n")
        #expect(try workspace.names(in: workspace.storage) == ["bunting.lock"])
    }

    /// A storage directory others can write (made first by another user in
    /// a shared place, say) would let them choose the files: not used.
    @Test func aStorageDirectoryOthersCanWriteIsNotUsed() throws {
        let workspace = try StorageWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.storage, withIntermediateDirectories: false)
        chmod(workspace.storage, 0o777)
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "banners"])
        let message = try server.waitForEvent("ERROR", "banners")["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix(
                "local storage is unavailable (\(workspace.storage) is not "
                    + "safe to keep state in: others can write to it (mode 0777))"), "\(message)")
        try server.expectPromptStatusAndTermination()
        #expect(try workspace.names(in: workspace.storage).isEmpty)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory away"))
    func aStorageDirectoryOfAnotherUserIsNotUsed() throws {
        let workspace = try StorageWorkspace()
        try FileManager.default.createDirectory(
            atPath: workspace.storage, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(chown(workspace.storage, 65534, 65534) == 0)
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "banners"])
        let message = try server.waitForEvent("ERROR", "banners")["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix(
                "local storage is unavailable (\(workspace.storage) is "
                    + "not safe to keep state in: it belongs to user 65534"), "\(message)")
        try server.expectPromptStatusAndTermination()
        #expect(try workspace.names(in: workspace.storage).isEmpty)
    }

    /// The storage directory or its database removed (or replaced) under a
    /// running server: noticed at the next commit, told to every
    /// subscription and logged, and the server serves on from memory with
    /// what it held, the queued events included.
    @Test(arguments: [
        "the directory removed", "the directory renamed", "the database removed", "the database replaced",
    ])
    func storageRemovedWhileServingIsToldAndTheServerCarriesOnInMemory(what: String) throws {
        let workspace = try StorageWorkspace()
        let server = try workspace.startServer(sink: false)
        _ = try server.call("subscribe", ["channel": "contentCards"])
        _ = try server.call("changeUser", ["userId": "alice"])
        try server.waitForEvent("DATA_UPDATED", "contentCards")
        _ = try server.call("logDismiss", ["channel": "contentCards", "id": "c2"])
        _ = try server.call("logImpression", ["channel": "contentCards", "id": "c1"])
        switch what {
        case "the directory removed":
            try FileManager.default.removeItem(atPath: workspace.storage)
        case "the directory renamed":
            try FileManager.default.moveItem(atPath: workspace.storage, toPath: workspace.root + "/elsewhere")
        case "the database removed":
            try FileManager.default.removeItem(atPath: workspace.database)
        default:
            try FileManager.default.moveItem(atPath: workspace.database, toPath: workspace.database + ".old")
            try Data().write(to: URL(fileURLWithPath: workspace.database))
        }
        let start = server.received.count
        #expect(try server.call("logImpression", ["channel": "contentCards", "id": "c1"])["result"] == [:])
        let error = try server.waitForEvent("ERROR", "contentCards", from: start)
        #expect(error["reason"] == "CLIENT_ERROR" && error["retryState"] == "DO_NOT_RETRY")
        let message = error["message"]?.stringValue ?? ""
        #expect(
            message.hasPrefix(
                "local storage is unavailable (\(workspace.database) was removed or replaced while the server ran)"
            ), "\(message)")
        #expect(
            server.stderrContains(
                "storage: \(workspace.database) was removed or replaced "
                    + "while the server ran; keeping state in memory only"))
        // What it held serves on: the queue, the user, the dismissal; no second ERROR.
        #expect(try server.call("status")["result"]?["pendingAnalytics"] == 3)
        let toBob = server.received.count
        _ = try server.call("changeUser", ["userId": "bob"])
        // The answer comes before the refresh: bob's data is awaited, not assumed.
        try server.waitForEvent("DATA_UPDATED", "contentCards", from: toBob)
        let back = server.received.count
        _ = try server.call("changeUser", ["userId": "alice"])
        let cards = try server.waitForEvent("DATA_UPDATED", "contentCards", from: back)
        #expect(
            cards["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.map { $0["id"] } == ["c1"],
            "c2 stays dismissed")
        _ = try server.call("logImpression", ["channel": "contentCards", "id": "c1"])
        #expect(server.received[start...].filter { $0["params"]?["type"] == "ERROR" }.count == 1)
        try server.expectPromptStatusAndTermination()
    }

    /// Users not seen for `--forget-after` days are forgotten, their
    /// caches, item states and attributes alike; the current user never is,
    /// and queued events stay. With 0, every user but the current one goes
    /// at the first sweep, which a server makes as it starts.
    @Test func usersNotSeenForForgetAfterAreForgottenAndTheCurrentOneIsKept() throws {
        let workspace = try StorageWorkspace()
        let first = try workspace.startServer(sink: false)
        _ = try first.call("subscribe", ["channel": "contentCards"])
        for user in ["alice", "bob"] {
            _ = try first.call("changeUser", ["userId": .string(user), "attributes": ["tier": "gold"]])
            try first.waitForEvent("DATA_UPDATED", "contentCards", from: first.received.count - 1)
            _ = try first.call("logDismiss", ["channel": "contentCards", "id": "c2"])
        }
        #expect(try first.shutDown() == 0)

        let second = try workspace.startServer(sink: false, ["--forget-after", "0"])
        // Alice, and the anonymous user of before the first change of user.
        #expect(second.waitForStderr { $0.contains("storage: forgot 2 users not seen for 0 days") }, "\(second.stderr)")
        _ = try second.call("subscribe", ["channel": "contentCards"])
        let replay = try second.waitForEvent("CACHE_REPLAY", "contentCards")
        #expect(
            replay["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.map { $0["id"] } == ["c1"],
            "bob, current, kept his dismissal")
        let start = second.received.count
        _ = try second.call("changeUser", ["userId": "alice"])
        let load = try second.waitForEvent("CACHE_LOAD", "contentCards", from: start)
        #expect(load["cacheSnapshot"]?["lastSyncAt"] == 0, "alice's cache is gone")
        let cards = try second.waitForEvent("DATA_UPDATED", "contentCards", from: start)
        #expect(
            cards["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.map { $0["id"] } == ["c2", "c1"],
            "and her dismissal")
        #expect(try second.call("status")["result"]?["pendingAnalytics"] == 2, "the queued dismissals stay")
        try second.expectPromptStatusAndTermination()
        for wrong in ["-1", "soon", "inf"] {
            let refused = try runBunting(["serve", "--forget-after", wrong])
            #expect(
                refused.status == 64
                    && refused.stderr.contains("--forget-after must be a number of days ≥ 0, not '\(wrong)'"))
        }
    }

    @Test(arguments: ["XDG_STATE_HOME", "HOME"])
    func theDefaultStorageIsTheUsersStateDirectory(variable: String) throws {
        let workspace = try StorageWorkspace()
        let base = workspace.root + "/base"
        let expected = variable == "HOME" ? base + "/.local/state/bunting" : base + "/bunting"
        // XDG_STATE_HOME must be named for the harness to leave --storage out; relative, it is ignored.
        let environment =
            variable == "HOME"
            ? ["HOME": base, "XDG_STATE_HOME": "relative"] : ["XDG_STATE_HOME": base, "HOME": "/nonexistent"]
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions], environment: environment)
        _ = try server.call("changeUser", ["userId": "alice"])
        #expect(try server.shutDown() == 0)
        #expect(FileManager.default.fileExists(atPath: expected + "/bunting.sqlite3"))
        let mode = try FileManager.default.attributesOfItem(atPath: expected)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
