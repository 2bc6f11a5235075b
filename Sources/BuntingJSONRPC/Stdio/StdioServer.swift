#if canImport(Glibc)
import Glibc
#endif
import BuntingJSON
import BuntingRuntime
import Synchronization

/// Serves JSON-RPC on stdin/stdout until end of input, `shutdown` or SIGTERM.
///
/// Threads: a reader (stdin → framed, parsed messages), the event loop (the
/// one owner of the connection and the engine), a writer (framed replies →
/// stdout) and a signal waiter. stdout is kept for the protocol alone: at
/// start the real stdout is moved to a private descriptor and fd 1 is pointed
/// at stderr, so a stray print can never corrupt the stream.
public final class StdioServer {
    public struct Options: Sendable {
        public var framing: FramingChoice = .auto
        /// Largest message accepted; larger ones are skipped with an error.
        public var maxMessageBytes = 16 << 20
        /// Deepest nesting of arrays and objects accepted in a message.
        public var maxDepth = JSON.defaultMaxDepth
        /// Output waiting for a client that does not read, before the server waits too.
        public var maxPendingOutputBytes = 8 << 20
        /// Longest wait for shutdown work and for the last output to be written.
        public var shutdownTimeout = 10.0

        public init() {}
    }

    private let options: Options
    private let loop: EventLoop

    public init(options: Options, clock: any Clock = SystemClock()) {
        self.options = options
        self.loop = EventLoop(clock: clock)
    }

    /// Runs the server; `setUp` runs on the event loop and returns the method
    /// table. Returns the exit status.
    public func run(setUp: @escaping @Sendable (ServerContext) -> MethodTable) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let protocolOut = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard protocolOut >= 0 else {
            log.error("cannot duplicate stdout (errno \(errno))")
            return 1
        }
        dup2(2, 1)
        let signals = Self.blockTerminationSignals()

        let exitStatus = ExitSignal()
        let writer = OutputWriter(fd: protocolOut, maxPendingBytes: options.maxPendingOutputBytes)
        let reader = InputReader(
            fd: 0, framing: options.framing, maxMessageBytes: options.maxMessageBytes, maxDepth: options.maxDepth)
        let loop = self.loop
        let owned = LoopOwned<ServerContext>()

        writer.start()
        loop.addTurnEndHook { writer.flushStaged() }
        loop.post {
            let context = ServerContext(loop: loop, stopInput: { reader.stop() }) { status in
                writer.flushStaged()  // runs on the loop, which owns the staged bytes
                exitStatus.set(status)
            }
            let methods = setUp(context)
            context.connection = RPCConnection(methods: methods, send: writer.stage)
            owned.value = context
        }
        if case .ndjson = options.framing { writer.setFraming(.ndjson) }
        if case .lsp = options.framing { writer.setFraming(.lsp) }
        reader.start(
            framingDetected: { framing in
                writer.setFraming(framing)
                loop.post { owned.value?.framing = framing }
            },
            deliver: { items in
                loop.postWaitingForRoom {
                    guard let connection = owned.value?.connection else { return }
                    for item in items { connection.receive(item) }
                }
            },
            ended: {
                loop.post {
                    log.debug("end of input")
                    owned.value?.shutDown()
                }
            })
        Self.waitForTerminationSignal(signals) {
            loop.post {
                log.info("termination signal: shutting down")
                owned.value?.shutDown()
            }
        }
        loop.start()

        let status = exitStatus.wait()
        if !writer.drain(timeout: options.shutdownTimeout) {
            log.warning("not all output could be written before exit")
        }
        return status
    }

    // MARK: - Signals

    private static func blockTerminationSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGHUP)
        // Threads started from here on inherit the mask, so only the waiter sees these signals.
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return set
    }

    private static func waitForTerminationSignal(_ set: sigset_t, then: @escaping @Sendable () -> Void) {
        let signals = SignalSet(set)
        startThread(name: "bunting-signals", stackSize: 1 << 16) {
            var set = signals.set
            var received: Int32 = 0
            while sigwait(&set, &received) != 0 {}
            then()
        }
    }
}

/// A `sigset_t` handed to another thread; it is plain data, copied on the way.
private struct SignalSet: @unchecked Sendable {
    let set: sigset_t
    init(_ set: sigset_t) { self.set = set }
}

/// A value created on the loop and used only there, reachable from jobs.
///
/// `@unchecked Sendable`: `value` is read and written only on the loop thread.
private final class LoopOwned<Value>: @unchecked Sendable {
    var value: Value?
}

/// The exit status, set once by the loop and awaited by the main thread.
private final class ExitSignal: Sendable {
    private let lock = ConditionLock()
    private let status = Mutex<Int32?>(nil)

    func set(_ value: Int32) {
        lock.withLock {
            status.withLock { if $0 == nil { $0 = value } }
            lock.broadcast()
        }
    }

    func wait() -> Int32 {
        lock.withLock {
            while true {
                if let value = status.withLock({ $0 }) { return value }
                lock.wait()
            }
        }
    }
}
