/// Runs `first` on a thread of its own while this thread runs `second`, and
/// gives both results once both are done: for two independent pieces of
/// start-up work that each take a millisecond or more on a machine with a
/// core to spare. Starting the thread costs tens of microseconds, so small
/// work is better done in turn.
///
/// On a busy machine the new thread may not run for milliseconds; if it has
/// not begun `first` by the time `second` is done, this thread runs `first`
/// itself, so the pair never takes longer than doing both in turn plus the
/// thread's start.
public func sideBySide<First: Sendable, Second>(
    _ first: @escaping @Sendable () -> First, _ second: () -> Second
) -> (First, Second) {
    let handOver = HandOver<First>()
    startThread(name: "bunting-aside") {
        if handOver.claim() { handOver.put(first()) }
    }
    let secondResult = second()
    if handOver.claim() { return (first(), secondResult) }
    return (handOver.take(), secondResult)
}

/// The one piece of work that either thread may take, and its result,
/// passed from the thread that made it to the one that waits for it.
///
/// `@unchecked Sendable`: `claimed` and `value` are only touched with the lock held.
final class HandOver<Value: Sendable>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var claimed = false
    private var value: Value?

    /// Whether the caller is the first to ask, and so does the work.
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }

    func put(_ made: Value) {
        lock.withLock {
            value = made
            lock.broadcast()
        }
    }

    /// The value if it has been put, without waiting.
    func peek() -> Value? {
        lock.withLock { value }
    }

    func take() -> Value {
        lock.withLock {
            while value == nil { lock.wait() }
            return value!
        }
    }
}
