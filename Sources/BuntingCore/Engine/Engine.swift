import BuntingJSON
import BuntingRuntime

/// The heart of Bunting: a coordinator of parts that each own their state,
/// under one owner — the event loop — so that every event has a place in one
/// total order.
///
/// - `UserSession`: the device, the user and their attributes, the session.
/// - `ChannelCaches`: the three channels' caches and item states, and what
///   a client reads of them.
/// - `SubscriptionTable`: who listens.
/// - `DefinitionsFetcher`: the source, polling, retries, waiting refreshes.
/// - `DefinitionsStream`: definitions pushed over Server-Sent Events, and
///   reconnecting the stream.
/// - `AnalyticsQueue`: the durable queue and its delivery to the sink.
/// - `RefreshLimiter`: the manual-refresh buckets.
/// - `StickyAssignments`: GrowthBook's sticky bucket documents of the user.
///
/// The engine decides what a request or an outcome means across parts and
/// sends the events (`EngineEvent`, in the order it describes). Every public
/// entry runs on the loop's thread and checks it (`onLoop`). Blocking work
/// (reading the source, writing the sink) goes to the `Worker` and comes
/// back as a loop job. Time comes from the loop's clock.
///
/// `@unchecked Sendable`: confined to its event loop; it is captured by jobs
/// that run on that loop only.
public final class Engine: @unchecked Sendable {
    let configuration: Configuration
    let loop: EventLoop
    let store: any Store
    let emit: (EngineEvent) -> Void
    let random: RandomSource

    // MARK: Parts (each owns its state; all on the loop)

    let user: UserSession
    let caches: ChannelCaches
    let subscriptions: SubscriptionTable
    let fetcher: DefinitionsFetcher
    let stream: DefinitionsStream
    let analytics: AnalyticsQueue
    let refreshLimiter: RefreshLimiter
    let stickyAssignments: StickyAssignments

    // MARK: State of the engine's own (on the loop)

    /// Set while freed memory waits to be given back (`releaseMemorySoon`).
    var memoryReleaseTimer: EventLoop.TimerToken?
    var isShutDown = false
    /// Told to every event subscription after its replay (see Engine+Storage).
    var storageProblem: String?
    /// What the last refreshes left out for their templates (for `status`).
    var unrendered = UnrenderedItems()
    /// Gives freed memory back to the system; tests count the calls.
    public var releaseMemory: () -> Void = releaseFreedMemory
    /// Hands the events sent so far to the client (a server writes its
    /// output); called once a refresh's events are sent, before its caches
    /// are stored, so that the client reads them while the caches are written.
    public var handOverEvents: () -> Void = {}

    public init(
        configuration: Configuration, loop: EventLoop, worker: any Worker, source: any DefinitionsSource,
        compile: @escaping DefinitionsCompiler, stream: (any DefinitionsStreamSource)? = nil,
        sink: (any AnalyticsSink)?,
        store: any Store, random: SplitMix64 = SplitMix64(), emit: @escaping (EngineEvent) -> Void
    ) {
        self.configuration = configuration
        self.loop = loop
        self.store = store
        self.emit = emit
        let random = RandomSource(random)
        self.random = random
        user = UserSession(store: store, random: random)
        caches = ChannelCaches(store: store, user: store.loadUser(user.userKey))
        subscriptions = SubscriptionTable(maxSubscriptions: configuration.maxSubscriptions)
        fetcher = DefinitionsFetcher(
            source: source, compile: compile, worker: worker, loop: loop, retry: configuration.retry,
            pollInterval: configuration.pollInterval, random: random)
        self.stream = DefinitionsStream(
            source: stream, loop: loop, fetcher: fetcher, retry: configuration.retry, random: random)
        analytics = AnalyticsQueue(
            store: store, sink: sink, worker: worker, loop: loop, retry: configuration.retry,
            flushInterval: configuration.flushInterval, maxBatchSize: configuration.maxBatchSize,
            maxQueuedEvents: configuration.maxQueuedEvents, random: random)
        refreshLimiter = RefreshLimiter(rules: configuration.refreshRules, now: loop.clock.monotonicTime())
        stickyAssignments = StickyAssignments(store: store)
        fetcher.delegate = self
        self.stream.delegate = self
        analytics.delegate = self
    }

    var now: Double { loop.clock.unixTime() }

    /// Checks that the caller runs on the loop (debug builds), then runs
    /// `body`: every public entry goes through it, once.
    @inline(__always)
    func onLoop<T, E: Error>(_ function: StaticString = #function, _ body: () throws(E) -> T) throws(E) -> T {
        loop.assertOnLoop(function)
        return try body()
    }

    public var isSDKEnabled: Bool { onLoop { user.isSDKEnabled } }

    /// The definitions in use, if any.
    var definitions: (any CompiledDefinitions)? { fetcher.definitions }

    // MARK: - Start and stop

    /// Reads the definitions — a local source at once, or with `initialLoad`,
    /// what the caller already read of it (the command line reads a local
    /// file first, to refuse to start on one that is missing or broken) —
    /// and starts the poll and flush timers. Reading the definitions is not a
    /// sync: no cache changes. No session is opened: `openSession` or
    /// `changeUser` does that.
    public func start(initialLoad: FetchOutcome? = nil) {
        onLoop {
            fetcher.start(initialLoad: initialLoad)
            stream.start()
            analytics.start()
            user.save()
        }
    }

    /// Finishes what was started, then calls `done`: timers stop, a fetch
    /// under way completes (its refreshes end in their events), then queued
    /// analytics are flushed — all within `shutdownTimeout`. Events that
    /// could not be sent stay in the store.
    public func shutDown(_ done: @escaping () -> Void) {
        onLoop {
            guard !isShutDown else { return done() }
            isShutDown = true
            fetcher.shutDown()
            stream.shutDown()
            analytics.shutDown()
            if let memoryReleaseTimer { loop.cancel(memoryReleaseTimer) }
            var finished = false
            var timeout: EventLoop.TimerToken?
            let finish = { [self] in
                guard !finished else { return }
                finished = true
                if let timeout { loop.cancel(timeout) }
                done()
            }
            timeout = loop.schedule(after: configuration.shutdownTimeout) { [self] in
                guard !finished else { return }
                let pending = analytics.count
                log.warning(
                    "shutdown: gave up waiting after \(configuration.shutdownTimeout) s"
                        + (pending > 0 ? "; \(pending) events stay queued" : ""))
                finish()
            }
            fetcher.whenSettled { [self] in
                guard analytics.hasSink, user.isSDKEnabled, analytics.count > 0 else { return finish() }
                analytics.flush(all: true) { _, _ in finish() }
            }
        }
    }

    // MARK: - Status

    public func status() -> JSONObject {
        onLoop {
            var channels: JSONObject = [:]
            for channel in Channel.allCases {
                let enabled = isEnabled(channel)
                channels[channel.rawValue] = .object([
                    "enabled": .bool(enabled),
                    "lastSyncAt": enabled ? .number(caches.cache(channel).lastSyncAt) : .null,
                    "itemCount": .int(caches.itemCount(channel, at: now)),
                ])
            }
            var definitionsStatus = fetcher.status
            definitionsStatus["aborted"] = unrenderedStatus
            var status: JSONObject = [
                "userId": user.userId.map(JSON.string) ?? .null,
                "sessionId": user.sessionId.map(JSON.string) ?? .null,
                "sdkEnabled": .bool(user.isSDKEnabled),
                "channels": .object(channels),
                "pendingAnalytics": .int(analytics.count),
                "definitions": .object(definitionsStatus),
            ]
            if let stream = stream.status { status["stream"] = .object(stream) }
            return status
        }
    }

    // MARK: - Shared helpers

    func isEnabled(_ channel: Channel) -> Bool {
        user.isEnabled(channel)
    }
}
