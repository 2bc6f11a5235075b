import BuntingRuntime

/// A worker whose work the loop's thread can wait for: the manual clock
/// (`ManualTime`) runs what a moved clock started — a poll's read of the
/// source, a flush's delivery to the sink — to its end, events included,
/// before it moves on to the next timer or answers. Otherwise it is the
/// worker it wraps: work runs off the loop, as with the system clock.
///
/// `@unchecked Sendable`: `delivered` and `outstanding` are guarded by `lock`.
public final class SettlingWorker: Worker, @unchecked Sendable {
    private let base: any Worker
    private let lock = ConditionLock()
    /// Results handed to a loop so far (guarded by `lock`).
    private var delivered = 0
    /// Work handed out whose result has not run on its loop yet (guarded by `lock`).
    private var outstanding = 0

    public init(_ base: any Worker) {
        self.base = base
    }

    public func run<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop
    ) {
        lock.withLock { outstanding += 1 }
        // The result is posted here rather than by the base worker, so that
        // it is on the loop's queue before `delivered` says so.
        base.run(
            { [self] in
                let result = work()
                loop.post { [self] in
                    lock.withLock { outstanding -= 1 }
                    then(result)
                }
                lock.withLock {
                    delivered += 1
                    lock.broadcast()
                }
            }, then: { _ in }, on: loop)
    }

    /// Runs `loop`'s jobs and due timers until no work handed out is still
    /// running or waiting to run, blocking the loop's thread while a worker
    /// finishes. Returns at once when there is none.
    public func settle(_ loop: EventLoop) {
        while true {
            // Read before running: a result delivered from now on wakes the wait below.
            let before = lock.withLock { delivered }
            loop.runPending()
            guard lock.withLock({ outstanding }) > 0 else { return }
            lock.withLock {
                while delivered == before { lock.wait() }
            }
        }
    }
}
