import BuntingCore
import BuntingHTTP
import BuntingRuntime
import BuntingServer

extension InProcessServer {
    /// Which testing controls the server has, as `serve --clock manual` and `serve --faults` give them.
    struct Controls: OptionSet {
        let rawValue: Int
        static let manualClock = Controls(rawValue: 1)
        static let faults = Controls(rawValue: 2)

        /// `parts` as `serve` makes them with these options (see `ServeTesting`).
        func parts(_ parts: ServerAssembly.Parts, clock: ManualClock, loop: EventLoop) -> ServerAssembly.Parts {
            var parts = parts
            var controls = TestingControls(hasSink: parts.sink != nil)
            if contains(.faults) {
                let faults = FaultBoard()
                parts.source = FaultInjectingSource(parts.source, faults: faults, clock: clock)
                parts.sink = parts.sink.map { FaultInjectingSink($0, faults: faults, clock: clock) }
                controls.faults = faults
            }
            if contains(.manualClock) {
                let worker = SettlingWorker(parts.worker)
                parts.worker = worker
                controls.time = ManualTime(clock: clock, loop: loop, worker: worker)
            }
            parts.testing = controls
            return parts
        }
    }
}
