import BuntingJSON

extension Engine {
    /// Adds a subscription. An event subscription then gets CACHE_REPLAY (or,
    /// while its channel is disabled, ERROR with the reason), and the storage
    /// problem if there is one; the reply to the request goes out first. Nil
    /// while the SDK is disabled.
    public func subscribe(_ channel: Channel, kind: SubscriptionKind) -> String? {
        addSubscription(channel, kind: kind, extras: nil)
    }

    /// A subscription that lists only the content cards whose extras hold
    /// every key of `extras` with its value.
    public func subscribe(_ channel: Channel, kind: SubscriptionKind, extras: JSONObject) throws(EngineError) -> String? {
        try checkFilter(channel, extras)
        return addSubscription(channel, kind: kind, extras: extras)
    }

    private func addSubscription(_ channel: Channel, kind: SubscriptionKind, extras: JSONObject?) -> String? {
        loop.assertOnLoop()
        guard profile.sdkEnabled else { return nil }
        let subscription = Subscription(id: nextSubscriptionId(), channel: channel, kind: kind, extras: extras)
        subscriptions.append(subscription)
        if kind == .events {
            if isEnabled(channel) {
                emit(.cacheReplay(subscription.target, snapshot(channel, extras: extras)))
            } else if definitions == nil, let definitionsProblem {
                // Off because there are no definitions: say why.
                emit(.error(subscription.target, definitionsProblem))
            } else {
                let why = definitions == nil ? "no definitions have been loaded yet" : "the definitions turn it off"
                emit(.error(subscription.target, ChannelError(.featureDisabled, .doNotRetry, message: "the \(channel.rawValue) channel is disabled: \(why)")))
            }
            sendStorageProblem(to: subscription)
        }
        return subscription.id
    }

    /// Adds a definitions subscription: READY at once when definitions are
    /// loaded, the cause when they could not be, then what becomes of them
    /// (see `DefinitionsNotice`). Nil while the SDK is disabled.
    public func subscribeToDefinitions() -> String? {
        loop.assertOnLoop()
        guard profile.sdkEnabled else { return nil }
        let id = nextSubscriptionId()
        definitionsSubscriptions.append(id)
        if let definitionsLoadedAt, definitions != nil {
            emit(.definitions(subscriptionId: id, .ready(loadedAt: definitionsLoadedAt)))
        } else if let definitionsProblem {
            emit(.definitions(subscriptionId: id, .error(definitionsProblem, stale: false)))
        }
        return id
    }

    private func nextSubscriptionId() -> String {
        defer { nextSubscriptionNumber += 1 }
        return "sub-\(nextSubscriptionNumber)"
    }

    /// Filters are for content cards.
    func checkFilter(_ channel: Channel, _ extras: JSONObject?) throws(EngineError) {
        if extras != nil, channel != .contentCards {
            throw EngineError(.invalidParams, field: "extras", "only content cards are chosen by extras")
        }
    }

    /// Removes a subscription; false when the id names none.
    public func removeSubscription(_ id: String) -> Bool {
        loop.assertOnLoop()
        if let index = definitionsSubscriptions.firstIndex(of: id) {
            definitionsSubscriptions.remove(at: index)
            return true
        }
        guard let index = subscriptions.firstIndex(where: { $0.id == id }) else { return false }
        subscriptions.remove(at: index)
        return true
    }
}
