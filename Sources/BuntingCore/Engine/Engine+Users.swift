import BuntingJSON
import BuntingRuntime

/// Users, sessions, wiping and turning the SDK off and on.
extension Engine {
    /// Switches to `userId`. The old user's events are flushed first; a
    /// refresh still pending for the old user is dropped; subscribers get
    /// CACHE_LOAD with the new user's cached data (empty for a new user); then
    /// a new session starts, refreshing each subscribed channel. Changing to
    /// the current user only merges `attributes`. `userId` is not empty (the
    /// RPC layer checks the shape of params).
    ///
    /// `beforeRefresh` runs once the change can no longer be refused and the
    /// CACHE_LOADs are sent, before the refresh is evaluated: the server
    /// answers there, so that a returning user's cached snapshot (megabytes
    /// at 20,000 items) goes out while the refresh is worked out, not after.
    public func changeUser(
        _ userId: String, attributes: JSONObject?, beforeRefresh: () -> Void = {}
    ) throws(EngineError) {
        try onLoop { () throws(EngineError) in
            guard user.isSDKEnabled else { throw .sdkDisabled }
            if user.isCurrentUser(userId) {
                try user.mergeAttributes(attributes ?? [:])
                stickyAssignments.forget()
                beforeRefresh()
                return
            }
            // Read once, without the caches when they are kept in memory.
            let stored = store.loadUser(userId, caches: !caches.keepsCaches(of: userId))
            // Checked before anything changes: a refused change changes nothing.
            let newAttributes = try UserSession.merged(stored.attributes, attributes ?? [:])
            analytics.flush(all: true) { _, _ in }
            user.storeAttributes()
            let previousUser = user.userKey
            user.switchUser(to: userId, attributes: newAttributes)
            fetcher.dropRefreshes(notOf: user.generation)
            caches.switchUser(from: previousUser, to: userId, stored: stored)
            stickyAssignments.forget()
            for channel in subscriptions.subscribedChannels { sendCacheChange(channel, reason: nil) }
            beforeRefresh()
            beginSession(refreshing: true)
        }
    }

    /// Merges `attributes` into the current user's; a null value removes the
    /// attribute. The next refresh evaluates with them; none starts now.
    public func setUserAttributes(_ attributes: JSONObject) throws(EngineError) {
        try onLoop { () throws(EngineError) in
            guard user.isSDKEnabled else { throw .sdkDisabled }
            try user.mergeAttributes(attributes)
            // The sticky documents to read are the new attributes' values'.
            stickyAssignments.forget()
        }
    }

    /// Starts a new session (ending the current one): flag impressions may be
    /// logged again, the banners' refresh bucket is refilled, and each
    /// subscribed channel is refreshed (AUTO_SERVER_REFRESH).
    public func openSession() throws(EngineError) {
        try onLoop { () throws(EngineError) in
            guard user.isSDKEnabled else { throw .sdkDisabled }
            beginSession(refreshing: true)
        }
    }

    /// Ends the open session and starts a flush (not waited for). Until the
    /// next `openSession` (or `changeUser`) there is no session id. While the
    /// SDK is disabled the session ends but nothing is sent.
    public func closeSession() {
        onLoop {
            guard user.endSession() else { return }
            analytics.flush(all: true) { _, _ in }
        }
    }

    /// Deletes every stored thing: all users' caches, attributes and item
    /// states, the session's flag impressions, and the queued analytics
    /// (dropped, never sent). The current user, the session, the
    /// subscriptions and the SDK's enabled state stay. Subscribers get
    /// CACHE_LOAD with empty snapshots; no refresh starts.
    public func wipeData() throws(EngineError) {
        try onLoop { () throws(EngineError) in
            do throws(StoreError) {
                try store.wipe()
            } catch {
                throw .storage(error)
            }
            user.wipe()
            fetcher.dropAllRefreshes()
            caches.forgetAll()
            stickyAssignments.forget()
            for channel in subscriptions.subscribedChannels { sendCacheChange(channel, reason: nil) }
        }
    }

    /// Turns the SDK off: `subscribe` answers null, refreshes answer ERROR
    /// SDK_DISABLED, logging is refused, and nothing is fetched or sent.
    /// Subscriptions and caches stay. The state survives restarts.
    public func disableSDK() {
        onLoop {
            guard user.isSDKEnabled else { return }
            user.setSDKEnabled(false)
            fetcher.pause()
            stream.pause()
            analytics.pause()
        }
    }

    /// Turns the SDK back on; each subscribed channel is refreshed.
    public func enableSDK() {
        onLoop {
            guard !user.isSDKEnabled else { return }
            user.setSDKEnabled(true)
            stream.resume()
            refreshSubscribedChannels()
        }
    }

    // MARK: - Helpers

    /// A new session id, a fresh set of flag impressions and a full banner
    /// bucket; with `refreshing`, each subscribed channel is refreshed.
    func beginSession(refreshing: Bool) {
        user.beginSession(id: random.identifier())
        refreshLimiter.refillForSession(now: loop.clock.monotonicTime())
        guard refreshing else { return }
        refreshSubscribedChannels()
    }

    /// The most a user's attributes may take, encoded (see `UserSession`).
    public static var maxAttributesBytes: Int { UserSession.maxAttributesBytes }
}
