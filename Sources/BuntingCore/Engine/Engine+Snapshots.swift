import BuntingJSON

/// What the client reads: snapshots of the channels (`ChannelCaches` keeps
/// them), single items, and flags evaluated for a context.
extension Engine {
    /// The data of a channel under its key: what snapshots and `updates`
    /// carry; `extras` chooses content cards.
    public func snapshotData(_ channel: Channel, extras: JSONObject? = nil) -> JSON {
        onLoop { encodedSnapshotData(channel, extras: extras).value }
    }

    func encodedSnapshotData(_ channel: Channel, extras: JSONObject?) -> EncodedJSON {
        guard isEnabled(channel) else { return ChannelCaches.emptyData[channel]! }
        return caches.encodedSnapshotData(channel, extras: extras, at: now)
    }

    /// The channel's data and lastSyncAt (nil while the channel is disabled).
    func snapshot(of channel: Channel, extras: JSONObject? = nil) -> ChannelSnapshot {
        ChannelSnapshot(
            channel: channel, encodedData: encodedSnapshotData(channel, extras: extras),
            lastSyncAt: isEnabled(channel) ? caches.cache(channel).lastSyncAt : nil)
    }

    /// The snapshot as events carry it.
    public func snapshot(_ channel: Channel, extras: JSONObject? = nil) -> ChannelSnapshot {
        onLoop { snapshot(of: channel, extras: extras) }
    }

    /// `getSnapshot`: the snapshot, content cards chosen by `extras` if given.
    public func readSnapshot(_ channel: Channel, extras: JSONObject?) throws(EngineError) -> ChannelSnapshot {
        try onLoop { () throws(EngineError) in
            try checkFilter(channel, extras)
            return snapshot(of: channel, extras: extras)
        }
    }

    public func featureFlag(id: String) -> JSON? {
        encodedFeatureFlag(id: id)?.value
    }

    /// The flag as its text, for replies.
    public func encodedFeatureFlag(id: String) -> EncodedJSON? {
        onLoop {
            guard isEnabled(.featureFlags) else { return nil }
            return caches.flag(id)?.encoded
        }
    }

    public func banner(placementId: String) -> JSON? {
        encodedBanner(placementId: placementId)?.value
    }

    public func encodedBanner(placementId: String) -> EncodedJSON? {
        onLoop {
            guard isEnabled(.banners) else { return nil }
            return caches.visibleBanner(placementId, at: now)?.encoded
        }
    }

    /// A flag of the current definitions resolved for `context`, as flagd
    /// would; an unknown flag (or no definitions yet) is FLAG_NOT_FOUND.
    public func evaluateFlag(_ flagKey: String, context: JSON, type: FlagType? = nil) -> JSONObject {
        onLoop {
            guard let definitions else { return Self.flagNotFound(flagKey) }
            return definitions.evaluateFlag(flagKey, context: context, type: type, at: now)
        }
    }

    /// The same, as the text of the reply.
    public func encodedFlagResult(_ flagKey: String, context: JSON, type: FlagType? = nil) -> EncodedJSON {
        onLoop {
            guard let definitions else { return EncodedJSON(.object(Self.flagNotFound(flagKey))) }
            return definitions.encodedFlagResult(flagKey, context: context, type: type, at: now)
        }
    }

    /// Many flags of the current definitions for one context.
    public func evaluateFlags(context: JSON, flagKeys: [String]?) -> JSONObject {
        onLoop {
            guard let definitions else {
                var flags = JSONObject()
                for key in flagKeys ?? [] { flags[key] = .object(Self.flagNotFound(key)) }
                return ["flags": .object(flags)]
            }
            return definitions.evaluateFlags(context: context, flagKeys: flagKeys, at: now)
        }
    }

    static func flagNotFound(_ flagKey: String) -> JSONObject {
        [
            "value": .null, "variant": .null, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND",
            "errorMessage": .string("flag \(flagKey.debugDescription) not found: no definitions are loaded"),
        ]
    }
}
