import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Event subscriptions and the deprecated update subscriptions.
enum SubscriptionMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("subscribe", params: [CommonParams.channel(), .object("extras")]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let extras = params.optionalObject("extras")
                return subscription(try engineCall("subscribe") { () throws(EngineError) in
                    guard let extras else { return try engine.subscribe(channel, kind: .events) }
                    return try engine.subscribe(channel, kind: .events, extras: extras)
                })
            },
            .immediate("subscribeToUpdates", params: [CommonParams.channel()]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                return subscription(try engineCall("subscribeToUpdates") { () throws(EngineError) in
                    try engine.subscribe(channel, kind: .updates)
                })
            },
            .immediate("subscribeToDefinitions") { _ throws(RPCError) in
                subscription(try engineCall("subscribeToDefinitions") { () throws(EngineError) in try engine.subscribeToDefinitions() })
            },
            .immediate("removeSubscription", params: [CommonParams.id("subscriptionId")]) { params throws(RPCError) in
                .object(["removed": .bool(engine.removeSubscription(try params.string("subscriptionId")))])
            },
        ]
    }

    /// `{subscriptionId}`, or null while the SDK is disabled.
    private static func subscription(_ id: String?) -> JSON {
        id.map { .object(["subscriptionId": .string($0)]) } ?? .null
    }
}
