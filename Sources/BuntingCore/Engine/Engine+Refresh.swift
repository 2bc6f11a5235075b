import BuntingJSON
import BuntingRuntime

/// Refreshes: the manual refresh, the refresh a session start makes, and
/// evaluating the definitions into the current user's caches.
extension Engine {
    /// A manual refresh: costs a token of the channel's bucket (a refused one
    /// is ERROR RATE_LIMITED), re-reads the source, and ends in DATA_UPDATED
    /// MANUAL_SERVER_REFRESH or an ERROR. Banners may name up to
    /// `maxPlacementsPerRefresh` distinct placements (that they are distinct
    /// and at least one, the RPC layer checks): those are merged into the
    /// cache, the others stay.
    public func refresh(_ channel: Channel, placementIds: [String]?) throws(EngineError) {
        try onLoop { () throws(EngineError) in
            if let placementIds {
                guard channel == .banners else {
                    throw EngineError(.invalidParams, field: "placementIds", "only banners have placements")
                }
                guard placementIds.count <= configuration.maxPlacementsPerRefresh else {
                    throw EngineError(
                        .invalidParams, field: "placementIds",
                        "names \(placementIds.count) placements; at most "
                            + "\(configuration.maxPlacementsPerRefresh) are allowed")
                }
            }
            guard user.isSDKEnabled else {
                sendError(channel, .sdkDisabled, .doNotRetry, message: "the SDK is disabled")
                return
            }
            if let wait = refreshLimiter.take(channel, now: loop.clock.monotonicTime()) {
                sendError(
                    channel, .rateLimited, .integratorMayRetry, until: now + wait,
                    message: "too many manual refreshes of \(channel.rawValue)")
                return
            }
            requestRefresh(channel, reason: .manualServerRefresh, placementIds: placementIds?.sorted())
        }
    }

    /// Refreshes `channel` as a session start does (AUTO_SERVER_REFRESH).
    /// With the definitions in memory this is an evaluation, not I/O: it is
    /// done at once, so that its DATA_UPDATED comes before the next request
    /// is handled and that request sees the new data. Before any definitions
    /// arrived, the refresh waits for the first fetch. The source's freshness
    /// is kept apart: polling and manual refreshes.
    func refreshFromDefinitions(_ channel: Channel) {
        guard user.isSDKEnabled else {
            sendError(channel, .sdkDisabled, .doNotRetry, message: "the SDK is disabled")
            return
        }
        if definitions != nil {
            complete([autoRefresh(channel)])
        } else {
            requestRefresh(channel, reason: .autoServerRefresh, placementIds: nil)
        }
    }

    /// Refreshes every subscribed channel as a session start does; their
    /// caches are stored once every channel's DATA_UPDATED is sent.
    func refreshSubscribedChannels() {
        caches.storingAfter(handingOver: handOverEvents) {
            for channel in subscriptions.subscribedChannels { refreshFromDefinitions(channel) }
        }
    }

    /// Hands a refresh that needs the source read to the fetcher.
    func requestRefresh(_ channel: Channel, reason: DataUpdatedReason, placementIds: [String]?) {
        guard user.isSDKEnabled else {
            sendError(channel, .sdkDisabled, .doNotRetry, message: "the SDK is disabled")
            return
        }
        fetcher.request(
            RefreshRequest(
                channel: channel, reason: reason, placementIds: placementIds, userGeneration: user.generation))
    }

    /// Finishes refreshes: each gets DATA_UPDATED with its reason, or ERROR
    /// FEATURE_DISABLED when the definitions turn its channel off.
    func complete(_ requests: [RefreshRequest]) {
        var items = 0
        defer {
            // Large snapshots leave megabytes of freed text behind.
            if items > Self.largeRefreshItems { releaseMemorySoon() }
        }
        // The caches are stored once every request's event is sent.
        caches.storingAfter(handingOver: handOverEvents) {
            for request in requests {
                guard isEnabled(request.channel), let definitions else {
                    sendError(
                        request.channel, .featureDisabled, .doNotRetry,
                        message: "the \(request.channel.rawValue) channel is disabled")
                    continue
                }
                evaluate(request.channel, with: definitions, placementIds: request.placementIds)
                sendCacheChange(request.channel, reason: request.reason)
                let cached = caches.cache(request.channel)
                items += cached.flags.count + cached.banners.count + cached.cards.count
            }
        }
    }

    /// Evaluates the definitions for the current user into the channel's cache.
    func evaluate(_ channel: Channel, with definitions: any CompiledDefinitions, placementIds: [String]?) {
        let subject = user.subject
        let now = self.now
        var cache = caches.cache(channel)
        // Items whose templates give this user no text are left out, and listed by `status`.
        var unrendered: [UnrenderedItem] = []
        defer { self.unrendered.record(channel, unrendered, generation: user.generation) }
        switch channel {
        case .featureFlags:
            let flags = definitions.featureFlags(for: subject, at: now, unrendered: &unrendered)
            // GrowthBook features are listed beside flagd's flags (sticky arms
            // kept; an exposure is logged when the app reads one, not here).
            if definitions.featureKeys.isEmpty {
                cache.setFlags(flags)
            } else {
                let features = currentUserFeatures(definitions, keys: nil, listing: true)
                unrendered += features.unrendered
                cache.setFlags(flags + features.flags)
            }
        case .contentCards:
            cache.cards = definitions.contentCards(for: subject, at: now, unrendered: &unrendered)
        case .banners:
            let fresh = definitions.banners(
                for: subject, at: now, excluding: caches.dismissedBanners, unrendered: &unrendered)
            if let placementIds {
                for placement in placementIds.map({ ExactString($0) }) { cache.banners[placement] = fresh[placement] }
            } else {
                cache.banners = fresh
            }
        }
        cache.lastSyncAt = now
        caches.set(channel, cache, user: user.userKey)
    }

    func autoRefresh(_ channel: Channel) -> RefreshRequest {
        RefreshRequest(channel: channel, reason: .autoServerRefresh, placementIds: nil, userGeneration: user.generation)
    }
}

extension Engine {
    /// Refreshes of more items than this leave enough freed memory to give back.
    public static let largeRefreshItems = 1000
    /// How long refreshes must pause before freed memory is given back.
    public static let memoryReleaseDelay = 1.0

    /// Gives freed memory back once refreshes pause for `memoryReleaseDelay`.
    /// Giving it back after each one put the trim, and the next refresh
    /// faulting the same pages in again, on every user change's path; once
    /// refreshes pause, one trim gives back more (at 10,000 flags + 10,000
    /// cards a user's caches settle at 77 MB instead of 85 MB,
    /// `benchmarks/engine/run`).
    func releaseMemorySoon() {
        if let memoryReleaseTimer { loop.cancel(memoryReleaseTimer) }
        memoryReleaseTimer = loop.schedule(after: Self.memoryReleaseDelay) { [self] in
            memoryReleaseTimer = nil
            // What is kept only to be quicker goes first, so that the trim
            // gives it back too: the flags' text of the last refresh (a
            // snapshot before the next one writes it again) and the store's
            // cached pages.
            caches.dropKeptText()
            store.releaseMemory()
            releaseMemory()
        }
    }
}
