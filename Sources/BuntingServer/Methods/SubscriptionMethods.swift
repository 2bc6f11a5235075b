import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Event subscriptions and the deprecated update subscriptions.
enum SubscriptionMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(SubscribeParams.self) { params throws(RPCError) in
                subscription(
                    try engineCall("subscribe") { () throws(EngineError) in
                        guard let extras = params.extras else {
                            return try engine.subscribe(params.channel, kind: .events)
                        }
                        return try engine.subscribe(params.channel, kind: .events, extras: extras)
                    })
            },
            .immediate(SubscribeToUpdatesParams.self) { params throws(RPCError) in
                subscription(
                    try engineCall("subscribeToUpdates") { () throws(EngineError) in
                        try engine.subscribe(params.channel, kind: .updates)
                    })
            },
            .immediate(SubscribeToDefinitionsParams.self) { _ throws(RPCError) in
                subscription(
                    try engineCall("subscribeToDefinitions") { () throws(EngineError) in
                        try engine.subscribeToDefinitions()
                    })
            },
            .immediate(RemoveSubscriptionParams.self) { params in
                .object(["removed": .bool(engine.removeSubscription(params.subscriptionId))])
            },
        ]
    }

    /// `{subscriptionId}`, or null while the SDK is disabled.
    private static func subscription(_ id: String?) -> JSON {
        id.map { .object(["subscriptionId": .string($0)]) } ?? .null
    }
}
