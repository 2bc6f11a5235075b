import BuntingJSON

/// Who listens: the channel subscriptions (event and update patterns) and
/// the definitions subscriptions, in the order they were made, with their
/// ids. Owned by the engine's loop.
///
/// Bounded: every subscription hears every change of its channel, and each
/// event carries the channel's whole snapshot; 5,000 subscriptions made one
/// user change queue 829 MB of output. Past `maxSubscriptions` a new one is
/// refused (`EngineError.limitReached`).
final class SubscriptionTable {
    /// Far more than a client needs (one per channel and feed, a few for tools).
    static let defaultMaxSubscriptions = 100

    let maxSubscriptions: Int
    private var channelSubscriptions: [Subscription] = []
    private var definitionsIds: [String] = []
    private var nextNumber = 1

    init(maxSubscriptions: Int = SubscriptionTable.defaultMaxSubscriptions) {
        self.maxSubscriptions = maxSubscriptions
    }

    var count: Int { channelSubscriptions.count + definitionsIds.count }

    /// A new channel subscription.
    func add(_ channel: Channel, kind: SubscriptionKind, extras: JSONObject?) throws(EngineError) -> Subscription {
        try checkRoom()
        let subscription = Subscription(id: nextId(), channel: channel, kind: kind, extras: extras)
        channelSubscriptions.append(subscription)
        return subscription
    }

    /// A new definitions subscription; its id.
    func addDefinitions() throws(EngineError) -> String {
        try checkRoom()
        let id = nextId()
        definitionsIds.append(id)
        return id
    }

    /// Removes the subscription `id` names; false when it names none.
    func remove(_ id: String) -> Bool {
        if let index = definitionsIds.firstIndex(where: { $0.sameBytes(as: id) }) {
            definitionsIds.remove(at: index)
            return true
        }
        guard let index = channelSubscriptions.firstIndex(where: { $0.id.sameBytes(as: id) }) else { return false }
        channelSubscriptions.remove(at: index)
        return true
    }

    /// Every subscription of `channel` (both patterns), in the order made.
    func subscriptions(of channel: Channel) -> [Subscription] {
        channelSubscriptions.filter { $0.channel == channel }
    }

    /// The event subscriptions of `channel`; with `item`, those it concerns.
    func eventSubscriptions(of channel: Channel, concerning item: JSON? = nil) -> [Subscription] {
        channelSubscriptions.filter { $0.channel == channel && $0.kind == .events && (item.map($0.concerns) ?? true) }
    }

    /// Every event subscription, of every channel.
    var eventSubscriptions: [Subscription] {
        channelSubscriptions.filter { $0.kind == .events }
    }

    var definitionsSubscriptionIds: [String] { definitionsIds }

    func hasSubscription(_ channel: Channel) -> Bool {
        channelSubscriptions.contains { $0.channel == channel }
    }

    /// Channels with at least one subscription, in protocol order.
    var subscribedChannels: [Channel] {
        Channel.allCases.filter(hasSubscription)
    }

    private func checkRoom() throws(EngineError) {
        guard count < maxSubscriptions else {
            throw EngineError(
                .limitReached, field: "channel",
                "this server has \(count) subscriptions, the most it keeps (--max-subscriptions); remove one first")
        }
    }

    private func nextId() -> String {
        defer { nextNumber += 1 }
        return "sub-\(nextNumber)"
    }
}
