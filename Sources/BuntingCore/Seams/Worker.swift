/// Runs blocking work off the event loop and hands the result back to it.
public protocol Worker: Sendable {
    /// Runs `work` elsewhere, then `then` on `loop` with its result.
    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop)
}

/// Runs each piece of work on a thread of its own: the work is rare (a file
/// read, an HTTP request, a sink write) and may recurse over large documents,
/// so each thread gets the same generous stack as the loop.
public struct ThreadWorker: Worker {
    public init() {}

    public func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop) {
        startThread(name: "bunting-worker") {
            let result = work()
            loop.post { then(result) }
        }
    }
}

/// Runs work at once on the calling thread and queues the result on the loop:
/// for tests, which then see every outcome at the next `runPending()`.
public struct InlineWorker: Worker {
    public init() {}

    public func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result, then: @escaping @Sendable (Result) -> Void, on loop: EventLoop) {
        let result = work()
        loop.post { then(result) }
    }
}
