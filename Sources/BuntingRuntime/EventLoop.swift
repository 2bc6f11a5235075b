#if canImport(Glibc)
import Glibc
#endif
import CRuntime
import Synchronization

/// The serial owner of the engine's state: one thread runs posted jobs, due
/// timers and the handlers of watched file descriptors, one at a time, so
/// that every event has a place in one total order.
///
/// A *turn* is one pass of the loop: the handlers of descriptors that became
/// ready, then the jobs posted from other threads, then the timers that are
/// due, then the turn-end hooks (where output staged during the turn is
/// handed to the kernel in one go).
///
/// The loop runs on the thread that calls `run()` (the server's main thread),
/// or by hand (`runPending()`, for tests that drive it with a `ManualClock`). The thread that runs it is its
/// *owner*: everything but `post`, `stop` and `wake` must be called there,
/// which `assertOnLoop()` checks in debug builds. Before it runs, the owner is
/// the thread that made it.
///
/// `@unchecked Sendable`: the fields under "cross-thread" are guarded by
/// `lock`; all others belong to the owner thread.
public final class EventLoop: @unchecked Sendable {
    public typealias Job = @Sendable () -> Void

    /// Identifies a scheduled timer so that it can be cancelled.
    public struct TimerToken: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// Identifies a watched file descriptor.
    public struct WatchToken: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// What a watcher waits for.
    public struct Interest: OptionSet, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        public static let readable = Interest(rawValue: Int16(POLLIN))
        public static let writable = Interest(rawValue: Int16(POLLOUT))
    }

    private struct Timer {
        let token: TimerToken
        let deadline: Double
        let job: () -> Void
    }

    private struct Watcher {
        let fd: Int32
        var interest: Interest
        /// Called with the poll events that occurred (hang-ups and errors included).
        let handler: (Int16) -> Void
    }

    public let clock: any Clock
    private let waitsOnRealTime: Bool

    // MARK: Cross-thread state (guarded by `lock`)

    private let lock = ConditionLock()
    private var posted: [Job] = []
    private var stopped = false
    /// The owner sleeps in `poll`.
    private var sleeping = false
    /// A wake-up byte was written and not yet read: no need to write another.
    private var wakePending = false

    // MARK: Owner state

    /// The owner thread, as `pthread_self()`; atomic because the debug check
    /// reads it from whichever thread calls.
    private let owner = Atomic<UInt>(UInt(pthread_self()))
    /// Sorted by deadline, then by the order they were made.
    private var timers: [Timer] = []
    private var nextID: UInt64 = 0
    private var watchers: [(token: WatchToken, watcher: Watcher)] = []
    private var turnEndHooks: [() -> Void] = []
    /// Written to wake the owner from `poll`.
    private let wakeFD: Int32

    public init(clock: any Clock = SystemClock()) {
        self.clock = clock
        self.waitsOnRealTime = clock is SystemClock
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    deinit {
        if wakeFD >= 0 { close(wakeFD) }
    }

    // MARK: - Confinement

    /// Whether the calling thread owns the loop.
    public var isOnLoop: Bool {
        pthread_equal(pthread_self(), pthread_t(owner.load(ordering: .relaxed))) != 0
    }

    /// Traps in debug builds when called off the owner thread: the engine's
    /// entry points call it, so that a method run from the wrong thread is
    /// caught by the tests instead of becoming a data race.
    @inline(__always)
    public func assertOnLoop(_ function: StaticString = #function) {
        assert(isOnLoop, "\(function) must run on its event loop's thread")
    }

    // MARK: - Handing work to the owner (any thread)

    /// Queues `job` from any thread; never blocks.
    public func post(_ job: @escaping Job) {
        let wake = lock.withLock { () -> Bool in
            posted.append(job)
            return needsWake()
        }
        if wake { writeWakeByte() }
    }

    /// Queues `job` from the loop's own thread, to run after the work queued
    /// before it; unlike `post`, it may capture state the loop owns.
    public func enqueue(_ job: @escaping () -> Void) {
        assertOnLoop()
        let owned = LoopOwnedJob(job)
        post { owned.job() }
    }

    /// Wakes the owner so that it looks at its timers again, as after a
    /// manual clock moved.
    public func wake() {
        let wake = lock.withLock { needsWake() }
        if wake { writeWakeByte() }
    }

    /// Ends `run()` after the turn under way; queued jobs and timers are dropped.
    public func stop() {
        let wake = lock.withLock { () -> Bool in
            stopped = true
            posted.removeAll()
            return needsWake()
        }
        if wake { writeWakeByte() }
    }

    /// Call with the lock held: whether a wake-up byte must be written (after
    /// the lock is released) for the owner to see what was just queued.
    private func needsWake() -> Bool {
        guard sleeping, !wakePending, wakeFD >= 0 else { return false }
        wakePending = true
        return true
    }

    private func writeWakeByte() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }

    // MARK: - Timers (owner thread)

    /// Runs `job` on the loop after `delay` seconds of the clock's monotonic time.
    @discardableResult
    public func schedule(after delay: Double, _ job: @escaping () -> Void) -> TimerToken {
        assertOnLoop()
        let deadline = clock.monotonicTime() + max(0, delay)
        nextID += 1
        let timer = Timer(token: TimerToken(id: nextID), deadline: deadline, job: job)
        let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
        return timer.token
    }

    public func cancel(_ token: TimerToken) {
        assertOnLoop()
        timers.removeAll { $0.token == token }
    }

    /// Seconds until the next timer is due, or nil when none is scheduled.
    public var timeUntilNextTimer: Double? {
        timers.first.map { $0.deadline - clock.monotonicTime() }
    }

    /// The monotonic time at which the next timer is due, or nil when none
    /// is scheduled: where a manual clock moved by steps stops next.
    public var nextTimerDeadline: Double? { timers.first?.deadline }

    // MARK: - File descriptors (owner thread)

    /// Calls `handler` on the loop whenever `fd` is ready for what `interest`
    /// names (and on hang-up or error). Used by `run()` only.
    public func watch(_ fd: Int32, for interest: Interest, _ handler: @escaping (Int16) -> Void) -> WatchToken {
        assertOnLoop()
        nextID += 1
        let token = WatchToken(id: nextID)
        watchers.append((token, Watcher(fd: fd, interest: interest, handler: handler)))
        return token
    }

    /// Changes what a watcher waits for; an empty interest pauses it.
    public func setInterest(_ interest: Interest, of token: WatchToken) {
        assertOnLoop()
        if let index = watchers.firstIndex(where: { $0.token == token }) { watchers[index].watcher.interest = interest }
    }

    public func unwatch(_ token: WatchToken) {
        assertOnLoop()
        watchers.removeAll { $0.token == token }
    }

    /// Adds work to run at the end of every turn, after the ones added before.
    public func addTurnEndHook(_ hook: @escaping () -> Void) {
        assertOnLoop()
        turnEndHooks.append(hook)
    }

    // MARK: - Running

    /// Runs every posted job and every due timer, including those that they
    /// post or make due, then returns without waiting. Returns how many ran.
    /// Descriptors are not polled: this is for loops driven by tests.
    @discardableResult
    public func runPending() -> Int {
        assertOnLoop()
        var ran = 0
        while !isStopped {
            let count = runJobsAndTimers()
            guard count > 0 else { break }
            ran += count
            runTurnEndHooks()
        }
        return ran
    }

    /// Runs the loop on the calling thread, which becomes its owner, until `stop()`.
    public func run() {
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        var descriptors: [pollfd] = []
        var ready: [(WatchToken, Int16)] = []
        while !isStopped {
            // Bounded, so that jobs or timers that keep making more (a timer
            // rescheduled sooner than it takes to run) cannot keep the loop
            // from its descriptors: input, output and signals are looked at
            // at least every `roundsBeforePolling` rounds.
            var rounds = 0
            while rounds < Self.roundsBeforePolling, runJobsAndTimers() > 0 { rounds += 1 }
            runTurnEndHooks()
            guard !isStopped else { break }
            waitForWork(&descriptors, &ready)
            for (token, events) in ready {
                // A handler earlier in this turn may have removed or paused this one.
                guard let entry = watchers.first(where: { $0.token == token }),
                    !entry.watcher.interest.isEmpty || events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
                else { continue }
                entry.watcher.handler(events)
            }
            ready.removeAll(keepingCapacity: true)
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    static let roundsBeforePolling = 64

    /// Runs the jobs posted so far or, when there are none, the timers due
    /// now: jobs posted meanwhile go before timers. Returns how many ran.
    private func runJobsAndTimers() -> Int {
        let jobs = lock.withLock { () -> [Job] in
            guard !posted.isEmpty else { return [] }
            let batch = posted
            posted.removeAll(keepingCapacity: true)
            return batch
        }
        if !jobs.isEmpty {
            for job in jobs { job() }
            return jobs.count
        }
        let now = clock.monotonicTime()
        guard let first = timers.first, first.deadline <= now else { return 0 }
        let dueCount = timers.firstIndex { $0.deadline > now } ?? timers.endIndex
        let due = timers[..<dueCount].map(\.job)
        timers.removeFirst(dueCount)
        for job in due { job() }
        return due.count
    }

    private func runTurnEndHooks() {
        for hook in turnEndHooks { hook() }
    }

    /// Sleeps until a watched descriptor is ready, a job is posted, the next
    /// timer is due or the loop is stopped; fills `ready`.
    private func waitForWork(_ descriptors: inout [pollfd], _ ready: inout [(WatchToken, Int16)]) {
        let proceed = lock.withLock { () -> Bool in
            guard posted.isEmpty, !stopped else { return false }
            sleeping = true
            return true
        }
        guard proceed else { return }
        defer { lock.withLock { sleeping = false } }

        var timeout: Int32 = -1
        if let first = timers.first {
            if waitsOnRealTime {
                let milliseconds = ((first.deadline - clock.monotonicTime()) * 1000).rounded(.up)
                timeout = Int32(max(0, min(milliseconds, 3_600_000)))
            } else if first.deadline <= clock.monotonicTime() {
                timeout = 0
            }
        }
        descriptors.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
        for entry in watchers where !entry.watcher.interest.isEmpty {
            descriptors.append(pollfd(fd: entry.watcher.fd, events: entry.watcher.interest.rawValue, revents: 0))
        }
        let count = poll(&descriptors, nfds_t(descriptors.count), timeout)
        guard count > 0 else { return }
        if descriptors[0].revents != 0 {
            var value: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &value) { read(wakeFD, $0.baseAddress, 8) }
            lock.withLock { wakePending = false }
        }
        var index = 1
        for entry in watchers where !entry.watcher.interest.isEmpty {
            let events = descriptors[index].revents
            if events != 0 { ready.append((entry.token, events)) }
            index += 1
        }
    }
}

/// A job made on the loop thread and run there.
///
/// `@unchecked Sendable`: it crosses no thread; it only sits in the loop's
/// queue between being queued and run by the same owner.
private final class LoopOwnedJob: @unchecked Sendable {
    let job: () -> Void
    init(_ job: @escaping () -> Void) { self.job = job }
}
