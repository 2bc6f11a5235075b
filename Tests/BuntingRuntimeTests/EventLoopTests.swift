import BuntingRuntime
import Synchronization
import Testing

/// Collects what jobs did, in order, from any thread.
final class Trace: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite struct EventLoopTests {
    @Test func runsPostedJobsInOrder() {
        let loop = EventLoop(clock: ManualClock())
        let trace = Trace()
        for index in 0..<5 { loop.post { trace.add("job \(index)") } }
        #expect(loop.runPending() == 5)
        #expect(trace.all == ["job 0", "job 1", "job 2", "job 3", "job 4"])
    }

    @Test func timersFireWhenTheClockReachesThem() {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        let trace = Trace()
        loop.schedule(after: 10) { trace.add("ten") }
        loop.schedule(after: 5) { trace.add("five") }
        loop.schedule(after: 5) { trace.add("five again") }
        loop.runPending()
        #expect(trace.all.isEmpty)
        clock.advance(by: 5)
        loop.runPending()
        #expect(trace.all == ["five", "five again"])
        #expect(loop.timeUntilNextTimer == 5)
        clock.advance(by: 100)
        loop.runPending()
        #expect(trace.all == ["five", "five again", "ten"])
        #expect(loop.timeUntilNextTimer == nil)
    }

    @Test func cancelledTimersNeverFire() {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        let trace = Trace()
        let token = loop.schedule(after: 1) { trace.add("cancelled") }
        loop.schedule(after: 2) { trace.add("kept") }
        loop.cancel(token)
        clock.advance(by: 3)
        loop.runPending()
        #expect(trace.all == ["kept"])
    }

    @Test func jobsMayScheduleMoreWork() {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        let trace = Trace()
        loop.post {
            trace.add("first")
            loop.post { trace.add("second") }
            loop.schedule(after: 0) { trace.add("due now") }
        }
        loop.runPending()
        #expect(trace.all == ["first", "second", "due now"])
    }

    @Test func aThreadedLoopRunsJobsFromOtherThreads() {
        let loop = EventLoop()
        let done = ConditionLock()
        let finished = Mutex(false)
        startThread(name: "test-loop") { loop.run() }
        loop.post {
            done.withLock {
                finished.withLock { $0 = true }
                done.broadcast()
            }
        }
        done.withLock {
            while !finished.withLock({ $0 }) { done.wait() }
        }
        loop.stop()
        #expect(finished.withLock { $0 })
    }
}
