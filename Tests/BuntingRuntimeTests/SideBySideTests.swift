import BuntingRuntime
import Synchronization
import Testing

@Suite struct SideBySideTests {
    /// The first piece of work runs on a thread of its own, the second on
    /// the caller's, and both results come back together.
    @Test func bothPiecesRunAndTheFirstRunsElsewhere() {
        let loop = EventLoop(clock: ManualClock())  // owned by this thread
        let (first, second) = sideBySide({ (loop.isOnLoop, (1...1000).reduce(0, +)) }, { (loop.isOnLoop, "second") })
        #expect(first.0 == false)
        #expect(first.1 == 500_500)
        #expect(second.0 == true)
        #expect(second.1 == "second")
    }
}
