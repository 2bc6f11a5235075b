import BuntingJSON
import BuntingRuntime

/// Impressions, clicks and dismissals: checked against what the user sees,
/// and stored before ENQUEUED is sent (delivery is Engine+Flushing's).
extension Engine {
    /// Logs an impression of each item: card ids, flag ids, or banner
    /// placement ids. All or nothing: an id naming no listed item refuses the
    /// whole request. `field` is the param the ids came from (`id` or `ids`),
    /// for error messages. A flag's impression is logged once per session.
    public func logImpression(_ channel: Channel, ids: [String], field: String = "ids") throws(EngineError) {
        try onLoop { () throws(EngineError) in try logImpressions(channel, ids: ids, field: field) }
    }

    private func logImpressions(_ channel: Channel, ids: [String], field: String) throws(EngineError) {
        guard user.isSDKEnabled else { throw .sdkDisabled }
        func name(_ index: Int) -> String { field == "ids" ? "ids[\(index)]" : field }
        switch channel {
        case .featureFlags:
            var flags: [FeatureFlag] = []
            for (index, id) in ids.enumerated() { flags.append(try flag(id, field: name(index))) }
            var noted = false
            // One save for the request, even if a later event cannot be stored.
            defer { if noted { user.save() } }
            for flag in flags where !user.hasLoggedImpression(flag.impressionKey) {
                try enqueue(.impression, channel, itemId: flag.id, item: flag.json, trackingString: flag.trackingString)
                user.noteImpression(flag.impressionKey)
                noted = true
            }
            // A GrowthBook feature seen is its experiment's exposure (each once a session).
            for flag in flags where flag.metadata["experiment"] != nil {
                try logExposuresOfFeatureImpression(flag.id)
            }
        case .contentCards:
            var cards: [ContentCard] = []
            for (index, id) in ids.enumerated() { cards.append(try card(id, field: name(index))) }
            for var card in cards {
                card.viewed = true
                try enqueue(.impression, channel, itemId: card.id, item: card.json)
                updateState(.contentCards, card.id) { $0.viewed = true }
            }
        case .banners:
            var banners: [Banner] = []
            for (index, id) in ids.enumerated() { banners.append(try banner(id, field: name(index))) }
            for banner in banners {
                try enqueue(
                    .impression, channel, itemId: banner.placementId, item: banner.json,
                    trackingString: banner.trackingId)
            }
        }
    }

    public func logClick(_ channel: Channel, id: String, buttonId: String?) throws(EngineError) {
        try onLoop { () throws(EngineError) in try click(channel, id: id, buttonId: buttonId) }
    }

    private func click(_ channel: Channel, id: String, buttonId: String?) throws(EngineError) {
        guard user.isSDKEnabled else { throw .sdkDisabled }
        switch channel {
        case .featureFlags:
            throw EngineError(
                .invalidParams, field: "channel", "feature flags are not clicked; use contentCards or banners")
        case .contentCards:
            if buttonId != nil {
                throw EngineError(.invalidParams, field: "buttonId", "only banner clicks have a button id")
            }
            var card = try card(id, field: "id")
            try refuseControl(card.isControl, "content card", id)
            card.clicked = true
            try enqueue(.click, channel, itemId: card.id, item: card.json)
            updateState(.contentCards, card.id) { $0.clicked = true }
        case .banners:
            let banner = try banner(id, field: "id")
            try refuseControl(banner.isControl, "banner in placement", id)
            try enqueue(
                .click, channel, itemId: banner.placementId, item: banner.json, buttonId: buttonId,
                trackingString: banner.trackingId)
        }
    }

    /// DISMISS/ENQUEUED, then DATA_UPDATED/CLIENT_ACTION without the item. The
    /// dismissal holds across refreshes and restarts (a banner's by its id, so
    /// that another banner can fill the placement).
    public func logDismiss(_ channel: Channel, id: String) throws(EngineError) {
        try onLoop { () throws(EngineError) in try dismiss(channel, id: id) }
    }

    private func dismiss(_ channel: Channel, id: String) throws(EngineError) {
        guard user.isSDKEnabled else { throw .sdkDisabled }
        switch channel {
        case .featureFlags:
            throw EngineError(
                .invalidParams, field: "channel", "feature flags are not dismissed; use contentCards or banners")
        case .contentCards:
            let card = try card(id, field: "id")
            try refuseControl(card.isControl, "content card", id)
            guard card.dismissible else {
                throw EngineError(.notAllowed, field: "id", "content card \(id.debugDescription) is not dismissible")
            }
            try enqueue(.dismiss, channel, itemId: card.id, item: card.json)
            updateState(.contentCards, card.id) { $0.dismissed = true }
            sendCacheChange(channel, reason: .clientAction, about: card.json)
        case .banners:
            let banner = try banner(id, field: "id")
            try refuseControl(banner.isControl, "banner in placement", id)
            try enqueue(
                .dismiss, channel, itemId: banner.placementId, item: banner.json, trackingString: banner.trackingId)
            updateState(.banners, banner.id) { $0.dismissed = true }
            sendCacheChange(channel, reason: .clientAction)
        }
    }

    // MARK: - Helpers

    /// Stores the event (so it survives a crash), then sends ENQUEUED;
    /// returns the event's id.
    @discardableResult
    func enqueue(
        _ kind: AnalyticsEvent.Kind, _ channel: Channel, itemId: String, item: JSON,
        buttonId: String? = nil, trackingString: String? = nil, userId: String? = nil
    ) throws(EngineError) -> String {
        let profile = user.profile
        // The session is the current user's: an event for another user has none.
        let ownUser = userId.map { id in profile.userId.map { $0.sameBytes(as: id) } ?? false } ?? true
        let event = AnalyticsEvent(
            eventId: random.identifier(), kind: kind, channel: channel, itemId: itemId,
            userId: userId ?? profile.userId,
            deviceId: profile.deviceId, sessionId: ownUser ? profile.sessionId : nil, time: now, buttonId: buttonId,
            trackingString: trackingString, item: item)
        do {
            try analytics.enqueue(event)
        } catch {
            throw .storage(error)
        }
        // The id lets a client match ENQUEUED to FLUSHED, and find the event at the sink.
        sendAnalytics(
            channel,
            AnalyticsNotice(kind: kind, action: .enqueued, eventId: event.eventId, item: item, buttonId: buttonId))
        return event.eventId
    }

    /// Sends queued events to the sink and calls `done` with how many went out
    /// and how many are still queued, once the sink answered (see `AnalyticsQueue.flush`).
    public func flush(all: Bool = true, _ done: @escaping (_ flushed: Int, _ pending: Int) -> Void) {
        onLoop { analytics.flush(all: all, done) }
    }

    func flag(_ id: String, field: String) throws(EngineError) -> FeatureFlag {
        guard isEnabled(.featureFlags), let flag = caches.flag(id) else {
            throw EngineError(.notFound, field: field, "no feature flag \(id.debugDescription) for the current user")
        }
        return flag
    }

    func card(_ id: String, field: String) throws(EngineError) -> ContentCard {
        guard isEnabled(.contentCards), let card = caches.visibleCard(id, at: now) else {
            throw EngineError(.notFound, field: field, "no content card \(id.debugDescription) for the current user")
        }
        return card
    }

    func banner(_ placementId: String, field: String) throws(EngineError) -> Banner {
        guard isEnabled(.banners), let banner = caches.visibleBanner(placementId, at: now) else {
            throw EngineError(
                .notFound, field: field,
                "no banner in placement \(placementId.debugDescription) for the current user")
        }
        return banner
    }

    /// A control item is never meant to be shown: only its impression is logged.
    func refuseControl(_ isControl: Bool, _ what: String, _ id: String) throws(EngineError) {
        if isControl {
            throw EngineError(
                .notAllowed, field: "id",
                "\(what) \(id.debugDescription) is a control item: only its impression is logged")
        }
    }

    func updateState(_ channel: Channel, _ itemId: String, _ change: (inout ItemState) -> Void) {
        caches.updateState(channel, itemId, user: user.userKey, change)
    }
}
