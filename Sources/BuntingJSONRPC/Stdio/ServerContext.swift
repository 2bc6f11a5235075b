import BuntingJSON
import BuntingRuntime

/// What the methods and the engine may ask of the running server. Owned by
/// the event loop: use it only on the loop's thread.
public final class ServerContext {
    public let loop: EventLoop
    /// The framing of the connection, once the first bytes have decided it.
    public internal(set) var framing: Framing?
    /// Set by whoever carries the bytes (`StdioServer`, a test's in-process
    /// connection) once the connection exists: notifications go through it.
    private(set) var connection: RPCConnection?
    /// Work to finish before the process exits (finish refreshes, flush
    /// analytics, close storage), run one after the other; each calls its
    /// continuation when done.
    private var shutdownSteps: [(@escaping () -> Void) -> Void] = []
    private let exit: (Int32) -> Void
    private let stopInput: () -> Void
    public private(set) var isShuttingDown = false
    /// Runs before output staged so far reaches the client, including a
    /// write that starts before the turn ends: what a message reports must be
    /// done by the time it can be seen (a storage commit, for ENQUEUED).
    public var beforeOutput: (() -> Void)?
    /// Hands what was staged so far to the client now, rather than at the
    /// turn's end (set by whoever carries the bytes): for a method that
    /// answered and has long work left in the same turn.
    public var flushOutput: (() -> Void)?

    public init(loop: EventLoop, stopInput: @escaping () -> Void, exit: @escaping (Int32) -> Void) {
        self.loop = loop
        self.stopInput = stopInput
        self.exit = exit
    }

    /// Sends notifications through `connection` from now on.
    public func attach(_ connection: RPCConnection) {
        self.connection = connection
    }

    /// Sends a notification to the client (after the reply being written now, if any).
    public func notify(method: String, params: SplicedJSON) {
        connection?.notify(method: method, params: params)
    }

    public func notify(method: String, params: EncodedJSON) {
        notify(method: method, params: SplicedJSON(params))
    }

    public func notify(method: String, params: JSON) {
        notify(method: method, params: EncodedJSON(params))
    }

    /// Adds a step to run at shutdown, after the ones added before it.
    public func onShutdown(_ step: @escaping (@escaping () -> Void) -> Void) {
        shutdownSteps.append(step)
    }

    /// Stops taking requests, runs the shutdown steps, then exits with `status`.
    /// Calling it again while shutting down does nothing.
    public func shutDown(status: Int32 = 0) {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        connection?.beginShutdown()
        stopInput()
        runShutdownSteps(shutdownSteps[...], status: status)
    }

    private func runShutdownSteps(_ steps: ArraySlice<(@escaping () -> Void) -> Void>, status: Int32) {
        guard let step = steps.first else {
            // As a job of its own, so that messages already read are answered
            // (with SHUTTING_DOWN) before the process ends.
            loop.enqueue { [self] in
                releaseServer()
                exit(status)
            }
            return
        }
        step { [self] in runShutdownSteps(steps.dropFirst(), status: status) }
    }

    /// Lets go of the server once it has shut down: the connection's method
    /// table and the shutdown steps hold the engine, whose events hold this
    /// context, a cycle that would outlive a server run in process (tests,
    /// the dispatch fuzz target).
    private func releaseServer() {
        connection = nil
        beforeOutput = nil
        shutdownSteps = []
    }
}
