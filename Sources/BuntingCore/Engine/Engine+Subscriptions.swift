import BuntingJSON

extension Engine {
    /// Adds a subscription. An event subscription then gets CACHE_REPLAY (or,
    /// while its channel is disabled, ERROR FEATURE_DISABLED), and the storage
    /// problem if there is one; the reply to the request goes out first. Nil
    /// while the SDK is disabled.
    public func subscribe(_ channel: Channel, kind: SubscriptionKind) -> String? {
        guard profile.sdkEnabled else { return nil }
        let subscription = Subscription(id: "sub-\(nextSubscriptionNumber)", channel: channel, kind: kind)
        nextSubscriptionNumber += 1
        subscriptions.append(subscription)
        if kind == .events {
            if isEnabled(channel) {
                emit(.cacheReplay(subscription.target, snapshot(channel)))
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

    /// Removes a subscription; false when the id names none.
    public func removeSubscription(_ id: String) -> Bool {
        guard let index = subscriptions.firstIndex(where: { $0.id == id }) else { return false }
        subscriptions.remove(at: index)
        return true
    }
}
