import BuntingJSON
import BuntingRuntime

/// Refreshes: reading the definitions source (off the loop), the failure and
/// retry model, polling for a changed document, and evaluating the
/// definitions into the current user's caches.
extension Engine {
    /// What one fetch came back with, after compiling on the worker.
    public enum FetchOutcome: Sendable {
        case loaded(any CompiledDefinitions, SourceVersion, digest: UInt64)
        /// New bytes, but the same document as the one in use.
        case sameContent(SourceVersion)
        case unchanged
        /// A document that was refused, and its version at the source.
        case invalid(DefinitionsError, SourceVersion?)
        case failed(SourceFailure)

        /// What makes the document unusable, when it is.
        public var problem: String? {
            switch self {
            case .loaded, .sameContent, .unchanged: nil
            case .invalid(let error, _): error.description
            case .failed(let failure): failure.message
            }
        }
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

    /// Refreshes `channel` as a session start does (AUTO_SERVER_REFRESH).
    /// With the definitions in memory this is an evaluation, not I/O: it is
    /// done at once, so that its DATA_UPDATED comes before the next request
    /// is handled and that request sees the new data. Before any definitions
    /// arrived, the refresh waits for the first fetch. The source's freshness
    /// is kept apart: polling and manual refreshes.
    func refreshFromDefinitions(_ channel: Channel) {
        guard profile.sdkEnabled else {
            sendError(channel, .sdkDisabled, .doNotRetry, message: "the SDK is disabled")
            return
        }
        if definitions != nil {
            complete([autoRefresh(channel)])
        } else {
            requestRefresh(channel, reason: .autoServerRefresh, placementIds: nil)
        }
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
        // A poll skips a refused document that did not change; a manual
        // refresh reads the source again whatever it holds.
        let since = fromPoll ? (refusedVersion ?? definitionsVersion) : (definitions == nil ? nil : definitionsVersion)
        let digest = definitionsDigest
        worker.run({
            Self.fetchAndCompile(source: source, since: since, currentDigest: digest, compile: compile)
        }, then: { [self] outcome in
            finishFetch(outcome, fromPoll: fromPoll)
        }, on: loop)
    }

    /// Runs on the worker: fetch, then compile unless the bytes are the ones in use.
    public static func fetchAndCompile(
        source: any DefinitionsSource, since: SourceVersion?, currentDigest: UInt64? = nil, compile: DefinitionsCompiler
    ) -> FetchOutcome {
        switch source.fetch(ifChangedSince: since) {
        case .unchanged:
            return .unchanged
        case .failed(.invalidData(let message)):
            // Like a document that does not compile: a poll reports it once.
            return .invalid(DefinitionsError(problems: [message]), nil)
        case .failed(let failure):
            return .failed(failure)
        case .fetched(let bytes, let version):
            let digest = fnv1a64(bytes)
            if digest == currentDigest { return .sameContent(version) }
            switch compile(bytes) {
            case .success(let compiled): return .loaded(compiled, version, digest: digest)
            case .failure(let error): return .invalid(error, version)
            }
        }
    }

    func finishFetch(_ outcome: FetchOutcome, fromPoll: Bool) {
        fetchInFlight = false
        // Shutting down waits for this fetch (its refreshes end in their events).
        defer {
            let settled = fetchSettled
            fetchSettled.removeAll()
            for continuation in settled { continuation() }
        }
        let waiting = waitingRefreshes.filter { $0.userGeneration == userGeneration }
        waitingRefreshes.removeAll()
        guard profile.sdkEnabled else { return }
        switch outcome {
        case .loaded(let compiled, let version, let digest):
            fetchFailedTries = 0
            lastPollProblem = nil
            refusedVersion = nil
            let changed = adopt(compiled, version: version, digest: digest)
            complete(waiting)
            if changed {
                let done = Set(waiting.map(\.channel))
                complete(subscribedChannels.filter { !done.contains($0) }.map(autoRefresh))
            }
        case .sameContent(let version):
            // The document in use, written again (after a broken one, say).
            definitionsVersion = version
            refusedVersion = nil
            lastPollProblem = nil
            fallthrough
        case .unchanged:
            fetchFailedTries = 0
            if definitionsErrorTold, refusedVersion == nil, let definitionsLoadedAt, definitions != nil {
                definitionsErrorTold = false
                sendDefinitionsNotice(.ready(loadedAt: definitionsLoadedAt))
            }
            // A poll that found a refused document unchanged found no news.
            if !(fromPoll && refusedVersion != nil) { lastPollProblem = nil }
            complete(waiting)
        case .invalid(let error, let version):
            fetchFailedTries = 0
            refusedVersion = version
            if definitions == nil { definitionsProblem = invalidDefinitionsError(error) }
            if fromPoll {
                guard lastPollProblem != error.description || !waiting.isEmpty else { return }
                lastPollProblem = error.description
            }
            log.warning("definitions at \(source.location) are invalid: \(error.description)")
            tellDefinitionsError(invalidDefinitionsError(error))
            let affected = fromPoll ? channelsOf(waiting, plus: subscribedChannels) : channelsOf(waiting)
            for channel in affected {
                sendError(channel, .invalidServerData, .doNotRetry, message: error.description)
            }
        case .failed(let failure):
            var requests = waiting
            if definitions == nil { definitionsProblem = failureError(failure, willRetry: true) }
            if fromPoll {
                guard lastPollProblem != failure.message || !waiting.isEmpty else { return }
                lastPollProblem = failure.message
                let asked = Set(waiting.map(\.channel))
                requests += subscribedChannels.filter { !asked.contains($0) }.map(autoRefresh)
            }
            log.warning("cannot fetch definitions from \(source.location): \(failure.message)")
            handleFailure(failure, requests: requests)
        }
    }

    /// The failure model: report an ERROR to each waiting channel, then
    /// either schedule a retry (the requests wait for it) or give up.
    func handleFailure(_ failure: SourceFailure, requests: [RefreshRequest]) {
        fetchFailedTries += 1
        let willRetry = !isShutDown && failure.isRetried && configuration.retry.retries(afterFailedTries: fetchFailedTries)
        let error = failureError(failure, willRetry: willRetry)
        for channel in channelsOf(requests) { sendError(channel, error) }
        tellDefinitionsError(error)
        // Until a remote source delivered its first document every channel is
        // off, so that fetch is retried even when no refresh waits for it,
        // rather than only at the next poll.
        let awaitingFirstDocument = definitions == nil && !source.isLocal
        // A definitions subscriber waits to hear that the source is back.
        let awaited = !requests.isEmpty || awaitingFirstDocument || !definitionsSubscriptions.isEmpty
        guard willRetry, awaited else {
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

    /// An ERROR to the definitions subscriptions: stale when older
    /// definitions are still served.
    func tellDefinitionsError(_ error: ChannelError) {
        guard !definitionsSubscriptions.isEmpty else { return }
        definitionsErrorTold = true
        sendDefinitionsNotice(.error(error, stale: definitions != nil))
    }

    /// A refused document, as told to a subscriber while there are no
    /// definitions: the message names where the document came from.
    func invalidDefinitionsError(_ error: DefinitionsError) -> ChannelError {
        ChannelError(.invalidServerData, .doNotRetry, message: "the definitions at \(source.location) are invalid: \(error.description)")
    }

    /// The ERROR a failure is reported as: who retries depends on whether
    /// the engine will try again.
    func failureError(_ failure: RemoteFailure, willRetry: Bool) -> ChannelError {
        ChannelError(
            failure.errorReason, willRetry ? .sdkWillRetry : failure.givenUpState, rateLimitedUntil: failure.retryAfter,
            message: failure.message)
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
        let previous = definitions
        definitions = compiled
        definitionsProblem = nil
        definitionsLoadedAt = now
        if changed, !compiled.problems.isEmpty {
            let count = compiled.problems.count
            log.warning("definitions at \(source.location) loaded with \(count) problem\(count == 1 ? "" : "s") "
                + "(the rest serves): " + compiled.problems.prefix(20).map(\.description).joined(separator: "; "))
        }
        if !definitionsSubscriptions.isEmpty {
            if let previous, changed {
                sendDefinitionsNotice(.changed(loadedAt: now, flagsChanged: compiled.flagsChanged(since: previous)))
            } else if previous == nil || definitionsErrorTold {
                sendDefinitionsNotice(.ready(loadedAt: now))
            }
        }
        definitionsErrorTold = false
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
        log.debug("checking \(source.location) for a new document")
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
