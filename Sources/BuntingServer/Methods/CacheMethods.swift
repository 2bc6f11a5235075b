import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Refreshing the caches and reading them.
enum CacheMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(RefreshParams.self) { params throws(RPCError) in
                try engineCall("refresh") { () throws(EngineError) in
                    try engine.refresh(params.channel, placementIds: params.placementIds)
                }
                return .object([:])
            },
            // Reads answer with the text the cache keeps: nothing is encoded per read.
            .encoded(GetSnapshotParams.self) { params throws(RPCError) in
                let snapshot = try engineCall("getSnapshot") { () throws(EngineError) in
                    try engine.readSnapshot(params.channel, extras: params.extras)
                }.encoded
                var added: [UInt8] = []
                // Not yet refreshed for this user: an empty list must not read as "nothing".
                if case .notSynced(let why) = engine.readiness(params.channel) {
                    added += Self.notSyncedKey + JSON.string(why).encoded()
                }
                if params.explain == true {
                    added +=
                        Self.explainKey
                        + JSON.array(engine.explainSnapshot(params.channel, extras: params.extras).map(JSON.object))
                        .encoded()
                }
                guard !added.isEmpty else { return snapshot }
                return EncodedJSON(trustedText: snapshot.bytes.dropLast() + added + [UInt8(ascii: "}")])
            },
            .encoded(GetFeatureFlagParams.self) { params throws(RPCError) in
                try requireSynced(.featureFlags, engine)
                return engine.encodedFeatureFlag(id: params.id) ?? .null
            },
            .encoded(GetBannerParams.self) { params throws(RPCError) in
                try requireSynced(.banners, engine)
                return engine.encodedBanner(placementId: params.placementId) ?? .null
            },
        ]
    }

    private static let notSyncedKey = Array(#","notSynced":"#.utf8)
    private static let explainKey = Array(#","explain":"#.utf8)

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
