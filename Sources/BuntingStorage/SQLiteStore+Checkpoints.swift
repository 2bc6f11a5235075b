import BuntingRuntime

/// When the write-ahead log is copied into the database file.
///
/// A commit appends pages to the log; a checkpoint copies them into the
/// database file and flushes both to disk. Copying them inside the commit
/// that crosses SQLite's threshold put that work on the path of whatever the
/// commit reported: a user change at 10,000 flags + 10,000 cards writes 3 MB
/// of caches, so every change paid for copying them again and for two disk
/// flushes before its DATA_UPDATED could be sent.
///
/// So, once a server calls `deferCheckpoints(on:)`, a commit that leaves
/// `Checkpoints.deferredBytes` or more in the log only arranges a checkpoint
/// for when the store has had no commit for `Checkpoints.pause` seconds. A
/// busy server that never pauses still checkpoints inside the commit that
/// leaves `Checkpoints.immediateBytes` in the log, or four times the last
/// commit of `Checkpoints.deferredBytes` or more it holds, if that is more:
/// the bound on the log, and a limit on how often a run of commits pays for
/// a checkpoint. With a fixed bound alone, a store whose every commit writes
/// 14 MB (a user change at 100,000 items) checkpointed inside every third,
/// where one of 3 MB (10,000 flags + 10,000 cards) does inside every
/// eleventh. Scaled, a run of large commits pays for one checkpoint in four,
/// and the log (what a restart after a kill replays) stays within four of
/// the largest commits. Without a loop to wait on, the store checkpoints as
/// SQLite would have. Sizes are in bytes, not pages: a database made by this
/// code has pages of 16 KB, an older one keeps its 4 KB.
///
/// Durability does not change: a commit is in the log file (written, not
/// synced, see `SQLiteStore`) before the next output, checkpointed or not,
/// and a restart replays the log. Closing the store checkpoints what is left.
public enum Checkpoints {
    /// SQLite's own threshold for its automatic checkpoints: 1,000 pages of 4 KB.
    public static let deferredBytes = 4_096_000
    /// Past this much in the log the checkpoint waits no longer…
    public static let immediateBytes = 32 << 20
    /// …or past this many times what the last commit added, if that is more.
    public static let commitsPerImmediate = 4
    /// Seconds without a commit before a deferred checkpoint runs.
    public static let pause = 0.5
}

extension SQLiteStore {
    /// Makes checkpoints wait for the store to pause, as timers on `loop`
    /// (the store's owner). Called once, before serving.
    public func deferCheckpoints(on loop: EventLoop) {
        checkpointLoop = loop
    }

    /// Whether a checkpoint is waiting for a pause.
    public var checkpointIsDeferred: Bool { checkpointTimer != nil }

    /// Called after each successful commit, which added `committed` bytes to the log.
    func checkpointIfDue(_ connection: StoreConnection, committed: Int) {
        let logged = connection.database.logBytes
        // Scaled by the last large commit, not by the last commit: a small
        // one after large ones (a user change's first writes, before its
        // events, after the last change's caches) checkpointed at once, on
        // the path of that change, every second change at 100,000 items.
        if committed >= Checkpoints.deferredBytes { lastLargeCommit = committed }
        guard logged >= Checkpoints.deferredBytes else { return }
        let bound = max(
            Checkpoints.immediateBytes, Checkpoints.commitsPerImmediate * max(committed, lastLargeCommit))
        guard let loop = checkpointLoop, logged < bound else {
            checkpointNow()
            return
        }
        lastCommitTime = loop.clock.monotonicTime()
        guard checkpointTimer == nil else { return }
        waitForPause(loop, Checkpoints.pause)
    }

    /// Waits until `Checkpoints.pause` has gone by since the last commit:
    /// one timer for a run of commits, not one per commit.
    private func waitForPause(_ loop: EventLoop, _ delay: Double) {
        checkpointTimer = loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            checkpointTimer = nil
            let quiet = loop.clock.monotonicTime() - lastCommitTime
            // Writes of this turn are not committed yet: their commit decides.
            guard transaction == nil else { return }
            if quiet < Checkpoints.pause {
                waitForPause(loop, Checkpoints.pause - quiet)
            } else {
                checkpointNow()
            }
        }
    }

    /// Copies the log into the database file. A failure is logged and
    /// leaves the pages in the log: the next checkpoint, or closing, copies them.
    func checkpointNow() {
        if let checkpointTimer, let checkpointLoop { checkpointLoop.cancel(checkpointTimer) }
        checkpointTimer = nil
        guard memory == nil, let connection, transaction == nil else { return }
        do {
            try connection.database.checkpoint()
            lastLargeCommit = 0
        } catch {
            log.error("storage: cannot checkpoint \(path): \(error.message)")
        }
    }
}
