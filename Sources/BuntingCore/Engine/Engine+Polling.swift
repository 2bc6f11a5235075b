import BuntingJSON
import BuntingRuntime

/// Polling the source for a new document.
extension Engine {
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
}
