#if canImport(Glibc)
import Glibc
#endif

/// A mutex with one condition variable, for the few places that must block a
/// thread until another one acts (the loop's queue, the writer's buffer).
///
/// `@unchecked Sendable`: the pthread objects are made for sharing between
/// threads; they live at fixed heap addresses for the object's lifetime.
public final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits measure monotonic time, so a wall-clock change cannot stall timers.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; call with the lock held (inside `withLock`).
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a signal or until `seconds` have passed; call with the lock held.
    public func wait(seconds: Double) {
        guard seconds > 0 else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds.rounded(.down)
        var deadline = timespec(
            tv_sec: now.tv_sec + Int(min(whole, 1e9)),
            tv_nsec: now.tv_nsec + Int((seconds - whole) * 1e9))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Wakes every waiter; call with the lock held.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
