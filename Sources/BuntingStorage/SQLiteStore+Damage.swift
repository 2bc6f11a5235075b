import BuntingCore
import BuntingRuntime

/// Damage found while serving — SQLite reports a page corrupt, or the file
/// no longer a database — is met as at start-up: the file is moved aside, a
/// fresh one takes its place, and every event subscription is told (through
/// `commitPending()`). Start-up skips the full check after a clean shutdown,
/// so this is also where a file damaged while no server ran ends up, the
/// first time SQLite reads the damaged page; once replaced, nothing fails again.
///
/// What this process holds in memory is kept: the events not yet committed
/// and those a failed commit left in memory go into the fresh file with the
/// next commit, and so does the profile. What only the damaged file held is
/// gone with it (it stays next to the fresh one, for whoever wants to look).
/// Damage in a file opened afresh gives the disk up: state then lives in
/// memory for the rest of the run, as when the directory cannot be used.
extension SQLiteStore {
    /// Returns whether a fresh file took the damaged one's place.
    @discardableResult
    func replaceDamaged(_ error: SQLiteError) -> Bool {
        guard let connection else { return false }
        var kept = redo.events
        if let undone = transaction { kept = undone.events + kept }
        transaction = nil
        connection.database.rollBackIfOpen()
        self.connection = nil
        connection.database.close()
        redo = Redo(events: kept, reported: redo.reported, profile: storedProfile != nil)
        fileEventCount = 0
        replacements += 1
        guard replacements == 1 else {
            giveUpDisk("\(path) is damaged again (\(error.message))")
            return false
        }
        do {
            let (fresh, movedTo) = try StorageDirectory.replaceDamaged(path, problem: error.message)
            self.connection = fresh
            openedFile = Self.identity(of: path)
            fileEventCount = fresh.eventCount
            tell(StorageDamage(problem: error.message, movedTo: movedTo).message)
            return true
        } catch {
            giveUpDisk(error.message)
            return false
        }
    }

    /// Moves what the store holds into memory (`keeping`, else the profile
    /// and the events not in the file), for the rest of the run.
    func giveUpDisk(_ reason: String, keeping kept: MemoryStore? = nil) {
        let memory = kept ?? MemoryStore()
        if kept == nil {
            if let storedProfile { try? memory.saveProfile(storedProfile) }
            for event in redo.events { try? memory.enqueue(event) }
        }
        redo = Redo()
        self.memory = memory
        log.error("storage: \(reason); keeping state in memory only")
        tell("local storage is unavailable (\(reason)); state is kept in memory only and is lost at exit")
    }

    private func tell(_ storageProblem: String) {
        var told = trouble ?? StoreTrouble()
        told.storageProblem = storageProblem
        trouble = told
    }
}
