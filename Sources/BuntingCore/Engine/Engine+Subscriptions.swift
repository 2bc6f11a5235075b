import BuntingJSON

extension Engine {
    /// Adds a subscription. An event subscription then gets CACHE_REPLAY (or,
    /// while its channel is disabled, ERROR with the reason), and the storage
    /// problem if there is one; the reply to the request goes out first. Nil
    /// while the SDK is disabled; refused past `maxSubscriptions`.
    public func subscribe(_ channel: Channel, kind: SubscriptionKind) throws(EngineError) -> String? {
        try onLoop { () throws(EngineError) in try addSubscription(channel, kind: kind, extras: nil) }
    }

    /// A subscription that lists only the content cards whose extras hold
    /// every key of `extras` with its value.
    public func subscribe(_ channel: Channel, kind: SubscriptionKind, extras: JSONObject) throws(EngineError) -> String?
    {
        try onLoop { () throws(EngineError) in
            try checkFilter(channel, extras)
            return try addSubscription(channel, kind: kind, extras: extras)
        }
    }

    private func addSubscription(_ channel: Channel, kind: SubscriptionKind, extras: JSONObject?) throws(EngineError)
        -> String?
    {
        guard user.isSDKEnabled else { return nil }
        let subscription = try subscriptions.add(channel, kind: kind, extras: extras)
        if kind == .events {
            if isEnabled(channel) {
                emit(.cacheReplay(subscription.target, snapshot(of: channel, extras: extras)))
            } else if definitions == nil, let problem = fetcher.problem {
                // Off because there are no definitions: say why.
                emit(.error(subscription.target, problem))
            } else if definitions == nil, fetcher.isFetching {
                // The first document is on its way: the SDK is about to fetch it, not done.
                emit(
                    .error(
                        subscription.target,
                        ChannelProblem(
                            .featureDisabled, .sdkWillRetry,
                            message: "the \(channel.rawValue) channel is off until the first definitions arrive from "
                                + "\(fetcher.location) (being fetched); DATA_UPDATED follows when they do")))
            } else {
                let why = definitions == nil ? "no definitions have been loaded yet" : "the definitions turn it off"
                emit(
                    .error(
                        subscription.target,
                        ChannelProblem(
                            .featureDisabled, .doNotRetry,
                            message: "the \(channel.rawValue) channel is disabled: \(why)")))
            }
            sendStorageProblem(to: subscription)
        }
        return subscription.id
    }

    /// Adds a definitions subscription: READY at once when definitions are
    /// loaded, the cause when they could not be, then what becomes of them
    /// (see `DefinitionsNotice`). Nil while the SDK is disabled.
    public func subscribeToDefinitions() throws(EngineError) -> String? {
        try onLoop { () throws(EngineError) in
            guard user.isSDKEnabled else { return nil }
            let id = try subscriptions.addDefinitions()
            if let loadedAt = fetcher.loadedAt, definitions != nil {
                emit(.definitions(subscriptionId: id, .ready(loadedAt: loadedAt)))
            } else if let problem = fetcher.problem {
                emit(.definitions(subscriptionId: id, .error(problem, stale: false)))
            }
            return id
        }
    }

    /// Filters are for content cards.
    func checkFilter(_ channel: Channel, _ extras: JSONObject?) throws(EngineError) {
        if extras != nil, channel != .contentCards {
            throw EngineError(.invalidParams, field: "extras", "only content cards are chosen by extras")
        }
    }

    /// Removes a subscription; false when the id names none.
    public func removeSubscription(_ id: String) -> Bool {
        onLoop { subscriptions.remove(id) }
    }
}
