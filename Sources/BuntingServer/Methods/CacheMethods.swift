import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Refreshing the caches and reading them.
enum CacheMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("refresh", params: [
                CommonParams.channel(),
                .stringArray("placementIds", itemMaxLength: CommonParams.maxIdLength, minLength: 1, uniqueItems: true),
            ]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let placementIds = params.optionalStringArray("placementIds")
                try engineCall("refresh") { () throws(EngineError) in try engine.refresh(channel, placementIds: placementIds) }
                return .object([:])
            },
            // Reads answer with the text the cache keeps: nothing is encoded per read.
            .encoded("getSnapshot", params: [CommonParams.channel(), .object("extras")]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let extras = params.optionalObject("extras")
                let snapshot = try engineCall("getSnapshot") { () throws(EngineError) in try engine.readSnapshot(channel, extras: extras) }.encoded
                // Not yet refreshed for this user: an empty list must not read as "nothing".
                guard case .notSynced(let why) = engine.readiness(channel) else { return snapshot }
                return EncodedJSON(trustedText: snapshot.bytes.dropLast() + Self.notSyncedKey + JSON.string(why).encoded() + [UInt8(ascii: "}")])
            },
            .encoded("getFeatureFlag", params: [CommonParams.id("id")]) { params throws(RPCError) in
                try requireSynced(.featureFlags, engine)
                return engine.encodedFeatureFlag(id: try params.string("id")) ?? .null
            },
            .encoded("getBanner", params: [CommonParams.id("placementId")]) { params throws(RPCError) in
                try requireSynced(.banners, engine)
                return engine.encodedBanner(placementId: try params.string("placementId")) ?? .null
            },
        ]
    }

    private static let notSyncedKey = Array(#","notSynced":"#.utf8)

    /// A read's `null` means "no such item for this user" only once the
    /// channel is synced; before that, the read is refused with the reason.
    static func requireSynced(_ channel: Channel, _ engine: Engine) throws(RPCError) {
        switch engine.readiness(channel) {
        case .synced:
            return
        case .notSynced(let why):
            throw RPCError(
                code: .notSynced, reason: "NOT_SYNCED", message: "Not synced: \(why)",
                details: ["channel": .string(channel.rawValue), "why": .string(why)])
        case .disabled(let why):
            throw RPCError(
                code: .channelDisabled, reason: "CHANNEL_DISABLED", message: "Channel disabled: \(why)",
                details: ["channel": .string(channel.rawValue), "why": .string(why)])
        }
    }
}
