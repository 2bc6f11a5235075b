import BuntingJSON

/// The two subscription patterns: event subscriptions, and the deprecated
/// update subscriptions that only hear about cache changes.
public enum SubscriptionKind: Sendable {
    case events
    case updates
}

/// One subscription: its opaque id, channel and pattern.
struct Subscription {
    let id: String
    let channel: Channel
    let kind: SubscriptionKind
    /// Content cards only: the `extras` a card must hold to be listed (all
    /// of these keys with these values); nil lists every card.
    var extras: JSONObject? = nil

    var target: EventTarget { EventTarget(subscriptionId: id, channel: channel) }

    /// Whether an event about `item` (a card, as its JSON) concerns this
    /// subscription: any item, unless the subscription lists one feed.
    func concerns(_ item: JSON) -> Bool {
        guard let extras else { return true }
        let itemExtras = item["extras"]?.objectValue ?? [:]
        return extras.allSatisfy { itemExtras[$0.key] == $0.value }
    }
}
