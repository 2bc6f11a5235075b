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

    var target: EventTarget { EventTarget(subscriptionId: id, channel: channel) }
}
