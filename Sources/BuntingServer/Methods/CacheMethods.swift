import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Refreshing the caches and reading them.
enum CacheMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("refresh", params: [
                CommonParams.channel(),
                .stringArray("placementIds", minLength: 1, uniqueItems: true),
            ]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let placementIds = params.optionalStringArray("placementIds")
                try engineCall("refresh") { () throws(EngineError) in try engine.refresh(channel, placementIds: placementIds) }
                return .object([:])
            },
            .immediate("getSnapshot", params: [CommonParams.channel()]) { params throws(RPCError) in
                engine.snapshot(try CommonParams.channel(params)).json
            },
            .immediate("getFeatureFlag", params: [.string("id", required: true, minLength: 1)]) { params throws(RPCError) in
                engine.featureFlag(id: try params.string("id")) ?? .null
            },
            .immediate("getBanner", params: [.string("placementId", required: true, minLength: 1)]) { params throws(RPCError) in
                engine.banner(placementId: try params.string("placementId")) ?? .null
            },
        ]
    }
}
