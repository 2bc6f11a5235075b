import BuntingCore
import BuntingRuntime
import CSQLite

/// The full check a file not closed cleanly owes, made once the server has
/// answered its first requests instead of before them.
///
/// The check (SQLite's quick check) reads every page: after a kill with
/// 10,000 queued events, about 19 of the 30 million instructions of opening
/// the store, and the larger part of the time to the first reply. Until it
/// is made, the store serves as one that was closed cleanly does: what it
/// reads, SQLite checks page by page as it reads it, and damage met there is
/// dealt with as damage met while serving always is (SQLiteStore+Damage.swift).
/// When the check finds damage elsewhere, the file is replaced the same way:
/// moved aside, a fresh one in its place with the profile and this
/// process's events, every event subscription told. Events committed to the
/// file since it was opened are kept in memory until the check is made, so
/// that one whose ENQUEUED went out goes into the fresh file too; events the
/// file held from before are left with it, as they would have been had the
/// check been made first.
extension SQLiteStore {
    /// Makes the check the file owes, if it owes one. Damage found is
    /// reported by the next `commitPending()`.
    public func makeOwedCheck() {
        guard owesCheck else { return }
        owesCheck = false
        defer { eventsBeforeCheck = [] }
        guard memory == nil, let connection else { return }
        let damage: SQLiteError
        do {
            guard let problem = try StorageDirectory.quickCheck(connection.database) else { return }
            damage = SQLiteError(code: SQLITE_CORRUPT, message: problem)
        } catch {
            guard error.isDamage else {
                log.error("storage: cannot check \(path): \(error.message)")
                return
            }
            damage = error
        }
        // Older than the open transaction's events (which hold any a failed
        // commit left to redo) and than those left to redo: first in the fresh file.
        if transaction != nil {
            transaction?.events.insert(contentsOf: eventsBeforeCheck, at: 0)
        } else {
            redo.events.insert(contentsOf: eventsBeforeCheck, at: 0)
        }
        replaceDamaged(damage)
    }

    /// Keeps the events of a commit made while the check is owed, and lets
    /// go of those it removed (delivered).
    func keepUntilChecked(_ committed: PendingWrites) {
        eventsBeforeCheck += committed.events
        guard !committed.removals.isEmpty else { return }
        let removed = Set(committed.removals)
        eventsBeforeCheck.removeAll { removed.contains($0.eventId) }
    }
}
