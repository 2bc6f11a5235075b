import BuntingJSON
import BuntingRuntime

/// Refreshes: reading the definitions source (off the loop), the failure and
/// retry model, polling for a changed document, and evaluating the
/// definitions into the current user's caches.
extension Engine {
    /// What one fetch came back with, after compiling on the worker.
    enum FetchOutcome: Sendable {
        case loaded(any CompiledDefinitions, SourceVersion, digest: UInt64)
        /// New bytes, but the same document as the one in use.
        case sameContent(SourceVersion)
        case unchanged
        case invalid(DefinitionsError)
        case failed(SourceFailure)
    }

    /// A manual refresh: costs a token of the channel's bucket (a refused one
    /// is ERROR RATE_LIMITED), re-reads the source, and ends in DATA_UPDATED
    /// MANUAL_SERVER_REFRESH or an ERROR. Banners may name up to
    /// `maxPlacementsPerRefresh` distinct placements (that they are distinct
    /// and at least one, the RPC layer checks): those are merged into the
    /// cache, the others stay.
    public func refresh(_ channel: Channel, placementIds: [String]?) throws(EngineError) {
        if let placementIds {
            guard channel == .banners else {
                throw EngineError(.invalidParams, field: "placementIds", "only banners have placements")
            }
            guard placementIds.count <= configuration.maxPlacementsPerRefresh else {
                throw EngineError(
                    .invalidParams, field: "placementIds",
                    "names \(placementIds.count) placements; at most \(configuration.maxPlacementsPerRefresh) are allowed")
            }
        }
        guard profile.sdkEnabled else {
            sendError(channel, .sdkDisabled, .doNotRetry, message: "the SDK is disabled")
            return
        }
        if let until = buckets[channel]?.take(now: now) {
            sendError(channel, .rateLimited, .integratorMayRetry, until: until, message: "too many manual refreshes of \(channel.rawValue)")
            return
        }
        requestRefresh(channel, reason: .manualServerRefresh, placementIds: placementIds?.sorted())
    }

    /// Queues a refresh of `channel` and starts a fetch unless one is running
    /// or a retry is already scheduled (the refresh then rides on it).
    func requestRefresh(_ channel: Channel, reason: DataUpdatedReason, placementIds: [String]?) {
        guard profile.sdkEnabled else {
            sendError(channel, .sdkDisabled, .doNotRetry, message: "the SDK is disabled")
            return
        }
        waitingRefreshes.append(RefreshRequest(channel: channel, reason: reason, placementIds: placementIds, userGeneration: userGeneration))
        if !fetchInFlight && fetchRetryTimer == nil { startFetch(fromPoll: false) }
    }

    func startFetch(fromPoll: Bool) {
        fetchInFlight = true
        let source = self.source
        let compile = self.compile
        let since = definitions == nil ? nil : definitionsVersion
        let digest = definitionsDigest
        worker.run({
            Self.fetchAndCompile(source: source, since: since, currentDigest: digest, compile: compile)
        }, then: { [self] outcome in
            finishFetch(outcome, fromPoll: fromPoll)
        }, on: loop)
    }

    /// Runs on the worker: fetch, then compile unless the bytes are the ones in use.
    static func fetchAndCompile(
        source: any DefinitionsSource, since: SourceVersion?, currentDigest: UInt64? = nil, compile: DefinitionsCompiler
    ) -> FetchOutcome {
        switch source.fetch(ifChangedSince: since) {
        case .unchanged:
            return .unchanged
        case .failed(.invalidData(let message)):
            // Like a document that does not compile: a poll reports it once.
            return .invalid(DefinitionsError(problems: [message]))
        case .failed(let failure):
            return .failed(failure)
        case .fetched(let bytes, let version):
            let digest = fnv1a64(bytes)
            if digest == currentDigest { return .sameContent(version) }
            switch compile(bytes) {
            case .success(let compiled): return .loaded(compiled, version, digest: digest)
            case .failure(let error): return .invalid(error)
            }
        }
    }

    func finishFetch(_ outcome: FetchOutcome, fromPoll: Bool) {
        fetchInFlight = false
        let waiting = waitingRefreshes.filter { $0.userGeneration == userGeneration }
        waitingRefreshes.removeAll()
        guard !isShutDown, profile.sdkEnabled else { return }
        switch outcome {
        case .loaded(let compiled, let version, let digest):
            fetchFailedTries = 0
            lastPollProblem = nil
            let changed = adopt(compiled, version: version, digest: digest)
            complete(waiting)
            if changed {
                let done = Set(waiting.map(\.channel))
                complete(subscribedChannels.filter { !done.contains($0) }.map(autoRefresh))
            }
        case .sameContent(let version):
            definitionsVersion = version
            fallthrough
        case .unchanged:
            fetchFailedTries = 0
            lastPollProblem = nil
            complete(waiting)
        case .invalid(let error):
            fetchFailedTries = 0
            log.warning("definitions at \(source.location) are invalid: \(error.description)")
            if fromPoll {
                guard lastPollProblem != error.description || !waiting.isEmpty else { return }
                lastPollProblem = error.description
            }
            let affected = fromPoll ? channelsOf(waiting, plus: subscribedChannels) : channelsOf(waiting)
            for channel in affected {
                sendError(channel, .invalidServerData, .doNotRetry, message: error.description)
            }
        case .failed(let failure):
            log.warning("cannot fetch definitions from \(source.location): \(failure.message)")
            var requests = waiting
            if fromPoll {
                guard lastPollProblem != failure.message || !waiting.isEmpty else { return }
                lastPollProblem = failure.message
                let asked = Set(waiting.map(\.channel))
                requests += subscribedChannels.filter { !asked.contains($0) }.map(autoRefresh)
            }
            handleFailure(failure, requests: requests)
        }
    }

    /// The failure model: report an ERROR to each waiting channel, then
    /// either schedule a retry (the requests wait for it) or give up.
    func handleFailure(_ failure: SourceFailure, requests: [RefreshRequest]) {
        fetchFailedTries += 1
        let willRetry = failure.isRetried && configuration.retry.retries(afterFailedTries: fetchFailedTries)
        let until = failure.retryAfter
        for channel in channelsOf(requests) {
            sendError(channel, failure.errorReason, willRetry ? .sdkWillRetry : failure.givenUpState, until: until, message: failure.message)
        }
        // Until a remote source delivered its first document every channel is
        // off, so that fetch is retried even when no refresh waits for it,
        // rather than only at the next poll.
        let awaitingFirstDocument = definitions == nil && !source.isLocal
        guard willRetry, !requests.isEmpty || awaitingFirstDocument else {
            fetchFailedTries = 0
            return
        }
        waitingRefreshes = requests + waitingRefreshes
        let delay = retryDelay(for: failure, afterFailedTries: fetchFailedTries)
        fetchRetryTimer = loop.schedule(after: delay) { [self] in
            fetchRetryTimer = nil
            guard !isShutDown, profile.sdkEnabled else { return }
            if fetchInFlight { return }  // a fetch started meanwhile carries the requests
            startFetch(fromPoll: false)
        }
    }

    /// How long to wait before the next try: until the server's Retry-After
    /// when it gave one, else the retry policy's backoff. One rule for the
    /// source and the sink.
    func retryDelay(for failure: RemoteFailure, afterFailedTries tries: Int) -> Double {
        failure.retryAfter.map { max(0, $0 - now) } ?? configuration.retry.delay(beforeRetry: tries, random: &random)
    }

    /// Makes `compiled` the definitions in use. Channels it turns off lose
    /// their cache (CACHE_LOAD); returns whether the document differs from
    /// the one before.
    @discardableResult
    func adopt(_ compiled: any CompiledDefinitions, version: SourceVersion, digest: UInt64) -> Bool {
        defer { releaseFreedMemory() }
        let changed = digest != definitionsDigest
        definitions = compiled
        definitionsVersion = version
        definitionsDigest = digest
        let before = profile.channelsEnabled
        for channel in Channel.allCases {
            profile.channelsEnabled[channel] = compiled.isEnabled(channel)
        }
        for channel in Channel.allCases where before[channel] == true && !compiled.isEnabled(channel) {
            caches[channel] = nil
            saveCache(channel)
            sendCacheChange(channel, reason: nil)
        }
        saveProfile()
        return changed
    }

    /// Finishes refreshes: each gets DATA_UPDATED with its reason, or ERROR
    /// FEATURE_DISABLED when the definitions turn its channel off.
    func complete(_ requests: [RefreshRequest]) {
        var items = 0
        defer {
            // Large snapshots leave megabytes of freed trees behind; give them back.
            if items > 1000 { releaseFreedMemory() }
        }
        for request in requests {
            guard isEnabled(request.channel), let definitions else {
                sendError(request.channel, .featureDisabled, .doNotRetry, message: "the \(request.channel.rawValue) channel is disabled")
                continue
            }
            evaluate(request.channel, with: definitions, placementIds: request.placementIds)
            sendCacheChange(request.channel, reason: request.reason)
            let cached = cache(request.channel)
            items += cached.flags.count + cached.banners.count + cached.cards.count
        }
    }

    /// Evaluates the definitions for the current user into the channel's cache.
    func evaluate(_ channel: Channel, with definitions: any CompiledDefinitions, placementIds: [String]?) {
        let now = self.now
        var cache = self.cache(channel)
        switch channel {
        case .featureFlags:
            cache.flags = definitions.featureFlags(for: subject, at: now)
        case .contentCards:
            cache.cards = definitions.contentCards(for: subject, at: now)
        case .banners:
            let fresh = definitions.banners(for: subject, at: now)
            if let placementIds {
                for placement in placementIds { cache.banners[placement] = fresh[placement] }
            } else {
                cache.banners = fresh
            }
        }
        cache.lastSyncAt = now
        caches[channel] = cache
        saveCache(channel)
    }

    // MARK: - Polling

    func schedulePoll() {
        guard let interval = configuration.pollInterval, !isShutDown else { return }
        pollTimer = loop.schedule(after: interval) { [self] in
            poll()
            schedulePoll()
        }
    }

    /// Checks the source for a new document; a change re-evaluates each
    /// subscribed channel (AUTO_SERVER_REFRESH). Skipped while a fetch or a
    /// retry is under way, and while the SDK is disabled.
    func poll() {
        guard profile.sdkEnabled, !fetchInFlight, fetchRetryTimer == nil, !isShutDown else { return }
        startFetch(fromPoll: true)
    }

    // MARK: - Helpers

    func autoRefresh(_ channel: Channel) -> RefreshRequest {
        RefreshRequest(channel: channel, reason: .autoServerRefresh, placementIds: nil, userGeneration: userGeneration)
    }

    /// The distinct channels of `requests` and then of `more`, in first-seen order.
    func channelsOf(_ requests: [RefreshRequest], plus more: [Channel] = []) -> [Channel] {
        var seen: [Channel] = []
        for channel in requests.map(\.channel) + more where !seen.contains(channel) { seen.append(channel) }
        return seen
    }
}

/// FNV-1a, 64 bits: tells whether two documents are byte for byte the same.
func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
