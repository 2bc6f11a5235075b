#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime

/// Serves JSON-RPC on stdin/stdout until end of input, `shutdown` or a
/// termination signal.
///
/// One thread does the protocol: the event loop, run on the calling thread,
/// reads stdin when it is readable, answers, and writes stdout when it has
/// room, so that a request that needs no I/O costs no hand-over between
/// threads. Termination signals arrive on the loop too (a signalfd); blocking
/// work (reading a definitions URL, writing to the sink) goes to worker
/// threads that post their results back.
///
/// stdout is kept for the protocol alone: the real stdout is moved to a
/// private descriptor and fd 1 is pointed at stderr, so a stray print can
/// never corrupt the stream.
public final class StdioServer {
    public struct Options: Sendable {
        public var framing: FramingChoice = .auto
        /// Largest message accepted; larger ones are skipped with an error.
        public var maxMessageBytes = 16 << 20
        /// Deepest nesting of arrays and objects accepted in a message.
        public var maxDepth = JSON.defaultMaxDepth
        /// Output waiting for a client that does not read, before the server stops reading.
        public var maxPendingOutputBytes = 8 << 20
        /// Batch bounds.
        public var limits = RPCConnection.Limits()
        /// Longest wait at exit for a client that takes none of the last output.
        public var outputDrainTimeout = 10.0

        public init() {}
    }

    private let options: Options
    public let loop: EventLoop

    public init(options: Options, clock: any Clock = SystemClock()) {
        self.options = options
        self.loop = EventLoop(clock: clock)
    }

    /// Runs the server on the calling thread; `setUp` returns the method
    /// table. Returns the exit status.
    public func run(setUp: (ServerContext) -> MethodTable) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let protocolOut = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard protocolOut >= 0 else {
            log.error("cannot duplicate stdout (errno \(errno))")
            return 1
        }
        dup2(2, 1)
        let signals = TerminationSignals()
        let loop = self.loop

        let output = OutputChannel(loop: loop, fd: protocolOut, maxPendingBytes: options.maxPendingOutputBytes)
        var forced: Framing?
        switch options.framing {
        case .ndjson: forced = .ndjson
        case .lsp: forced = .lsp
        case .auto: forced = nil
        }
        if let forced { output.setFraming(forced) }
        let input = InputChannel(
            loop: loop, fd: 0,
            settings: InputChannel.Settings(
                framing: options.framing, maxMessageBytes: options.maxMessageBytes, maxDepth: options.maxDepth,
                maxBatchLength: options.limits.maxBatchLength))
        var exitStatus: Int32 = 0
        let context = ServerContext(loop: loop, stopInput: { input.stop() }) { status in
            exitStatus = status
            loop.stop()
        }
        let connection = RPCConnection(methods: setUp(context), limits: options.limits, send: output.stage)
        context.attach(connection)
        context.framing = forced

        input.framingDetected = { framing in
            output.setFraming(framing)
            context.framing = framing
        }
        input.deliver = connection.receive
        input.inputEnded = {
            log.debug("end of input")
            context.shutDown()
        }
        output.beforeWrite = { context.beforeOutput?() }
        context.flushOutput = { output.flush() }
        output.onFull = { input.pause() }
        output.onRoom = { input.resume() }
        loop.addTurnEndHook { output.flush() }
        signals.watch(on: loop) { signal in
            if context.isShuttingDown {
                log.warning("second termination signal: exiting without waiting further")
                exitStatus = 1
                loop.stop()
            } else {
                log.info("termination signal \(signal): shutting down")
                context.shutDown()
            }
        }
        input.start()
        loop.run()

        if !output.drain(timeout: options.outputDrainTimeout) {
            log.warning("not all output could be written before exit")
        }
        withExtendedLifetime(signals) {}
        return exitStatus
    }
}
