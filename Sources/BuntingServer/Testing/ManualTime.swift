import BuntingRuntime

/// The clock of `serve --clock manual`, which moves only when a script says
/// so: `advanceClock` lets time pass, `setClock` sets the wall clock.
///
/// Every timer of the server (polls, retries, flushes, memory release, the
/// store's sweeps) is an event loop timer on monotonic time, so passing time
/// means stepping from one timer's deadline to the next: the clock reads
/// exactly that deadline while the timer runs, and what it started (a fetch,
/// a delivery, on a worker) has finished, its events told, before the next
/// deadline is reached. A retry scheduled by a failure 1 s into an advance of
/// 60 s therefore runs within the same advance, at its own time.
///
/// Owned by the event loop: use it on the loop's thread.
public final class ManualTime {
    public let clock: ManualClock
    private let loop: EventLoop
    private let worker: SettlingWorker

    /// Most deadlines one advance steps through. A second's polls over a
    /// year are 31 million steps; past this many the rest of the span passes
    /// at once, as for a machine waking from sleep: each timer overdue runs
    /// once, at the end.
    public static let maxSteps = 100_000
    /// A deadline this close past the end of an advance is reached by it:
    /// advances written in decimal seconds (0.999, then 0.001) may add up
    /// to an ulp short of the deadline they name.
    static let tolerance = 1e-9
    /// The longest advance taken at once: a hundred years.
    public static let maxAdvance = 100 * 365.25 * 86_400

    /// What one `advance(by:)` did.
    public struct Advance: Equatable {
        /// The wall clock afterwards, Unix seconds.
        public var time: Double
        /// How many deadlines it stepped through.
        public var steps: Int
        /// The step limit was reached: the rest passed at once.
        public var coalesced: Bool
    }

    /// `worker` must be the worker the engine was given.
    public init(clock: ManualClock, loop: EventLoop, worker: SettlingWorker) {
        self.clock = clock
        self.loop = loop
        self.worker = worker
    }

    /// The wall clock, Unix seconds.
    public var now: Double { clock.unixTime() }

    /// Lets `seconds` pass (≥ 0), running each timer at its deadline, in
    /// order, with what it starts run to its end.
    public func advance(by seconds: Double) -> Advance {
        loop.assertOnLoop()
        let target = clock.monotonicTime() + max(0, seconds)
        worker.settle(loop)
        var steps = 0
        var coalesced = false
        while let deadline = loop.nextTimerDeadline, deadline <= target + Self.tolerance {
            // Still due after settling: the loop has stopped (shutting down) and runs nothing more.
            if deadline <= clock.monotonicTime() { break }
            guard steps < Self.maxSteps else {
                coalesced = true
                log.warning(
                    "advanceClock: more than \(Self.maxSteps) timer deadlines in \(seconds) s; "
                        + "the rest of the span passes at once (each timer overdue runs once, at the end)")
                break
            }
            clock.advance(toMonotonic: deadline)
            worker.settle(loop)
            steps += 1
        }
        clock.advance(toMonotonic: target)
        worker.settle(loop)
        return Advance(time: clock.unixTime(), steps: steps, coalesced: coalesced)
    }

    /// Sets the wall clock, forward or back, as an administrator (or NTP)
    /// stepping it does: what reads the time (schedules, expiry,
    /// `lastSyncAt`, event times) sees the new time at once, and no timer
    /// runs, since no time passed.
    public func set(to unixTime: Double) {
        loop.assertOnLoop()
        clock.stepWallClock(to: unixTime)
    }
}
