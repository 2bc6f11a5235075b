import BuntingJSON
import BuntingRuntime

/// What the fetcher needs of the engine it works for: whether to fetch at
/// all, who listens, and what to do with what a fetch brought.
protocol DefinitionsFetcherDelegate: AnyObject {
    var isSDKEnabled: Bool { get }
    /// The current user's generation: refreshes made for an earlier user are dropped.
    var userGeneration: Int { get }
    var subscribedChannels: [Channel] { get }
    var hasDefinitionsSubscribers: Bool { get }
    /// `compiled` is now in use (the fetcher has recorded it); `previous` was.
    func definitionsAdopted(_ compiled: any CompiledDefinitions, previous: (any CompiledDefinitions)?, changed: Bool)
    /// Finishes refreshes with the definitions in use.
    func complete(_ requests: [RefreshRequest])
    func sendError(_ channel: Channel, _ error: ChannelProblem)
    func tellDefinitions(_ notice: DefinitionsNotice)
    /// The source's server announced a stream of the document (GrowthBook's way).
    func streamAnnounced(_ stream: any DefinitionsStreamSource)
}

/// Where the definitions come from and what came: reading the source off the
/// loop and compiling what it gives, polling it, retrying it on failure as
/// the failure model says, and the refreshes that wait for it. Owned by the
/// engine's loop; what a fetch brings goes to its delegate.
///
/// A refresh asked for while a fetch is under way waits for the next one
/// when it is a manual refresh: it must see the source as it is after it
/// was asked, not the answer to a request sent before.
///
/// `@unchecked Sendable`: confined to the loop; captured by jobs that the
/// worker posts back to that loop only.
final class DefinitionsFetcher: @unchecked Sendable {
    /// What one fetch came back with, after compiling on the worker.
    typealias Outcome = Engine.FetchOutcome

    private let source: any DefinitionsSource
    private let compile: DefinitionsCompiler
    private let worker: any Worker
    private let loop: EventLoop
    private let retry: RetryPolicy
    private let pollInterval: Double?
    private let random: RandomSource
    weak var delegate: (any DefinitionsFetcherDelegate)?

    // MARK: State

    /// The definitions in use, and when they were adopted (Unix seconds).
    private(set) var definitions: (any CompiledDefinitions)?
    private(set) var loadedAt: Double?
    /// The source's version of `definitions` (for conditional fetches).
    private var version: SourceVersion?
    /// A digest of the bytes of `definitions`, to tell a real change from a re-save.
    private var digest: UInt64?
    /// Why there are no definitions, while there are none: what a subscriber
    /// is told instead of FEATURE_DISABLED.
    private(set) var problem: ChannelProblem?
    /// The last problem a fetch found, so that a lasting problem is reported once.
    private(set) var lastProblem: String?
    /// The last document refused as invalid: polls ask for it by its exact
    /// validators (the ETag) and recognise its bytes, instead of reading,
    /// parsing and reporting it again.
    private var refused: (version: SourceVersion?, digest: UInt64?)?
    /// An ERROR was told to definitions subscribers; the next good fetch tells READY.
    private var errorTold = false
    /// Refreshes that the fetch under way (or the next) finishes.
    private var waiting: [RefreshRequest] = []
    /// Manual refreshes asked for while a fetch was under way: they wait for one started after them.
    private var waitingForNext: [RefreshRequest] = []
    private var inFlight = false
    private var failedTries = 0
    private var retryTimer: EventLoop.TimerToken?
    private var pollTimer: EventLoop.TimerToken?
    /// Monotonic time before which polls wait: the server's last Retry-After
    /// outlives the retry cycle that gave up.
    private var pollsWaitUntil: Double?
    /// Run when the fetch under way ends (shutting down waits for it).
    private var settled: [() -> Void] = []
    private var isShutDown = false
    /// A stream pushes the document: polls wait while it is connected
    /// (once there is a document: a quiet stream would never bring the first).
    var streamConnected = false
    /// A check asked for while a fetch was under way: it runs when that one ends.
    private var checkAfterFetch = false
    /// The last document a stream pushed that was refused, so that it is reported once.
    private var pushedProblem: String?
    /// What runs when each pushed document being compiled is settled, by a number of its own.
    private var pushedCompiles: [Int: () -> Void] = [:]
    private var pushedCompileCount = 0

    init(
        source: any DefinitionsSource, compile: @escaping DefinitionsCompiler, worker: any Worker, loop: EventLoop,
        retry: RetryPolicy, pollInterval: Double?, random: RandomSource
    ) {
        self.source = source
        self.compile = compile
        self.worker = worker
        self.loop = loop
        self.retry = retry
        self.pollInterval = pollInterval
        self.random = random
    }

    var location: String { source.location }
    /// A fetch is under way or a retry is scheduled: a document may be on its way.
    var isFetching: Bool { inFlight || retryTimer != nil }
    var isLocal: Bool { source.isLocal }

    private var now: Double { loop.clock.unixTime() }

    // MARK: - Start and stop

    /// Reads a local source at once (or takes `initialLoad`, what the caller
    /// already read of it), or starts fetching a remote one; then polls.
    func start(initialLoad: Outcome?) {
        if source.isLocal {
            switch initialLoad ?? Engine.fetchAndCompile(source: source, since: nil, compile: compile) {
            case .loaded(let compiled, let version, let digest):
                adopt(compiled, version: version, digest: digest)
            case .invalid(let error, let version, let digest):
                noteStartUpProblem(invalidError(error), problem: error.description, refused: (version, digest))
            case .failed(let failure):
                noteStartUpProblem(failureError(failure, willRetry: true), problem: failure.message, refused: nil)
            case .unchanged, .sameContent:
                break
            }
        } else {
            poll()
        }
        schedulePoll()
    }

    /// A local source that could not be used at start-up: logged once, told
    /// to each subscriber in place of FEATURE_DISABLED, and not logged again
    /// by polls that find it the same.
    private func noteStartUpProblem(_ error: ChannelProblem, problem: String, refused: (SourceVersion?, UInt64?)?) {
        log.warning("cannot use the definitions at \(source.location): \(problem)")
        self.problem = error
        lastProblem = problem
        self.refused = refused
    }

    /// No more polls or retries; a fetch under way still ends (`whenSettled`).
    func shutDown() {
        isShutDown = true
        for timer in [pollTimer, retryTimer].compactMap({ $0 }) { loop.cancel(timer) }
        pollTimer = nil
        retryTimer = nil
    }

    /// The SDK was turned off: nothing waits, nothing is retried.
    func pause() {
        waiting.removeAll()
        waitingForNext.removeAll()
        if let retryTimer { loop.cancel(retryTimer) }
        retryTimer = nil
        failedTries = 0
    }

    /// Runs `body` once no fetch is under way.
    func whenSettled(_ body: @escaping () -> Void) {
        if inFlight {
            settled.append(body)
        } else {
            body()
        }
    }

    // MARK: - Refreshes

    /// Queues a refresh that needs the source read, and starts a fetch unless
    /// one is running or a retry is already scheduled (the refresh then
    /// rides on it). A manual refresh does not ride on a fetch already under
    /// way: another one starts when it ends.
    func request(_ refresh: RefreshRequest) {
        if inFlight && refresh.reason == .manualServerRefresh {
            waitingForNext.append(refresh)
            return
        }
        waiting.append(refresh)
        if !inFlight && retryTimer == nil { startFetch(fromPoll: false) }
    }

    /// Drops the refreshes made for another user than the one of `generation`.
    func dropRefreshes(notOf generation: Int) {
        waiting.removeAll { $0.userGeneration != generation }
        waitingForNext.removeAll { $0.userGeneration != generation }
    }

    func dropAllRefreshes() {
        waiting.removeAll()
        waitingForNext.removeAll()
    }

    // MARK: - Polling

    private func schedulePoll() {
        guard let pollInterval, !isShutDown else { return }
        pollTimer = loop.schedule(after: pollInterval) { [self] in
            poll()
            schedulePoll()
        }
    }

    /// Checks the source for a new document; a change re-evaluates each
    /// subscribed channel (AUTO_SERVER_REFRESH). Skipped while a fetch or a
    /// retry is under way, while the SDK is disabled, and until the time the
    /// server last asked to be left alone.
    func poll() {
        guard delegate?.isSDKEnabled ?? false, !inFlight, retryTimer == nil, !isShutDown else { return }
        guard !streamConnected || definitions == nil else { return }
        if let pollsWaitUntil {
            guard loop.clock.monotonicTime() >= pollsWaitUntil else { return }
            self.pollsWaitUntil = nil
        }
        log.debug("checking \(source.location) for a new document")
        startFetch(fromPoll: true)
    }

    /// A conditional fetch now, even while a stream is connected, as a poll
    /// makes it: a stream said that the document changed without sending
    /// it, or may have missed a change. During a fetch it runs once that
    /// one ends, since that one may have been answered before the change.
    func checkNow() {
        guard delegate?.isSDKEnabled ?? false, !isShutDown else { return }
        if inFlight {
            checkAfterFetch = true
        } else if retryTimer == nil {
            log.debug("checking \(source.location) for a new document, as the stream asked")
            startFetch(fromPoll: true)
        }
    }

    // MARK: - Fetching

    private func startFetch(fromPoll: Bool) {
        inFlight = true
        let source = self.source
        let compile = self.compile
        let since: SourceVersion?
        if fromPoll, let refused {
            // A poll asks whether the refused document changed; by its ETag
            // only: a Last-Modified of a refused document made the good one,
            // put back with an older date, look unchanged for ever.
            since = refused.version.flatMap {
                $0.etag == nil && $0.fingerprint == nil
                    ? nil : SourceVersion(etag: $0.etag, fingerprint: $0.fingerprint)
            }
        } else if fromPoll {
            since = version
        } else {
            // A manual refresh reads the source again whatever it holds.
            since = definitions == nil ? nil : version
        }
        let current = digest
        let refusedDigest = fromPoll ? refused?.digest : nil
        worker.run(
            {
                Engine.fetchAndCompile(
                    source: source, since: since, currentDigest: current, refusedDigest: refusedDigest, compile: compile
                )
            },
            then: { [self] outcome in
                finish(outcome, fromPoll: fromPoll)
            }, on: loop)
    }

    private func finish(_ outcome: Outcome, fromPoll: Bool) {
        inFlight = false
        // Shutting down waits for this fetch (its refreshes end in their events).
        defer {
            let continuations = settled
            settled.removeAll()
            for continuation in continuations { continuation() }
            startFetchForWaitingManualRefreshes()
            if checkAfterFetch {
                checkAfterFetch = false
                checkNow()
            }
        }
        guard let delegate else { return }
        if let announced = source.announcedStream { delegate.streamAnnounced(announced) }
        let generation = delegate.userGeneration
        let requests = waiting.filter { $0.userGeneration == generation }
        waiting.removeAll()
        guard delegate.isSDKEnabled else { return }
        switch outcome {
        case .loaded(let compiled, let version, let digest):
            failedTries = 0
            lastProblem = nil
            refused = nil
            let changed = adopt(compiled, version: version, digest: digest)
            delegate.complete(requests)
            if changed {
                let done = Set(requests.map(\.channel))
                delegate.complete(
                    delegate.subscribedChannels.filter { !done.contains($0) }.map { autoRefresh($0, generation) })
            }
        case .sameContent(let version):
            // The document in use, written again (after a broken one, say).
            self.version = version
            refused = nil
            lastProblem = nil
            fallthrough
        case .unchanged:
            failedTries = 0
            if errorTold, refused == nil, let loadedAt, definitions != nil {
                errorTold = false
                delegate.tellDefinitions(.ready(loadedAt: loadedAt))
            }
            // A poll that found a refused document unchanged found no news.
            if !(fromPoll && refused != nil) { lastProblem = nil }
            delegate.complete(requests)
        case .invalid(let error, let version, let digest):
            failedTries = 0
            refused = (version, digest)
            if definitions == nil { problem = invalidError(error) }
            if fromPoll {
                guard lastProblem != error.description || !requests.isEmpty else { return }
                lastProblem = error.description
            }
            log.warning("definitions at \(source.location) are invalid: \(error.description)")
            tellError(invalidError(error))
            let affected = fromPoll ? channelsOf(requests, plus: delegate.subscribedChannels) : channelsOf(requests)
            for channel in affected {
                delegate.sendError(channel, ChannelProblem(.invalidServerData, .doNotRetry, message: error.description))
            }
        case .failed(let failure):
            var failed = requests
            if definitions == nil { problem = failureError(failure, willRetry: true) }
            if fromPoll {
                guard lastProblem != failure.message || !requests.isEmpty else { return }
                lastProblem = failure.message
                let asked = Set(requests.map(\.channel))
                failed += delegate.subscribedChannels.filter { !asked.contains($0) }.map { autoRefresh($0, generation) }
            }
            log.warning("cannot fetch definitions from \(source.location): \(failure.message)")
            handleFailure(failure, requests: failed)
        }
    }

    /// Manual refreshes asked for during the fetch that just ended get one of their own.
    private func startFetchForWaitingManualRefreshes() {
        guard !waitingForNext.isEmpty, !isShutDown else { return }
        waiting += waitingForNext
        waitingForNext.removeAll()
        if !inFlight && retryTimer == nil { startFetch(fromPoll: false) }
    }

    /// Makes `compiled` the definitions in use; returns whether the document
    /// differs from the one before.
    /// A document pushed by a stream keeps the source's `version` (nil): a
    /// poll then asks the source whether it changed since it was last read,
    /// and the pushed document stays until it did.
    @discardableResult
    private func adopt(_ compiled: any CompiledDefinitions, version: SourceVersion?, digest: UInt64) -> Bool {
        let changed = digest != self.digest
        let previous = definitions
        definitions = compiled
        problem = nil
        loadedAt = now
        if changed {
            // A document never seen that serves while it is checked knows its problems later.
            compiled.whenProblemsKnown { [location = source.location] problems in
                guard !problems.isEmpty else { return }
                log.warning(DefinitionsProblem.loadedWithProblems(problems, location: location))
            }
        }
        if let delegate, delegate.hasDefinitionsSubscribers, let loadedAt {
            if let previous, changed {
                // Even when no flag changed (a banner did): a new document is in use.
                delegate.tellDefinitions(
                    .changed(loadedAt: loadedAt, flagsChanged: compiled.flagsChanged(since: previous)))
            } else if previous == nil || errorTold {
                // A first document, or the same flags again after an error.
                delegate.tellDefinitions(.ready(loadedAt: loadedAt))
            }
        }
        errorTold = false
        if let version { self.version = version }
        self.digest = digest
        delegate?.definitionsAdopted(compiled, previous: previous, changed: changed)
        return changed
    }

    // MARK: - Pushed documents

    /// Compiles a document a stream pushed, off the loop, and adopts it as
    /// a poll's answer would be: a change re-evaluates each subscribed
    /// channel (AUTO_SERVER_REFRESH), a refused one is INVALID_SERVER_DATA,
    /// once while it lasts. `done` runs on the loop when it is settled.
    func adoptPushed(_ bytes: consuming [UInt8], from location: String, then done: @escaping () -> Void) {
        let compile = self.compile
        let current = digest
        pushedCompileCount += 1
        let number = pushedCompileCount
        pushedCompiles[number] = done
        // Taken out by the worker, so that the compiler holds the text alone
        // and may give it back as it goes (the closure would hold it too).
        let document = Handover(consume bytes)
        worker.run(
            {
                Engine.compileFetched(
                    document.take() ?? [], version: SourceVersion(), currentDigest: current, compile: compile)
            },
            then: { [self] outcome in
                defer { pushedCompiles.removeValue(forKey: number)?() }
                guard !isShutDown, let delegate, delegate.isSDKEnabled else { return }
                switch outcome {
                case .loaded(let compiled, _, let digest):
                    pushedProblem = nil
                    if adopt(compiled, version: nil, digest: digest) {
                        let generation = delegate.userGeneration
                        delegate.complete(delegate.subscribedChannels.map { autoRefresh($0, generation) })
                    }
                case .invalid(let error, _, _):
                    reportPushedProblem(error.description, from: location)
                case .sameContent, .unchanged, .failed:
                    pushedProblem = nil
                }
            }, on: loop)
    }

    /// What a stream pushed cannot be used: INVALID_SERVER_DATA to each
    /// subscribed channel and the definitions subscribers, once while the
    /// same problem lasts; the definitions in use stay.
    func reportPushedProblem(_ problem: String, from location: String) {
        let message = "a document from the stream at \(location) is refused: \(problem)"
        guard let delegate, message != pushedProblem else { return }
        pushedProblem = message
        log.warning(message)
        let error = ChannelProblem(.invalidServerData, .doNotRetry, message: message)
        tellError(error)
        for channel in delegate.subscribedChannels { delegate.sendError(channel, error) }
    }

    // MARK: - Failures

    /// The failure model: report an ERROR to each waiting channel, then
    /// either schedule a retry (the requests wait for it) or give up.
    private func handleFailure(_ received: SourceError, requests: [RefreshRequest]) {
        guard let delegate else { return }
        let failure = clamped(received)
        failedTries += 1
        let willRetry = !isShutDown && failure.isRetried && retry.retries(afterFailedTries: failedTries)
        let error = failureError(failure, willRetry: willRetry)
        for channel in channelsOf(requests) { delegate.sendError(channel, error) }
        tellError(error)
        // Until a remote source delivered its first document every channel is
        // off, so that fetch is retried even when no refresh waits for it,
        // rather than only at the next poll.
        let awaitingFirstDocument = definitions == nil && !source.isLocal
        // A definitions subscriber waits to hear that the source is back.
        let awaited = !requests.isEmpty || awaitingFirstDocument || delegate.hasDefinitionsSubscribers
        guard willRetry, awaited else {
            failedTries = 0
            // The server's Retry-After holds for the polls after the cycle too.
            if let until = failure.retryAfter { pollsWaitUntil = loop.clock.monotonicTime() + max(0, until - now) }
            return
        }
        waiting = requests + waiting
        let delay = retryDelay(for: failure, afterFailedTries: failedTries)
        retryTimer = loop.schedule(after: delay) { [self] in
            retryTimer = nil
            guard !isShutDown, self.delegate?.isSDKEnabled ?? false else { return }
            if inFlight { return } // a fetch started meanwhile carries the requests
            startFetch(fromPoll: false)
        }
    }

    /// A Retry-After is taken up to `--retry-max-delay` from now: the server
    /// may say 100,000,000 seconds (or the year 9999), which stopped fetching
    /// and refused manual refreshes until a restart.
    private func clamped(_ failure: SourceError) -> SourceError {
        failure.clampingRetryAfter(to: now + retry.maxDelay)
    }

    /// How long to wait before the next try: until the server's Retry-After
    /// when it gave one, else the retry policy's backoff.
    private func retryDelay(for failure: SourceError, afterFailedTries tries: Int) -> Double {
        failure.retryAfter.map { max(0, $0 - now) } ?? random.delay(retry, beforeRetry: tries)
    }

    /// An ERROR to the definitions subscriptions: stale when older
    /// definitions are still served.
    private func tellError(_ error: ChannelProblem) {
        guard let delegate, delegate.hasDefinitionsSubscribers else { return }
        errorTold = true
        delegate.tellDefinitions(.error(error, stale: definitions != nil))
    }

    /// A refused document, as told to a subscriber while there are no
    /// definitions: the message names where the document came from.
    private func invalidError(_ error: DefinitionsError) -> ChannelProblem {
        ChannelProblem(
            .invalidServerData, .doNotRetry,
            message: "the definitions at \(source.location) are invalid: \(error.description)")
    }

    /// The ERROR a failure is reported as: who retries depends on whether
    /// the engine will try again.
    private func failureError(_ failure: RemoteError, willRetry: Bool) -> ChannelProblem {
        ChannelProblem(
            failure.errorReason, willRetry ? .sdkWillRetry : failure.givenUpState, rateLimitedUntil: failure.retryAfter,
            message: failure.message)
    }

    // MARK: - Helpers

    private func autoRefresh(_ channel: Channel, _ generation: Int) -> RefreshRequest {
        RefreshRequest(channel: channel, reason: .autoServerRefresh, placementIds: nil, userGeneration: generation)
    }

    /// The distinct channels of `requests` and then of `more`, in first-seen order.
    private func channelsOf(_ requests: [RefreshRequest], plus more: [Channel] = []) -> [Channel] {
        var seen: [Channel] = []
        for channel in requests.map(\.channel) + more where !seen.contains(channel) { seen.append(channel) }
        return seen
    }

    /// Problems `status` lists (`bunting validate` lists every one).
    static let problemsInStatus = 100

    /// Where the definitions come from, whether they are loaded, and what is
    /// wrong in them: `status.definitions`.
    var status: JSONObject {
        // A document served on a note's word, then refused by its full load, serves nothing: not loaded.
        let refusal = definitions?.refusal
        let loaded = definitions != nil && refusal == nil
        var status: JSONObject = ["location": .string(source.location), "loaded": .bool(loaded)]
        if let loadedAt, loaded { status["loadedAt"] = .number(loadedAt) }
        // A document may have thousands of problems: status stays small and quick.
        let problems = definitions?.problems ?? []
        status["problems"] = .array(problems.prefix(Self.problemsInStatus).map(\.json))
        status["problemCount"] = .int(problems.count)
        // The source's problem now, as the last fetch found it.
        if let problem = lastProblem ?? pushedProblem ?? refusal?.description { status["lastError"] = .string(problem) }
        return status
    }
}
