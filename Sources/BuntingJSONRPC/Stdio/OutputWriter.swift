import BuntingRuntime

/// The thread that writes what the kernel did not take at once, so that a
/// large message reaches the client while the loop goes on working.
///
/// The loop writes directly while the pipe has room (a reply costs no
/// hand-off); what is left over, and everything staged after it until the
/// writer has caught up, is queued here in order and written by the
/// writer's thread, which may block where the loop must not. A snapshot of
/// megabytes (a returning user's CACHE_LOAD) then goes out while the loop
/// evaluates the refresh that follows it, instead of after it.
///
/// Only the loop adds bytes, so when nothing is queued the loop may write
/// itself without breaking the order. The thread starts with the first
/// hand-off and ends with `stop()` or when the descriptor fails.
///
/// `@unchecked Sendable`: every field below `lock` is guarded by it; `output`
/// is written by one thread at a time (the loop while nothing is queued,
/// the writer while something is).
final class OutputWriter: @unchecked Sendable {
    /// What the writer tells the loop, through `notify`.
    enum Notice {
        /// What waits fell below the mark `markFull` set.
        case room
        /// The descriptor failed (the client closed it): output is dropped.
        case failed
    }

    private let output: ProtocolOutput
    private let notify: @Sendable (Notice) -> Void
    private let lock = ConditionLock()
    /// In order; `offset` bytes of the first are written.
    private var chunks: [[UInt8]] = []
    private var offset = 0
    private var waiting = 0
    private var failed = false
    private var stopping = false
    private var running = false
    /// Set by `markFull`: `.room` is owed once fewer bytes than this wait.
    private var roomBelow: Int?
    /// Monotonic seconds of the last write that took anything (for `drain`).
    private var lastProgress = 0.0

    init(output: ProtocolOutput, notify: @escaping @Sendable (Notice) -> Void) {
        self.output = output
        self.notify = notify
    }

    /// Whether bytes are queued: if not, the loop may write directly.
    var isIdle: Bool { lock.withLock { chunks.isEmpty } }

    /// Bytes queued and not yet written.
    var waitingBytes: Int { lock.withLock { waiting } }

    /// Bytes held: what waits and the written start of the chunk under way.
    var heldBytes: Int { lock.withLock { waiting + offset } }

    var hasFailed: Bool { lock.withLock { failed } }

    /// Queues `bytes`, in order, after what is queued; `from` bytes of the
    /// first are already written (the loop's direct write took them).
    /// Dropped once failed.
    func enqueue(_ bytes: some Collection<[UInt8]>, from written: Int = 0) {
        let total = bytes.reduce(0) { $0 + $1.count }
        guard written < total else { return }
        lock.withLock {
            guard !failed, !stopping else { return }
            if chunks.isEmpty { offset = written }
            chunks.append(contentsOf: bytes)
            waiting += total - written
            lastProgress = SystemClock().monotonicTime()
            if !running {
                running = true
                startThread(name: "bunting-output") { [self] in run() }
            }
            lock.broadcast()
        }
    }

    /// Whether `limit` or more bytes wait; if so, `.room` is sent once fewer
    /// than `resumeBelow` do.
    func markFull(limit: Int, resumeBelow: Int) -> Bool {
        lock.withLock {
            guard waiting >= limit else { return false }
            roomBelow = resumeBelow
            return true
        }
    }

    /// Waits until everything queued is written, as long as the writer keeps
    /// making progress, and at most `timeout` seconds after it last did.
    /// Returns whether all was written; the thread is stopped either way.
    func drain(timeout: Double) -> Bool {
        lock.withLock {
            defer {
                stopping = true
                lock.broadcast()
            }
            while !chunks.isEmpty && !failed {
                let left = lastProgress + timeout - SystemClock().monotonicTime()
                guard left > 0 else { return false }
                lock.wait(seconds: min(left, 0.25))
            }
            return !failed
        }
    }

    /// Ends the thread; what is still queued is dropped.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    // MARK: - The writer's thread

    private func run() {
        while let (chunk, start) = next() {
            let count = chunk.withUnsafeBytes { output.write($0.baseAddress! + start, $0.count - start) }
            guard let count else {
                lock.withLock {
                    failed = true
                    chunks.removeAll()
                    waiting = 0
                    offset = 0
                    running = false
                    lock.broadcast()
                }
                notify(.failed)
                return
            }
            if count == 0 || !output.writesUntilFull {
                // Wait for room, a slice at a time, so that `stop` is seen.
                _ = FileDescriptorIO.waitUntilWritable(output.fd, seconds: 0.25)
            }
            guard count > 0 else { continue }
            let room = lock.withLock { () -> Bool in
                offset += count
                waiting -= count
                lastProgress = SystemClock().monotonicTime()
                if offset == chunks[0].count {
                    chunks.removeFirst()
                    offset = 0
                    if chunks.isEmpty { lock.broadcast() }
                }
                guard let mark = roomBelow, waiting < mark else { return false }
                roomBelow = nil
                return true
            }
            if room { notify(.room) }
        }
    }

    /// The chunk to write and where in it, waiting for one; nil once stopped.
    private func next() -> ([UInt8], Int)? {
        lock.withLock {
            while chunks.isEmpty && !stopping { lock.wait() }
            guard !stopping, let first = chunks.first else {
                running = false
                return nil
            }
            return (first, offset)
        }
    }
}
