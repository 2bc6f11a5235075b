import BuntingJSON

/// Storage trouble the client must hear about even though it happened before
/// it subscribed: a damaged store found at start-up and replaced by a fresh
/// one, or a disk that could not be used so that state lives in memory only.
extension Engine {
    /// Reports `message` as ERROR CLIENT_ERROR/DO_NOT_RETRY (the trouble is
    /// local, and already dealt with: nothing to retry) to every event
    /// subscription now, and to each one made later, right after its
    /// CACHE_REPLAY — so a client can tell an empty cache from a lost one.
    public func reportStorageProblem(_ message: String) {
        onLoop {
            storageProblem = message
            // The store may hold less than what was kept of other users now.
            caches.forgetOtherUsers()
            for subscription in subscriptions.eventSubscriptions { sendStorageProblem(to: subscription) }
        }
    }

    func sendStorageProblem(to subscription: Subscription) {
        guard let storageProblem else { return }
        emit(.error(subscription.target, ChannelProblem(.clientError, .doNotRetry, message: storageProblem)))
    }
}
