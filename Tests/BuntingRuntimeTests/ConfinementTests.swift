import BuntingRuntime
import Synchronization
import Testing

/// The check behind `assertOnLoop`: only the thread that owns a loop is on it.
@Suite struct ConfinementTests {
    @Test func theMakingThreadOwnsALoopUntilAnotherRunsIt() {
        let loop = EventLoop(clock: ManualClock())
        #expect(loop.isOnLoop)
        let elsewhere = Mutex<Bool?>(nil)
        let done = ConditionLock()
        startThread(name: "test-other") {
            done.withLock {
                elsewhere.withLock { $0 = loop.isOnLoop }
                done.broadcast()
            }
        }
        done.withLock { while elsewhere.withLock({ $0 }) == nil { done.wait() } }
        #expect(elsewhere.withLock { $0 } == false)
    }

    @Test func theThreadThatRunsALoopOwnsIt() {
        let loop = EventLoop()
        let observed = Mutex<(inJob: Bool, before: Bool)?>(nil)
        let done = ConditionLock()
        startThread(name: "test-loop") { loop.run() }
        loop.post {
            done.withLock {
                observed.withLock { $0 = (loop.isOnLoop, true) }
                done.broadcast()
            }
        }
        done.withLock { while observed.withLock({ $0 }) == nil { done.wait() } }
        #expect(observed.withLock { $0?.inJob } == true)
        #expect(!loop.isOnLoop, "the test thread no longer owns it")
        loop.stop()
    }
}
