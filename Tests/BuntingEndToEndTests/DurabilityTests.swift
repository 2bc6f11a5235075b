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
        #expect(second.stderrContains("storage directory \(workspace.storage) is in use by another bunting serve (pid \(first.process.processIdentifier))"))
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
        #expect(events.first?["cacheSnapshot"] == ["contentCards": ["cards": [], "unviewedCount": 0], "lastSyncAt": 0])
        let error = try #require(events.last)
        #expect(error["reason"] == "CLIENT_ERROR" && error["retryState"] == "DO_NOT_RETRY")
        let message = error["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("local storage was damaged (") && message.contains("moved to \(workspace.database).damaged-"))
        #expect(second.stderrContains("\(workspace.database) is damaged"))
        #expect(status?["userId"] == .null && status?["pendingAnalytics"] == 0)
        #expect(try workspace.names(in: workspace.storage).filter { $0.hasPrefix("bunting.sqlite3.damaged-") }.count == 1)
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
        #expect(errors.allSatisfy {
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

    // Under ThreadSanitizer a server at the file size limit dies of SIGBUS,
    // and the sanitizer fails while reporting it ("nested bug"): not seen in
    // the normal and AddressSanitizer builds, not yet understood.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "SIGBUS under ThreadSanitizer at the file size limit"))
    func aFullDiskRefusesWhatCannotBeStoredAndTheServerServesOn() throws {
        let workspace = try StorageWorkspace()
        // A file size limit makes the write-ahead log hit the wall after a few
        // events, as a full disk would (writes fail with EFBIG).
        let limited = try ServerProcess(
            framing: .ndjson, arguments: workspace.arguments(sink: false),
            launcher: ["/bin/sh", "-c", "ulimit -f 256 && exec \"$@\"", "sh"])
        _ = try limited.call("subscribe", ["channel": "contentCards"])
        _ = try limited.call("changeUser", ["userId": "alice"])
        try limited.waitForEvent("DATA_UPDATED", "contentCards")
        var refusal: JSON?
        for _ in 1...2000 {
            let reply = try limited.call("logImpression", ["channel": "contentCards", "id": "c1"])
            if let error = reply["error"] {
                refusal = error
                break
            }
        }
        let error = try #require(refusal, "the file size limit was never reached")
        #expect(error["code"] == -32007 && error["data"]?["reason"] == "STORAGE_ERROR")
        #expect(error["message"]?.stringValue?.hasPrefix("Storage error: cannot store the event in \(workspace.database): ") == true)
        // Reads and refreshes go on from memory.
        #expect(try limited.call("getSnapshot", ["channel": "contentCards"])["result"]?["contentCards"]?["cards"]?.arrayValue?.count == 2)
        _ = try limited.call("refresh", ["channel": "contentCards"])
        try limited.waitForEvent("DATA_UPDATED", "contentCards") { $0["reason"] == "MANUAL_SERVER_REFRESH" }
        let enqueued = limited.eventIds("ENQUEUED")
        #expect(try limited.shutDown() == 0)

        // Every event reported ENQUEUED was stored, and the file is sound.
        let server = try workspace.startServer()
        _ = try server.call("subscribe", ["channel": "contentCards"])
        #expect(try server.call("flush")["result"] == ["flushed": .int(enqueued.count), "pending": 0])
        #expect(server.events.filter { $0["type"] == "ERROR" }.isEmpty)
        #expect(try server.shutDown() == 0)
        #expect(Set(try workspace.sinkContents().ids) == Set(enqueued))
    }

    @Test func anUnusableStorageDirectoryMeansMemoryAndSubscribersAreTold() throws {
        let workspace = try StorageWorkspace()
        let storage = workspace.definitions + "/state"  // through a file: ENOTDIR, for root too
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--storage", storage, "--definitions", workspace.definitions, "--framing", "ndjson"])
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
        try server.waitForEvent("ERROR", "banners") { $0["message"]?.stringValue?.hasPrefix("local storage is unavailable") == true }
        #expect(try server.shutDown() == 0)
    }

    @Test(arguments: ["XDG_STATE_HOME", "HOME"])
    func theDefaultStorageIsTheUsersStateDirectory(variable: String) throws {
        let workspace = try StorageWorkspace()
        let base = workspace.root + "/base"
        let expected = variable == "HOME" ? base + "/.local/state/bunting" : base + "/bunting"
        // XDG_STATE_HOME must be named for the harness to leave --storage out; relative, it is ignored.
        let environment = variable == "HOME" ? ["HOME": base, "XDG_STATE_HOME": "relative"] : ["XDG_STATE_HOME": base, "HOME": "/nonexistent"]
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions], environment: environment)
        _ = try server.call("changeUser", ["userId": "alice"])
        #expect(try server.shutDown() == 0)
        #expect(FileManager.default.fileExists(atPath: expected + "/bunting.sqlite3"))
        let mode = try FileManager.default.attributesOfItem(atPath: expected)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
