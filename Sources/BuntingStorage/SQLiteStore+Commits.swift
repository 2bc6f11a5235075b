import BuntingCore
import BuntingRuntime
import CSQLite

/// The writes of the open transaction, kept so that a failed commit can be
/// dealt with: what it undid is known, and what the store holds in memory
/// is redone.
struct PendingWrites {
    /// Events stored, oldest first.
    var events: [AnalyticsEvent] = []
    /// Events of earlier commits deleted (delivered to the sink).
    var removals: [String] = []
    var wiped = false
    var wroteProfile = false
    /// Calls that wrote, for the log.
    var writes = 0
}

/// What failed commits undid that the store can redo from memory, first
/// thing in the next transaction: the events (their ENQUEUED was staged),
/// the removal of delivered events (else they would be sent twice), a wipe
/// (else wiped data would come back) and the profile. Caches, item states
/// and attributes are not redone: the engine holds the current user's in
/// memory and saves them again as they change.
struct Redo {
    /// Oldest first; newer than every event in the file.
    var events: [AnalyticsEvent] = []
    /// Those of `events` the client was told are kept in memory.
    var reported: Set<String> = []
    /// Events in the file that were delivered: not read, deleted again.
    var removals: Set<String> = []
    var wipe = false
    var profile = false

    var isEmpty: Bool { events.isEmpty && removals.isEmpty && !wipe && !profile }
}

extension SQLiteStore {
    /// Commits the open transaction; with none open, tries again what failed
    /// commits undid, if anything. A failure is dealt with, not thrown; so
    /// is a file removed since it was opened (SQLiteStore+Removal.swift).
    func commit() {
        guard memory == nil, connection != nil else { return }
        guard transaction != nil || !redo.isEmpty else { return }
        guard fileIsInPlace else { return carryOnInMemoryAfterRemoval() }
        commitToOpenFile()
    }

    /// Commits to the file the connection has open, wherever it is now.
    func commitToOpenFile() {
        guard memory == nil, let connection else { return }
        if transaction == nil {
            guard !redo.isEmpty else { return }
            do {
                try begin(connection)
            } catch {
                if error.isDamage && replaceDamaged(error) { commitToOpenFile() }
                return
            }
        }
        let loggedBefore = connection.database.logBytes
        do {
            try connection.commit.run()
            transaction = nil
            // Everything that was redone is in the file now.
            redo.reported.removeAll()
            checkpointIfDue(connection, committed: max(0, connection.database.logBytes - loggedBefore))
        } catch {
            if error.isDamage {
                if replaceDamaged(error) { commitToOpenFile() }
            } else {
                abandon(error)
            }
        }
    }

    /// Opens a transaction and redoes in it, in their order, the writes that
    /// failed commits undid. If that fails the transaction is abandoned.
    func begin(_ connection: StoreConnection) throws(SQLiteError) {
        try connection.begin.run()
        var writes = PendingWrites()
        let undone = redo
        // The redone writes are this transaction's: undone with it if it fails.
        writes.events = undone.events
        writes.removals = Array(undone.removals)
        writes.wiped = undone.wipe
        writes.wroteProfile = undone.profile
        transaction = writes
        redo = Redo(reported: undone.reported)
        guard !undone.isEmpty else { return }
        do throws(SQLiteError) {
            if undone.wipe {
                try Self.wipe(connection)
                fileEventCount = 0
            }
            if undone.profile, let storedProfile { try Self.writeProfile(storedProfile, connection) }
            for eventId in undone.removals {
                try connection.removeEvent.run([.text(eventId)])
                fileEventCount -= connection.database.changes
            }
            for event in undone.events {
                do throws(SQLiteError) {
                    try Self.insert(event, connection)
                    fileEventCount += 1
                } catch {
                    // Already there: the commit that reported failing did store it.
                    guard error.primaryCode == SQLITE_CONSTRAINT else { throw error }
                }
            }
        } catch {
            abandon(error)
            throw error
        }
    }

    /// Deals with a transaction that failed: SQLite undid it (or this rolls
    /// it back), its events are kept in memory — and the client told so,
    /// through `commitPending()` — and what can be redone will be.
    func abandon(_ error: SQLiteError) {
        guard let undone = transaction, let connection else { return }
        transaction = nil
        connection.database.rollBackIfOpen()
        redo.events = undone.events + redo.events
        redo.removals.formUnion(undone.removals)
        redo.wipe = redo.wipe || undone.wiped
        redo.profile = redo.profile || undone.wroteProfile
        if let count = try? connection.countQueuedEvents() { fileEventCount = count }
        // Damage is dealt with by replacing the file, where they are stored again.
        guard !error.isDamage else { return }
        let unreported = undone.events.map(\.eventId).filter { !redo.reported.contains($0) }
        redo.reported.formUnion(unreported)
        let reason = "cannot commit to \(path): \(error.message)"
        if !unreported.isEmpty {
            var told = trouble ?? StoreTrouble()
            told.eventIdsInMemory += unreported
            told.reason = reason
            trouble = told
        }
        if undone.writes > 0 {
            log.error(
                "storage: \(reason); \(Self.analyticsEvents(redo.events.count)) "
                    + "kept in memory, to be stored by the "
                    + "next commit that succeeds (the other writes since the last commit live in memory only)")
        } else {
            log.debug("storage: still \(reason) (\(Self.analyticsEvents(redo.events.count)) kept in memory)")
        }
    }

    static func analyticsEvents(_ count: Int) -> String {
        count == 1 ? "1 analytics event" : "\(count) analytics events"
    }
}
