import CSQLite

/// One connection to a SQLite file, owned by this object and closed by
/// `close()` or at the latest in `deinit`.
///
/// Opened without SQLite's own mutexes: a connection is used by one thread,
/// the store's owner (the event loop).
final class Database {
    let path: String
    /// Nil once closed.
    private(set) var handle: OpaquePointer?
    /// Pages in the write-ahead log not yet copied into the database file,
    /// as SQLite reported them after the last commit; counted once
    /// `countLogFrames()` has replaced SQLite's own checkpointing.
    private(set) var logFrames = 0
    /// The database's page size, read by `countLogFrames()`.
    private(set) var pageSize = 4096
    /// What `logFrames` holds, in bytes.
    var logBytes: Int { logFrames * pageSize }

    init(path: String) throws(SQLiteError) {
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            // SQLite may hand out a connection even when opening failed; it
            // carries the message and must be closed all the same.
            defer { sqlite3_close_v2(connection) }
            try check(result == SQLITE_OK ? SQLITE_CANTOPEN : result, connection)
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "unable to open database file")
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit { close() }

    /// Closes the connection; statements prepared on it must be gone first
    /// (each keeps its database alive, so the owner drops them, then closes).
    /// The last connection to close checkpoints the write-ahead log into the
    /// database file and removes it. Returns whether it closed cleanly (false
    /// when already closed).
    @discardableResult
    func close() -> Bool {
        guard let handle else { return false }
        let result = sqlite3_close_v2(handle)
        self.handle = nil
        return result == SQLITE_OK
    }

    /// Runs SQL that returns no rows; `sql` may hold several statements.
    func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(try openHandle(), sql, nil, nil, nil), handle)
    }

    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(sql, in: self)
    }

    /// The first column of the first row of `sql` (a pragma, a count).
    func value(_ sql: String) throws(SQLiteError) -> SQLValue {
        var value = SQLValue.null
        try prepare(sql).run { row in value = row.value(0) }
        return value
    }

    /// Runs `body` in one write transaction: all of it is committed, or none.
    /// IMMEDIATE takes the write lock up front, so the commit cannot fail for
    /// want of it.
    func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT (a full disk) can leave the transaction open.
            rollBackIfOpen()
            throw error
        }
    }

    /// Runs `body` inside the transaction under way (or as one of its own)
    /// so that it takes effect whole or not at all; the transaction around
    /// it stays open either way.
    func savepoint<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("SAVEPOINT whole")
        do {
            let result = try body()
            try execute("RELEASE whole")
            return result
        } catch {
            if isInTransaction, let handle { sqlite3_exec(handle, "ROLLBACK TO whole; RELEASE whole", nil, nil, nil) }
            throw error
        }
    }

    /// Whether a transaction is open. SQLite ends one by itself (rolls it
    /// back) after some failures — a full disk, an I/O error — which this tells.
    var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Ends the transaction under way, if any, undoing it.
    func rollBackIfOpen() {
        if isInTransaction, let handle { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    /// Takes checkpoints over from SQLite: from now on a commit only counts
    /// the pages in the write-ahead log (`logFrames`), and copying them into
    /// the database file waits for `checkpoint()`. SQLite's own rule (copy
    /// them once a commit leaves 1,000 pages) puts that copy, and a disk
    /// flush or two, inside the commit that crosses the line: at 10,000
    /// flags + 10,000 cards, inside every user change.
    func countLogFrames() {
        guard let handle else { return }
        if let size = try? value("PRAGMA page_size").integerValue { pageSize = Int(size) }
        // The hook replaces SQLite's automatic checkpoints (which are a hook
        // of their own). The connection never outlives `self`: `close()`
        // runs in `deinit` at the latest.
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().logFrames = Int(frames)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Copies the write-ahead log's pages into the database file. Passive:
    /// in exclusive locking mode no reader can hold any page back, so all of
    /// them are copied, and the next commit starts the log from the top.
    func checkpoint() throws(SQLiteError) {
        var inLog: Int32 = 0
        var copied: Int32 = 0
        try check(sqlite3_wal_checkpoint_v2(try openHandle(), nil, SQLITE_CHECKPOINT_PASSIVE, &inLog, &copied), handle)
        logFrames = Int(max(0, inLog - copied))
    }

    /// Frees the pages SQLite keeps cached but is not using (up to 2 MB with
    /// the default cache size), for the server to give back once it pauses.
    func releaseMemory() {
        if let handle { sqlite3_db_release_memory(handle) }
    }

    /// Bytes the connection's page cache holds now.
    var cacheBytes: Int {
        guard let handle else { return 0 }
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    func openHandle() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
        return handle
    }
}
