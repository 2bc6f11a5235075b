import BuntingCore
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime

/// The one place a Bunting server is put together, whatever carries its
/// bytes: `bunting serve` over stdin and stdout, the in-process harness of
/// the tests, the fuzz target. Given the server's context and the engine's
/// parts, it makes the engine, sends its events as notifications (the one
/// encoder, `EventNotifications`), commits the store before output can show
/// what a commit keeps (`CommitGate`) and at every turn's end, finishes the
/// engine at shutdown, and builds the method table.
public final class ServerAssembly {
    /// What the engine works with, besides the loop and the clock.
    public struct Parts {
        public var configuration: Engine.Configuration
        public var worker: any Worker
        public var source: any DefinitionsSource
        public var compile: DefinitionsCompiler
        /// Definitions pushed over Server-Sent Events (`--stream`), if any.
        public var stream: (any DefinitionsStreamSource)?
        public var sink: (any AnalyticsSink)?
        public var store: any Store
        public var random: SplitMix64
        /// A clock a script moves and failures on demand (`--clock manual`, `--faults`); none by default.
        public var testing: TestingControls

        public init(
            configuration: Engine.Configuration = Engine.Configuration(), worker: any Worker,
            source: any DefinitionsSource, compile: @escaping DefinitionsCompiler,
            stream: (any DefinitionsStreamSource)? = nil,
            sink: (any AnalyticsSink)?, store: any Store, random: SplitMix64 = SplitMix64(),
            testing: TestingControls = .none
        ) {
            self.configuration = configuration
            self.worker = worker
            self.source = source
            self.compile = compile
            self.stream = stream
            self.sink = sink
            self.store = store
            self.random = random
            self.testing = testing
        }
    }

    public let engine: Engine
    public let table: MethodTable

    /// Assembles the server in `context` (on its loop's thread). The engine
    /// is not started: `start(initialLoad:)` does that, once the caller has
    /// added what else runs at shutdown.
    public init(context: ServerContext, parts: Parts) {
        let gate = CommitGate(store: parts.store)
        let notify = { (event: EngineEvent) in Self.send(event, in: context) }
        let engine = Engine(
            configuration: parts.configuration, loop: context.loop, worker: parts.worker, source: parts.source,
            compile: parts.compile, stream: parts.stream, sink: parts.sink, store: parts.store, random: parts.random
        ) { event in
            gate.sent(event)
            notify(event)
        }
        // One commit for the writes of a turn, made before the client can see
        // what they report (ENQUEUED), and at the turn's end at the latest.
        // Weak: the loop and the context keep the hook for good, and must not
        // keep the engine and the context with it (a server run in process
        // would never be freed).
        let commit = { [weak engine, weak context] in
            guard let engine, let context else { return }
            gate.commit(engine: engine) { Self.send($0, in: context) }
        }
        context.beforeOutput = commit
        context.loop.addTurnEndHook(commit)
        // A refresh's events go out before its caches are written (and committed).
        engine.handOverEvents = { [weak context] in context?.flushOutput?() }
        context.onShutdown { done in engine.shutDown(done) }
        self.engine = engine
        table = BuntingMethods.table(engine: engine, context: context, testing: parts.testing)
    }

    private static func send(_ event: EngineEvent, in context: ServerContext) {
        let notification = EventNotifications.notification(for: event)
        context.notify(method: notification.method, params: notification.params)
    }

    /// Starts the engine (see `Engine.start`); a storage problem found while
    /// opening the store is told to every subscription.
    public func start(initialLoad: Engine.FetchOutcome? = nil, storageProblem: String? = nil) {
        engine.start(initialLoad: initialLoad)
        if let storageProblem { engine.reportStorageProblem(storageProblem) }
    }
}
