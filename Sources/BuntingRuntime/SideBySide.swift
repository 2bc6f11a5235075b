/// Runs `first` on a thread of its own while this thread runs `second`, and
/// gives both results once both are done: for two independent pieces of
/// start-up work that each take a millisecond or more on a machine with a
/// core to spare. Starting the thread costs tens of microseconds, so small
/// work is better done in turn.
public func sideBySide<First: Sendable, Second>(
    _ first: @escaping @Sendable () -> First, _ second: () -> Second
) -> (First, Second) {
    let handOver = HandOver<First>()
    startThread(name: "bunting-aside") { handOver.put(first()) }
    let secondResult = second()
    return (handOver.take(), secondResult)
}

/// One value passed from the thread that makes it to the one that waits for it.
///
/// `@unchecked Sendable`: `value` is only touched with the lock held.
private final class HandOver<Value: Sendable>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value?

    func put(_ made: Value) {
        lock.withLock {
            value = made
            lock.broadcast()
        }
    }

    func take() -> Value {
        lock.withLock {
            while value == nil { lock.wait() }
            return value!
        }
    }
}
