/// The serial owner of the engine's state: one thread runs posted jobs and due
/// timers, one at a time, so every event has a place in one total order.
///
/// The loop runs either on its own thread (`start()`, for the server) or by
/// hand (`runPending()`, for tests that drive it with a `ManualClock`). Timers
/// read the injected clock; with a manual clock they fire when a test (or a
/// job) advances the clock and the loop next runs.
///
/// `@unchecked Sendable`: every field is guarded by `lock`.
public final class EventLoop: @unchecked Sendable {
    public typealias Job = @Sendable () -> Void

    /// Identifies a scheduled timer so that it can be cancelled.
    public struct TimerToken: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Timer {
        let token: TimerToken
        let deadline: Double
        let job: Job
    }

    public let clock: any Clock
    private let waitsOnRealTime: Bool
    /// How many jobs `postWaitingForRoom(_:)` lets pile up before the poster waits.
    private let capacity: Int

    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var jobs: [Job] = []
    /// Guarded by `lock`; sorted by deadline, then by the order they were made.
    private var timers: [Timer] = []
    /// Guarded by `lock`.
    private var nextTimerID: UInt64 = 0
    /// Guarded by `lock`.
    private var stopped = false
    /// Runs after each batch of jobs and timers, on the loop's thread: where
    /// output staged by the jobs is handed to the writer in one go.
    private var afterBatch: (@Sendable () -> Void)?

    public init(clock: any Clock = SystemClock(), capacity: Int = 16) {
        self.clock = clock
        self.waitsOnRealTime = clock is SystemClock
        self.capacity = capacity
    }

    // MARK: - Handing work to the owner

    /// Queues `job` from any thread; never blocks.
    public func post(_ job: @escaping Job) {
        lock.withLock {
            jobs.append(job)
            lock.broadcast()
        }
    }

    /// Queues `job`, first waiting while the queue is full. The reader uses
    /// this so that a client that floods requests while not reading replies
    /// is slowed down instead of growing the queue without bound.
    public func postWaitingForRoom(_ job: @escaping Job) {
        lock.withLock {
            while jobs.count >= capacity && !stopped { lock.wait() }
            jobs.append(job)
            lock.broadcast()
        }
    }

    /// Runs `job` after `delay` seconds of the clock's monotonic time.
    ///
    /// Call it only from the loop's own jobs (or, in tests, the thread that
    /// runs the loop by hand): the job then runs on that same thread, which
    /// is why it may capture state the loop owns.
    @discardableResult
    public func schedule(after delay: Double, _ job: @escaping () -> Void) -> TimerToken {
        let deadline = clock.monotonicTime() + max(0, delay)
        let owned = LoopOwnedJob(job)
        return lock.withLock {
            nextTimerID += 1
            let timer = Timer(token: TimerToken(id: nextTimerID), deadline: deadline, job: { owned.job() })
            let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
            timers.insert(timer, at: index)
            lock.broadcast()
            return timer.token
        }
    }

    public func cancel(_ token: TimerToken) {
        lock.withLock { timers.removeAll { $0.token == token } }
    }

    /// Seconds until the next timer is due, or nil when none is scheduled.
    public var timeUntilNextTimer: Double? {
        lock.withLock { timers.first.map { $0.deadline - clock.monotonicTime() } }
    }

    // MARK: - Running

    /// Sets what runs after each batch of work; call before `start()`.
    public func setAfterBatch(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { afterBatch = body }
    }

    /// Runs every queued job and every due timer, including those that they
    /// queue or make due, and returns without waiting. Returns how many ran.
    @discardableResult
    public func runPending() -> Int {
        var ran = 0
        while let batch = takeReadyWork(waiting: false) {
            for job in batch { job() }
            ran += batch.count
            lock.withLock { afterBatch }?()
        }
        return ran
    }

    /// Runs the loop on a thread of its own until `stop()`.
    public func start(name: String = "bunting-loop") {
        startThread(name: name) { [self] in
            let afterBatch = lock.withLock { self.afterBatch }
            while let batch = takeReadyWork(waiting: true) {
                for job in batch { job() }
                afterBatch?()
            }
        }
    }

    /// Ends the loop thread after the job running now; queued work is dropped.
    public func stop() {
        lock.withLock {
            stopped = true
            jobs.removeAll()
            timers.removeAll()
            lock.broadcast()
        }
    }

    /// Takes all queued jobs, or else the due timers; with `waiting`, sleeps
    /// until there is something. Nil means stopped (or, without waiting, idle).
    private func takeReadyWork(waiting: Bool) -> [Job]? {
        lock.withLock {
            while !stopped {
                if !jobs.isEmpty {
                    let batch = jobs
                    jobs.removeAll(keepingCapacity: true)
                    lock.broadcast()  // posters waiting for room
                    return batch
                }
                let now = clock.monotonicTime()
                if let first = timers.first, first.deadline <= now {
                    let dueCount = timers.firstIndex { $0.deadline > now } ?? timers.endIndex
                    let due = timers[..<dueCount].map(\.job)
                    timers.removeFirst(dueCount)
                    return due
                }
                guard waiting else { return nil }
                if waitsOnRealTime, let first = timers.first {
                    lock.wait(seconds: first.deadline - now)
                } else {
                    lock.wait()
                }
            }
            return nil
        }
    }

    /// Wakes the loop so that it looks at its timers again, as after a manual
    /// clock moved.
    public func wake() {
        lock.withLock { lock.broadcast() }
    }
}

/// A timer's job: made on the loop thread and run there.
///
/// `@unchecked Sendable`: it crosses no thread; it only sits in the loop's
/// timer list between being scheduled and run by the same owner.
private final class LoopOwnedJob: @unchecked Sendable {
    let job: () -> Void
    init(_ job: @escaping () -> Void) { self.job = job }
}
