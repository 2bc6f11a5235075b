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
        guard profile.sdkEnabled else { throw .sdkDisabled }
        func name(_ index: Int) -> String { field == "ids" ? "ids[\(index)]" : field }
        switch channel {
        case .featureFlags:
            var flags: [FeatureFlag] = []
            for (index, id) in ids.enumerated() { flags.append(try flag(id, field: name(index))) }
            let before = sessionFlagImpressions.count
            // One save for the request, even if a later event cannot be stored.
            defer { if sessionFlagImpressions.count != before { saveProfile() } }
            for flag in flags where !sessionFlagImpressions.contains(flag.impressionKey) {
                try enqueue(.impression, channel, itemId: flag.id, item: flag.json, trackingString: flag.trackingString)
                sessionFlagImpressions.insert(flag.impressionKey)
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
                try enqueue(.impression, channel, itemId: banner.placementId, item: banner.json, trackingString: banner.trackingId)
            }
        }
    }

    public func logClick(_ channel: Channel, id: String, buttonId: String?) throws(EngineError) {
        guard profile.sdkEnabled else { throw .sdkDisabled }
        switch channel {
        case .featureFlags:
            throw EngineError(.invalidParams, field: "channel", "feature flags are not clicked; use contentCards or banners")
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
            try enqueue(.click, channel, itemId: banner.placementId, item: banner.json, buttonId: buttonId, trackingString: banner.trackingId)
        }
    }

    /// DISMISS/ENQUEUED, then DATA_UPDATED/CLIENT_ACTION without the item. The
    /// dismissal holds across refreshes and restarts (a banner's by its id, so
    /// that another banner can fill the placement).
    public func logDismiss(_ channel: Channel, id: String) throws(EngineError) {
        guard profile.sdkEnabled else { throw .sdkDisabled }
        switch channel {
        case .featureFlags:
            throw EngineError(.invalidParams, field: "channel", "feature flags are not dismissed; use contentCards or banners")
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
            try enqueue(.dismiss, channel, itemId: banner.placementId, item: banner.json, trackingString: banner.trackingId)
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
        // The session is the current user's: an event for another user has none.
        let ownUser = userId == nil || userId == profile.userId
        let event = AnalyticsEvent(
            eventId: random.identifier(), kind: kind, channel: channel, itemId: itemId, userId: userId ?? profile.userId,
            deviceId: profile.deviceId, sessionId: ownUser ? profile.sessionId : nil, time: now, buttonId: buttonId,
            trackingString: trackingString, item: item)
        dropOldestIfFull()
        do {
            try store.enqueue(event)
        } catch {
            log.error("analytics event refused: \(error.message)")
            throw .storage(error)
        }
        // The id lets a client match ENQUEUED to FLUSHED, and find the event at the sink.
        sendAnalytics(channel, AnalyticsNotice(kind: kind, action: .enqueued, eventId: event.eventId, item: item, buttonId: buttonId))
        return event.eventId
    }

    /// Keeps the queue within its limit by dropping the oldest events, never
    /// silently: a log line and an ERROR to the channels that lost events.
    func dropOldestIfFull() {
        let excess = store.queuedEventCount - configuration.maxQueuedEvents + 1
        guard excess > 0 else { return }
        let dropped = store.queuedEvents(limit: excess)
        do {
            try store.removeEvents(dropped.map(\.eventId))
        } catch {
            log.error("cannot drop old events: \(error.message)")
            return
        }
        log.warning("analytics queue full (\(configuration.maxQueuedEvents) events): dropped the \(dropped.count) oldest")
        var channels: [Channel] = []
        for event in dropped where !channels.contains(event.channel) { channels.append(event.channel) }
        for channel in channels {
            sendError(channel, .clientError, .doNotRetry, message: "analytics queue full: dropped the oldest events")
        }
    }

    func flag(_ id: String, field: String) throws(EngineError) -> FeatureFlag {
        guard isEnabled(.featureFlags), let flag = cache(.featureFlags).flags.first(where: { $0.id == id }) else {
            throw EngineError(.notFound, field: field, "no feature flag \(id.debugDescription) for the current user")
        }
        return flag
    }

    func card(_ id: String, field: String) throws(EngineError) -> ContentCard {
        guard isEnabled(.contentCards), let card = visibleCard(id) else {
            throw EngineError(.notFound, field: field, "no content card \(id.debugDescription) for the current user")
        }
        return card
    }

    func banner(_ placementId: String, field: String) throws(EngineError) -> Banner {
        guard isEnabled(.banners), let banner = visibleBanner(placementId) else {
            throw EngineError(.notFound, field: field, "no banner in placement \(placementId.debugDescription) for the current user")
        }
        return banner
    }

    /// A control item is never meant to be shown: only its impression is logged.
    func refuseControl(_ isControl: Bool, _ what: String, _ id: String) throws(EngineError) {
        if isControl {
            throw EngineError(.notAllowed, field: "id", "\(what) \(id.debugDescription) is a control item: only its impression is logged")
        }
    }

    func updateState(_ channel: Channel, _ itemId: String, _ change: (inout ItemState) -> Void) {
        let before = itemStates[channel]?[itemId] ?? ItemState()
        var state = before
        change(&state)
        // A card seen again is already viewed: no write (each is a disk commit).
        guard state != before else { return }
        itemStates[channel, default: [:]][itemId] = state
        do {
            try store.saveItemState(user: userKey, channel: channel, itemId: itemId, state: state)
        } catch {
            log.error("cannot save the state of \(itemId): \(error.message)")
        }
    }
}
