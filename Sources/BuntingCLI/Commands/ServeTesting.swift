import BuntingCore
import BuntingHTTP
import BuntingJSONRPC
import BuntingRuntime
import BuntingServer

/// What `bunting serve` makes of `--clock` and `--faults`: the clock the
/// server runs on, the decorators that answer with injected failures, and
/// the controls its methods use. Without either option the server is the
/// production one: the machine's clock, the real source and sink.
struct ServeTesting {
    struct Options {
        /// The start of the manual clock (Unix seconds); nil on the system clock.
        var manualClockStart: Double?
        var faults = false

        init() {}

        /// `clock`: `system`, `manual` or `manual=TIME`.
        init(clock: String?, faults: Bool) throws(UsageError) {
            self.faults = faults
            guard let clock, clock != "system" else { return }
            guard clock == "manual" || clock.hasPrefix("manual=") else {
                throw UsageError("--clock must be system, manual or manual=TIME, not '\(clock)'", command: "serve")
            }
            guard clock.hasPrefix("manual=") else {
                manualClockStart = SystemClock().unixTime()
                return
            }
            let time = String(clock.dropFirst("manual=".count))
            guard let start = UnixTime.parse(time) else {
                throw UsageError(
                    "--clock manual=TIME: TIME must be \(UnixTime.expected), not '\(time)'", command: "serve")
            }
            manualClockStart = start
        }
    }

    let options: Options
    /// The server's clock: the manual one, or the machine's.
    let clock: any Clock
    let faults: FaultBoard?

    init(_ options: Options) {
        self.options = options
        clock = options.manualClockStart.map { ManualClock(unixTime: $0) } ?? SystemClock()
        faults = options.faults ? FaultBoard() : nil
    }

    /// The source, answering with injected failures while any are armed.
    func source(_ source: any DefinitionsSource) -> any DefinitionsSource {
        faults.map { FaultInjectingSource(source, faults: $0, clock: clock) } ?? source
    }

    /// The stream, its connections failing as armed.
    func stream(_ stream: (any DefinitionsStreamSource)?) -> (any DefinitionsStreamSource)? {
        guard let stream, let faults else { return stream }
        return FaultInjectingStream(stream, faults: faults, clock: clock)
    }

    func sink(_ sink: (any AnalyticsSink)?) -> (any AnalyticsSink)? {
        guard let sink, let faults else { return sink }
        return FaultInjectingSink(sink, faults: faults, clock: clock)
    }

    /// The parts of a server on `context`'s loop, with the controls its
    /// methods use: on a manual clock the worker is one whose work an
    /// advance of the clock waits for.
    func parts(_ parts: ServerAssembly.Parts, on context: ServerContext) -> ServerAssembly.Parts {
        var parts = parts
        var controls = TestingControls(faults: faults, hasSink: parts.sink != nil)
        if let manual = clock as? ManualClock {
            let worker = SettlingWorker(parts.worker)
            parts.worker = worker
            controls.time = ManualTime(clock: manual, loop: context.loop, worker: worker)
        }
        parts.testing = controls
        return parts
    }
}
