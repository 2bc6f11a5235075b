import Synchronization

/// Work begun on a thread of its own, whose result is wanted later: `value`
/// waits for it, `ready` gives it only once it is there. As in `sideBySide`,
/// when the thread has not begun by the time the value is wanted, the
/// thread that wants it does the work itself instead of waiting for a turn.
public final class BackgroundResult<Value: Sendable>: Sendable {
    private let handOver = HandOver<Value>()
    private let work: @Sendable () -> Value

    private let name: String
    private let begun = Mutex(false)

    /// With `beginNow` false, the thread starts at `begin()` (or the work
    /// is done when the value is first wanted).
    public init(name: String, beginNow: Bool = true, _ work: @escaping @Sendable () -> Value) {
        self.name = name
        self.work = work
        if beginNow { begin() }
    }

    /// Starts the thread, unless it was started before.
    public func begin() {
        guard
            begun.withLock({ begun in
                defer { begun = true }; return !begun
            })
        else { return }
        startThread(name: name) { [handOver, work] in
            if handOver.claim() { handOver.put(work()) }
        }
    }

    /// The result, waiting for it if need be.
    public var value: Value {
        if handOver.claim() {
            let made = work()
            handOver.put(made)
            return made
        }
        return handOver.take()
    }

    /// The result if the work is done, else nil at once.
    public var ready: Value? { handOver.peek() }
}
