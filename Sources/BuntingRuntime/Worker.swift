/// Runs blocking work off the event loop and hands the result back to it.
public protocol Worker: Sendable {
    /// Runs `work` elsewhere, then `then` on `loop` with its result.
    func run<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop)
}

/// A few long-lived threads that take blocking work (a file read, an HTTP
/// request, a sink write) from one queue, in order. Several threads, so that
/// a slow server on one side (a definitions URL timing out) does not hold up
/// the other (the analytics sink). Threads start on first use, each with the
/// loop's generous stack, since the work may recurse over large documents.
///
/// `@unchecked Sendable`: the queue and counters are guarded by `lock`.
public final class WorkerPool: Worker, @unchecked Sendable {
    private let lock = ConditionLock()
    private let maxThreads: Int
    private let name: String
    /// Guarded by `lock`.
    private var queue: [@Sendable () -> Void] = []
    /// Guarded by `lock`.
    private var threads = 0
    /// Guarded by `lock`: threads waiting for work.
    private var idle = 0

    public init(threads: Int = 2, name: String = "bunting-worker") {
        precondition(threads >= 1)
        self.maxThreads = threads
        self.name = name
    }

    public func run<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop
    ) {
        let startAnother = lock.withLock { () -> Bool in
            queue.append {
                let result = work()
                loop.post { then(result) }
            }
            lock.broadcast()
            guard idle == 0, threads < maxThreads else { return false }
            threads += 1
            return true
        }
        if startAnother {
            startThread(name: name) { [self] in serve() }
        }
    }

    private func serve() {
        while true {
            let job = lock.withLock { () -> @Sendable () -> Void in
                while queue.isEmpty {
                    idle += 1
                    lock.wait()
                    idle -= 1
                }
                return queue.removeFirst()
            }
            job()
        }
    }
}

/// Runs work at once on the calling thread and queues the result on the loop:
/// for tests, which then see every outcome at the next `runPending()`.
public struct InlineWorker: Worker {
    public init() {}

    public func run<Result: Sendable>(
        _ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop
    ) {
        let result = work()
        loop.post { then(result) }
    }
}
