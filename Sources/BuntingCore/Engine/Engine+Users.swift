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
    public func changeUser(_ userId: String, attributes: JSONObject?) throws(EngineError) {
        guard profile.sdkEnabled else { throw .sdkDisabled }
        if let current = profile.userId, userId.sameBytes(as: current) {
            if let attributes { profile.attributes = try merged(profile.attributes, attributes) }
            saveProfile()
            return
        }
        // Read once, without the caches when they are kept in memory.
        let stored = store.loadUser(userId, caches: !recentUserCaches.contains(userId))
        // Checked before anything changes: a refused change changes nothing.
        let newAttributes = try merged(stored.attributes, attributes ?? [:])
        // Taken before the old user's are kept, which may push out the oldest.
        let keptCaches = recentUserCaches.take(userId)
        flush(all: true) { _, _ in }
        userGeneration += 1
        waitingRefreshes.removeAll { $0.userGeneration != userGeneration }
        storeAttributesOfCurrentUser()
        recentUserCaches.keep(caches, of: userKey)
        profile.userId = userId
        profile.attributes = newAttributes
        profile.sessionFlagImpressions = []
        adoptCurrentUser(stored, keptCaches: keptCaches)
        for channel in subscribedChannels { sendCacheChange(channel, reason: nil) }
        beginSession(refreshing: true)
        saveProfile()
    }

    /// Merges `attributes` into the current user's; a null value removes the
    /// attribute. The next refresh evaluates with them; none starts now.
    public func setUserAttributes(_ attributes: JSONObject) throws(EngineError) {
        guard profile.sdkEnabled else { throw .sdkDisabled }
        profile.attributes = try merged(profile.attributes, attributes)
        saveProfile()
    }

    /// Starts a new session (ending the current one): flag impressions may be
    /// logged again, the banners' refresh bucket is refilled, and each
    /// subscribed channel is refreshed (AUTO_SERVER_REFRESH).
    public func openSession() throws(EngineError) {
        guard profile.sdkEnabled else { throw .sdkDisabled }
        beginSession(refreshing: true)
        saveProfile()
    }

    /// Ends the open session and starts a flush (not waited for). Until the
    /// next `openSession` (or `changeUser`) there is no session id. While the
    /// SDK is disabled the session ends but nothing is sent.
    public func closeSession() {
        guard profile.sessionId != nil else { return }
        profile.sessionId = nil
        sessionFlagImpressions = []
        saveProfile()
        flush(all: true) { _, _ in }
    }

    /// Deletes every stored thing: all users' caches, attributes and item
    /// states, the session's flag impressions, and the queued analytics
    /// (dropped, never sent). The current user, the session, the
    /// subscriptions and the SDK's enabled state stay. Subscribers get
    /// CACHE_LOAD with empty snapshots; no refresh starts.
    public func wipeData() throws(EngineError) {
        do {
            try store.wipe()
        } catch {
            throw .storage(error)
        }
        userGeneration += 1
        waitingRefreshes.removeAll()
        recentUserCaches.forgetAll()
        profile.attributes = [:]
        caches = [:]
        itemStates = [:]
        sessionFlagImpressions = []
        saveProfile()
        for channel in subscribedChannels { sendCacheChange(channel, reason: nil) }
    }

    /// Turns the SDK off: `subscribe` answers null, refreshes answer ERROR
    /// SDK_DISABLED, logging is refused, and nothing is fetched or sent.
    /// Subscriptions and caches stay. The state survives restarts.
    public func disableSDK() {
        guard profile.sdkEnabled else { return }
        profile.sdkEnabled = false
        waitingRefreshes.removeAll()
        for timer in [fetchRetryTimer, flushRetryTimer].compactMap({ $0 }) { loop.cancel(timer) }
        fetchRetryTimer = nil
        flushRetryTimer = nil
        fetchFailedTries = 0
        saveProfile()
    }

    /// Turns the SDK back on; each subscribed channel is refreshed.
    public func enableSDK() {
        guard !profile.sdkEnabled else { return }
        profile.sdkEnabled = true
        saveProfile()
        for channel in subscribedChannels { refreshFromDefinitions(channel) }
    }

    // MARK: - Helpers

    /// A new session id, a fresh set of flag impressions and a full banner
    /// bucket; with `refreshing`, each subscribed channel is refreshed.
    func beginSession(refreshing: Bool) {
        profile.sessionId = random.identifier()
        sessionFlagImpressions = []
        for channel in Channel.allCases where buckets[channel]?.rule.refillsPerSession == true {
            buckets[channel]?.fill(now: now)
        }
        guard refreshing else { return }
        for channel in subscribedChannels { refreshFromDefinitions(channel) }
    }

    /// The most a user's attributes may take, encoded: they are stored, and
    /// copied into every evaluation of the user.
    public static let maxAttributesBytes = 64 << 10

    /// `attributes` merged into `base` (a null value removes the attribute),
    /// refused when the result would be larger than `maxAttributesBytes`.
    func merged(_ base: JSONObject, _ attributes: JSONObject) throws(EngineError) -> JSONObject {
        var result = base
        for (key, value) in attributes { result[key] = value.isNull ? nil : value }
        let size = JSON.object(result).encoded().count
        guard size <= Self.maxAttributesBytes else {
            throw EngineError(.invalidParams, field: "attributes", "the user's attributes would take \(size) bytes encoded; at most \(Self.maxAttributesBytes) are allowed")
        }
        return result
    }

    /// Attributes are kept per user next to the user's caches, so that a user
    /// who comes back is evaluated with what was known.
    func storeAttributesOfCurrentUser() {
        do {
            try store.saveAttributes(user: userKey, attributes: profile.attributes)
        } catch {
            log.error("cannot save the user's attributes: \(error.message)")
        }
    }
}
