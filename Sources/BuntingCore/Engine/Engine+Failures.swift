import BuntingJSON
import BuntingRuntime

/// The failure model of the definitions source: who is told, who retries, when.
extension Engine {
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
}
