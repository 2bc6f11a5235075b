import BuntingJSON
import BuntingRuntime

/// The heart of Bunting: the user and session, the three channels' caches,
/// subscriptions, rate limiters, refreshes and the analytics queue, under one
/// owner — the event loop — so that every event has a place in one total order.
///
/// Every method runs on the loop's thread. Blocking work (reading the source,
/// writing the sink) goes to the `Worker` and comes back as a loop job. Time
/// comes from the loop's clock. Events go out through `emit` as
/// `EngineEvent` values, in the order `EngineEvent` describes.
///
/// `@unchecked Sendable`: confined to its event loop; it is captured by jobs
/// that run on that loop only.
public final class Engine: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var retry = RetryPolicy()
        public var refreshRules = TokenBucket.defaultRules
        public var flushInterval = 10.0
        /// How often the source is checked for a new document; nil: never.
        public var pollInterval: Double? = Self.defaultPollInterval(localSource: false)
        public var maxBatchSize = 100
        public var maxQueuedEvents = 10_000
        public var maxPlacementsPerRefresh = 10
        /// Longest wait at shutdown for a fetch under way and then the sink;
        /// what is not sent stays queued.
        public var shutdownTimeout = 5.0

        public init() {}

        /// A file costs one `stat` a poll, so files are watched closely;
        /// servers are asked less often.
        public static func defaultPollInterval(localSource: Bool) -> Double {
            localSource ? 1 : 30
        }
    }

    let configuration: Configuration
    let loop: EventLoop
    let worker: any Worker
    let source: any DefinitionsSource
    let compile: DefinitionsCompiler
    let sink: (any AnalyticsSink)?
    let store: any Store
    let emit: (EngineEvent) -> Void
    var random: SplitMix64

    // MARK: State (all owned by the loop)

    var profile: StoredProfile
    var definitions: (any CompiledDefinitions)?
    /// The source's version of `definitions` (for conditional fetches).
    var definitionsVersion: SourceVersion?
    /// A digest of the bytes of `definitions`, to tell a real change from a re-save.
    var definitionsDigest: UInt64?
    /// The current user's caches and item states.
    var caches: [Channel: ChannelCache] = [:]
    var itemStates: [Channel: [String: ItemState]] = [:]
    /// The caches of users switched away from, for switching back.
    var recentUserCaches = RecentUserCaches()
    var subscriptions: [Subscription] = []
    /// The ids of definitions subscriptions (`subscribeToDefinitions`).
    var definitionsSubscriptions: [String] = []
    /// An ERROR was told to definitions subscriptions; the next good fetch tells READY.
    var definitionsErrorTold = false
    /// When the definitions in use were adopted (Unix seconds).
    var definitionsLoadedAt: Double?
    var nextSubscriptionNumber = 1
    var buckets: [Channel: TokenBucket] = [:]
    /// Bumped by `changeUser` and `wipeData`; refreshes made before are dropped.
    var userGeneration = 0
    var sessionFlagImpressions: Set<String> = []

    // Refreshes and polling
    var waitingRefreshes: [RefreshRequest] = []
    var fetchInFlight = false
    var fetchFailedTries = 0
    var fetchRetryTimer: EventLoop.TimerToken?
    var pollTimer: EventLoop.TimerToken?
    /// Set while freed memory waits to be given back (`releaseMemorySoon`).
    var memoryReleaseTimer: EventLoop.TimerToken?
    /// Gives freed memory back to the system; tests count the calls.
    public var releaseMemory: () -> Void = releaseFreedMemory
    /// The last problem a poll reported, so that a lasting problem is reported once.
    var lastPollProblem: String?
    /// The source's version of the last document refused as invalid: polls
    /// skip it until it changes, instead of reading and parsing it again.
    var refusedVersion: SourceVersion?
    /// Why there are no definitions, while there are none: what a subscriber
    /// is told instead of FEATURE_DISABLED.
    var definitionsProblem: ChannelError?

    // Analytics
    var flushInFlight = false
    var flushFailedTries = 0
    var flushRetryTimer: EventLoop.TimerToken?
    var flushTimer: EventLoop.TimerToken?
    var flushRequests: [FlushRequest] = []
    /// Events the sink accepted whose FLUSHED waits for the flush's reply.
    var flushedAwaitingReply: [AnalyticsEvent] = []
    /// A refused batch being searched for the events the sink refuses.
    var isolation: BatchIsolation?

    var isShutDown = false
    /// Run when the fetch under way ends (shutting down waits for it).
    var fetchSettled: [() -> Void] = []
    /// Told to every event subscription after its replay (see Engine+Storage).
    var storageProblem: String?

    public init(
        configuration: Configuration, loop: EventLoop, worker: any Worker, source: any DefinitionsSource,
        compile: @escaping DefinitionsCompiler, sink: (any AnalyticsSink)?, store: any Store,
        random: SplitMix64 = SplitMix64(), emit: @escaping (EngineEvent) -> Void
    ) {
        self.configuration = configuration
        self.loop = loop
        self.worker = worker
        self.source = source
        self.compile = compile
        self.sink = sink
        self.store = store
        self.emit = emit
        var generator = random
        self.profile = store.loadProfile() ?? StoredProfile(deviceId: generator.identifier())
        self.random = generator
        let now = loop.clock.unixTime()
        for channel in Channel.allCases {
            let rule = configuration.refreshRules[channel] ?? TokenBucket.defaultRules[channel]!
            buckets[channel] = TokenBucket(rule: rule, now: now)
        }
        adoptCurrentUser(store.loadUser(userKey))
    }

    var now: Double { loop.clock.unixTime() }

    public var isSDKEnabled: Bool { profile.sdkEnabled }

    /// The key under which the current user's data is stored; the anonymous
    /// user is the empty string (user ids are never empty).
    var userKey: String { profile.userId ?? "" }

    var subject: EvaluationSubject {
        EvaluationSubject(targetingKey: profile.userId ?? profile.deviceId, attributes: profile.attributes)
    }

    // MARK: - Start and stop

    /// Reads the definitions — a local source at once, or with `initialLoad`,
    /// what the caller already read of it (the command line reads a local
    /// file first, to refuse to start on one that is missing or broken) —
    /// and starts the poll and flush timers. Reading the definitions is not a
    /// sync: no cache changes. No session is opened: `openSession` or
    /// `changeUser` does that.
    public func start(initialLoad: FetchOutcome? = nil) {
        loop.assertOnLoop()
        if source.isLocal {
            switch initialLoad ?? Self.fetchAndCompile(source: source, since: nil, compile: compile) {
            case .loaded(let compiled, let version, let digest):
                adopt(compiled, version: version, digest: digest)
            case .invalid(let error, let version):
                noteStartUpProblem(invalidDefinitionsError(error), problem: error.description, refused: version)
            case .failed(let failure):
                noteStartUpProblem(failureError(failure, willRetry: true), problem: failure.message, refused: nil)
            case .unchanged, .sameContent:
                break
            }
        } else {
            poll()
        }
        schedulePoll()
        scheduleFlush()
        saveProfile()
    }

    /// A local source that could not be used at start-up: logged once, told
    /// to each subscriber in place of FEATURE_DISABLED, and not logged again
    /// by polls that find it the same.
    private func noteStartUpProblem(_ error: ChannelError, problem: String, refused: SourceVersion?) {
        log.warning("cannot use the definitions at \(source.location): \(problem)")
        definitionsProblem = error
        lastPollProblem = problem
        refusedVersion = refused
    }

    /// Finishes what was started, then calls `done`: timers stop, a fetch
    /// under way completes (its refreshes end in their events), then queued
    /// analytics are flushed — all within `shutdownTimeout`. Events that
    /// could not be sent stay in the store.
    public func shutDown(_ done: @escaping () -> Void) {
        loop.assertOnLoop()
        guard !isShutDown else { return done() }
        isShutDown = true
        for timer in [pollTimer, flushTimer, fetchRetryTimer, flushRetryTimer, memoryReleaseTimer].compactMap({ $0 }) { loop.cancel(timer) }
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
            let pending = store.queuedEventCount
            log.warning("shutdown: gave up waiting after \(configuration.shutdownTimeout) s"
                + (pending > 0 ? "; \(pending) events stay queued" : ""))
            finish()
        }
        whenFetchSettles { [self] in
            guard sink != nil, profile.sdkEnabled, store.queuedEventCount > 0 else { return finish() }
            flush(all: true) { _, _ in finish() }
        }
    }

    /// Runs `body` once no fetch is under way.
    func whenFetchSettles(_ body: @escaping () -> Void) {
        if fetchInFlight {
            fetchSettled.append(body)
        } else {
            body()
        }
    }

    // MARK: - Status

    public func status() -> JSONObject {
        var channels: JSONObject = [:]
        for channel in Channel.allCases {
            let enabled = isEnabled(channel)
            channels[channel.rawValue] = .object([
                "enabled": .bool(enabled),
                "lastSyncAt": enabled ? .number(cache(channel).lastSyncAt) : .null,
                "itemCount": .int(itemCount(channel)),
            ])
        }
        return [
            "userId": profile.userId.map(JSON.string) ?? .null,
            "sessionId": profile.sessionId.map(JSON.string) ?? .null,
            "sdkEnabled": .bool(profile.sdkEnabled),
            "channels": .object(channels),
            "pendingAnalytics": .int(store.queuedEventCount),
            "definitions": .object(definitionsStatus),
        ]
    }

    /// Where the definitions come from, whether they are loaded, and what is
    /// wrong in them.
    var definitionsStatus: JSONObject {
        // A document served on a note's word, then refused by its full load, serves nothing: not loaded.
        let refusal = definitions?.refusal
        let loaded = definitions != nil && refusal == nil
        var status: JSONObject = ["location": .string(source.location), "loaded": .bool(loaded)]
        if let definitionsLoadedAt, loaded { status["loadedAt"] = .number(definitionsLoadedAt) }
        status["problems"] = .array((definitions?.problems ?? []).map(\.json))
        // The source's problem now, as the last fetch found it.
        if let problem = lastPollProblem ?? refusal?.description { status["lastError"] = .string(problem) }
        return status
    }

    // MARK: - Shared helpers

    func isEnabled(_ channel: Channel) -> Bool {
        profile.channelsEnabled[channel] ?? false
    }

    func cache(_ channel: Channel) -> ChannelCache {
        caches[channel] ?? ChannelCache()
    }

    func saveProfile() {
        profile.sessionFlagImpressions = sessionFlagImpressions.sorted()
        do {
            try store.saveProfile(profile)
        } catch {
            log.error("cannot save state: \(error.message)")
        }
    }

    /// Makes the current user's data the live state: their caches as kept
    /// in memory when given, else as `stored` holds them.
    func adoptCurrentUser(_ stored: StoredUser, keptCaches: [Channel: ChannelCache]? = nil) {
        caches = keptCaches ?? stored.caches.mapValues(ChannelCache.init(stored:))
        itemStates = stored.itemStates
        sessionFlagImpressions = Set(profile.sessionFlagImpressions)
    }

    func saveCache(_ channel: Channel) {
        do {
            try store.saveChannelCache(user: userKey, channel: channel, encoded: cache(channel).encoded)
        } catch {
            log.error("cannot save the \(channel.rawValue) cache: \(error.message)")
        }
    }
}
