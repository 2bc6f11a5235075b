import BuntingRuntime
import Synchronization
import Testing

@Suite struct SideBySideTests {
    /// While the caller is still busy with the second piece, the first runs
    /// on a thread of its own; both results come back together.
    @Test func theFirstPieceRunsElsewhereWhileTheSecondRuns() {
        let loop = EventLoop(clock: ManualClock()) // owned by this thread
        let started = Mutex(false)
        let signal = ConditionLock()
        let (first, second) = sideBySide(
            { () -> (Bool, Int) in
                signal.withLock {
                    started.withLock { $0 = true }
                    signal.broadcast()
                }
                return (loop.isOnLoop, (1...1000).reduce(0, +))
            },
            { () -> (Bool, String) in
                // Waits (with a deadline, not a sleep) until the first piece has begun.
                let clock = SystemClock()
                let deadline = clock.monotonicTime() + 10
                signal.withLock {
                    while !started.withLock({ $0 }) && clock.monotonicTime() < deadline { signal.wait(seconds: 0.1) }
                }
                return (loop.isOnLoop, "second")
            })
        #expect(first.0 == false)
        #expect(first.1 == 500_500)
        #expect(second.0 == true)
        #expect(second.1 == "second")
    }

    /// Whichever thread takes the first piece, it runs exactly once.
    @Test func theFirstPieceRunsOnceWhoeverTakesIt() {
        let runs = Mutex(0)
        for round in 0..<200 {
            let (first, second) = sideBySide(
                { () -> Int in
                    runs.withLock { $0 += 1 }
                    return round * 2
                }, { round * 3 })
            #expect(first == round * 2 && second == round * 3)
        }
        #expect(runs.withLock { $0 } == 200)
    }
}
