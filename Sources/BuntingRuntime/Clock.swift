#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Where every part of Bunting reads the time, so that tests can move time
/// forward instead of sleeping.
///
/// Two readings: wall time for timestamps on the wire (Unix seconds), and a
/// monotonic reading for timers, which must not jump when the wall clock is set.
public protocol Clock: Sendable {
    /// Seconds since the Unix epoch.
    func unixTime() -> Double
    /// Seconds on a clock that only moves forward; its origin is arbitrary.
    func monotonicTime() -> Double
}

/// The machine's clocks.
public struct SystemClock: Clock {
    public init() {}

    public func unixTime() -> Double { read(CLOCK_REALTIME) }
    public func monotonicTime() -> Double { read(CLOCK_MONOTONIC) }

    private func read(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// A clock that moves only when told to; both readings advance together.
public final class ManualClock: Clock {
    /// The wall clock is read as the time it was last set to plus the
    /// monotonic time since, to the microsecond: steps written in decimal
    /// (0.999 s, then 0.001 s; a hundred thousand of 0.001 s) then add up to
    /// the time they name, not to a sum of rounding errors that puts a
    /// schedule's boundary on the wrong side.
    private struct State {
        var setTo: Double
        var setAtMonotonic = 0.0
        var monotonic = 0.0

        var unix: Double {
            let passed = monotonic - setAtMonotonic
            return passed == 0 ? setTo : ((setTo + passed) * 1_000_000).rounded() / 1_000_000
        }
    }

    private let state: Mutex<State>

    public init(unixTime: Double = 1_750_000_000) {
        state = Mutex(State(setTo: unixTime))
    }

    public func unixTime() -> Double { state.withLock { $0.unix } }
    public func monotonicTime() -> Double { state.withLock { $0.monotonic } }

    public func advance(by seconds: Double) {
        precondition(seconds >= 0, "time only moves forward")
        state.withLock { $0.monotonic += seconds }
    }

    /// Moves both readings forward until monotonic time reads `deadline`
    /// exactly (a timer's deadline: adding the difference could fall an
    /// ulp short of it); a deadline already passed moves nothing.
    public func advance(toMonotonic deadline: Double) {
        state.withLock { $0.monotonic = max($0.monotonic, deadline) }
    }

    /// Sets the wall clock alone, as an administrator (or NTP) stepping it
    /// does: forward or back; monotonic time does not move.
    public func stepWallClock(to unixTime: Double) {
        state.withLock {
            $0.setTo = unixTime
            $0.setAtMonotonic = $0.monotonic
        }
    }
}
