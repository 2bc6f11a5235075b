import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Event subscriptions and the deprecated update subscriptions.
enum SubscriptionMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("subscribe", params: [CommonParams.channel()]) { params throws(RPCError) in
                subscription(engine.subscribe(try CommonParams.channel(params), kind: .events))
            },
            .immediate("subscribeToUpdates", params: [CommonParams.channel()]) { params throws(RPCError) in
                subscription(engine.subscribe(try CommonParams.channel(params), kind: .updates))
            },
            .immediate("removeSubscription", params: [.string("subscriptionId", required: true, minLength: 1)]) { params throws(RPCError) in
                .object(["removed": .bool(engine.removeSubscription(try params.string("subscriptionId")))])
            },
        ]
    }

    /// `{subscriptionId}`, or null while the SDK is disabled.
    private static func subscription(_ id: String?) -> JSON {
        id.map { .object(["subscriptionId": .string($0)]) } ?? .null
    }
}
