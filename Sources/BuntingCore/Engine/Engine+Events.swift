import BuntingJSON

/// Sending events: each helper addresses one kind of `EngineEvent` to the
/// subscriptions that should hear it. The order rules are `EngineEvent`'s.
extension Engine {
    /// Tells subscribers that the cache changed: `cacheLoad`, or `dataUpdated`
    /// with its reason, to event subscriptions; `updates` to update
    /// subscriptions. A change of one item (a dismissal) is told only to the
    /// subscriptions it concerns. Subscriptions without a filter share one
    /// snapshot.
    func sendCacheChange(_ channel: Channel, reason: DataUpdatedReason?, about item: JSON? = nil) {
        let relevant = subscriptions.subscriptions(of: channel).filter { item.map($0.concerns) ?? true }
        guard !relevant.isEmpty else { return }
        let unfiltered = self.snapshot(of: channel)
        for subscription in relevant {
            let snapshot = subscription.extras.map { self.snapshot(of: channel, extras: $0) } ?? unfiltered
            switch (subscription.kind, reason) {
            case (.events, nil): emit(.cacheLoad(subscription.target, snapshot))
            case (.events, let reason?): emit(.dataUpdated(subscription.target, snapshot, reason))
            case (.updates, _): emit(.updates(subscription.target, snapshot))
            }
        }
    }

    /// An ERROR to every event subscription of `channel`.
    func sendError(_ channel: Channel, _ error: ChannelProblem) {
        for subscription in subscriptions.eventSubscriptions(of: channel) {
            emit(.error(subscription.target, error))
        }
    }

    func sendError(
        _ channel: Channel, _ reason: ErrorReason, _ retryState: RetryState, until: Double? = nil,
        message: String? = nil
    ) {
        sendError(channel, ChannelProblem(reason, retryState, rateLimitedUntil: until, message: message))
    }

    /// ENQUEUED or FLUSHED of one analytics event, to the event subscriptions of its channel it concerns.
    func sendAnalytics(_ channel: Channel, _ notice: AnalyticsNotice) {
        for subscription in subscriptions.eventSubscriptions(of: channel, concerning: notice.item) {
            emit(.analytics(subscription.target, notice))
        }
    }

    /// A notice to every definitions subscription.
    func tellDefinitions(_ notice: DefinitionsNotice) {
        for id in subscriptions.definitionsSubscriptionIds { emit(.definitions(subscriptionId: id, notice)) }
    }
}

extension Engine: AnalyticsQueueDelegate {}
