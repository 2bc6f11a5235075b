import BuntingJSON
import BuntingRuntime

/// Reading the definitions source off the loop, compiling what it gives,
/// and what each outcome does.
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
}
