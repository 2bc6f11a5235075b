import BuntingJSON

/// What the client reads: items as they stand now (expired and dismissed ones
/// left out, card state applied), and the snapshots events carry.
extension Engine {
    /// The current user's cards as listed: expired and dismissed ones out,
    /// viewed and clicked applied, pinned first, then newest; with `extras`,
    /// only the cards whose extras hold every one of those keys and values.
    func visibleCards(matching extras: JSONObject? = nil) -> [ContentCard] {
        let now = self.now
        let states = itemStates[.contentCards] ?? [:]
        return cache(.contentCards).cards.compactMap { card in
            if let extras, !extras.allSatisfy({ card.extras[$0.key] == $0.value }) { return nil }
            return visible(card, at: now, states: states)
        }.sorted(by: ContentCard.listedBefore)
    }

    /// One listed card by id, found without listing (and sorting) them all.
    func visibleCard(_ id: String) -> ContentCard? {
        guard let card = cache(.contentCards).cards.first(where: { $0.id.sameBytes(as: id) }) else { return nil }
        return visible(card, at: now, states: itemStates[.contentCards] ?? [:])
    }

    /// The card as listed now: nil when expired or dismissed, else with the
    /// user's viewed and clicked state.
    private func visible(_ card: ContentCard, at now: Double, states: [ExactString: ItemState]) -> ContentCard? {
        let state = states[ExactString(card.id)] ?? ItemState()
        guard !card.isExpired(at: now), !state.dismissed else { return nil }
        var card = card
        card.viewed = state.viewed
        card.clicked = state.clicked
        return card
    }

    /// Placement id → the banner that fills it now (expired and dismissed banners left out).
    func visibleBanners() -> [ExactString: Banner] {
        let now = self.now
        let states = itemStates[.banners] ?? [:]
        return cache(.banners).banners.filter { isShown($0.value, at: now, states: states) }
    }

    /// The banner that fills one placement now, if any.
    func visibleBanner(_ placementId: String) -> Banner? {
        guard let banner = cache(.banners).banners[ExactString(placementId)],
              isShown(banner, at: now, states: itemStates[.banners] ?? [:])
        else { return nil }
        return banner
    }

    private func isShown(_ banner: Banner, at now: Double, states: [ExactString: ItemState]) -> Bool {
        !banner.isExpired(at: now) && states[ExactString(banner.id)]?.dismissed != true
    }

    func itemCount(_ channel: Channel) -> Int {
        switch channel {
        case .featureFlags: cache(.featureFlags).flags.count
        case .banners: visibleBanners().count
        case .contentCards:
            // Counted, not listed: no need to sort.
            cache(.contentCards).cards.lazy.compactMap { [now, states = itemStates[.contentCards] ?? [:]] in
                self.visible($0, at: now, states: states)
            }.count
        }
    }

    /// The data of a channel under its key: what snapshots and `updates`
    /// carry; `extras` chooses content cards (see `visibleCards`).
    public func snapshotData(_ channel: Channel, extras: JSONObject? = nil) -> JSON {
        encodedSnapshotData(channel, extras: extras).value
    }

    /// The same, written from the text each item holds: a snapshot of
    /// thousands of items costs no tree and no encoding of its own.
    func encodedSnapshotData(_ channel: Channel, extras: JSONObject?) -> EncodedJSON {
        guard isEnabled(channel) else { return Self.emptyData[channel]! }
        switch channel {
        case .featureFlags:
            return cache(.featureFlags).flagsText
        case .banners:
            let banners = visibleBanners()
            var object = EncodedJSON.ObjectBuilder()
            for placement in banners.keys.sorted(by: { $0.string < $1.string }) { object.add(placement.string, banners[placement]!.encoded) }
            return object.finish()
        case .contentCards:
            let cards = visibleCards(matching: extras)
            let unviewed = cards.count { !$0.viewed && !$0.isControl }
            let listed = EncodedArray(cards)
            var object = EncodedJSON.ObjectBuilder()
            object.reserveCapacity(listed.encodedCount + Self.roomForUnviewedCount)
            object.add(Self.cardsKey, listed)
            object.add(Self.unviewedCountKey, .int(unviewed))
            return object.finish()
        }
    }

    private static let cardsKey = EncodedJSON.Key("cards")
    private static let unviewedCountKey = EncodedJSON.Key("unviewedCount")
    /// The key, the comma and the count after the cards: a size hint.
    private static let roomForUnviewedCount = 48

    private static let emptyData: [Channel: EncodedJSON] = [
        .featureFlags: EncodedJSON(.array([])), .banners: EncodedJSON(.object([:])),
        .contentCards: EncodedJSON(.object(["cards": .array([]), "unviewedCount": 0])),
    ]

    /// The channel's data and lastSyncAt (nil while the channel is disabled).
    public func snapshot(_ channel: Channel, extras: JSONObject? = nil) -> ChannelSnapshot {
        ChannelSnapshot(
            channel: channel, encodedData: encodedSnapshotData(channel, extras: extras),
            lastSyncAt: isEnabled(channel) ? cache(channel).lastSyncAt : nil)
    }

    /// `getSnapshot`: the snapshot, content cards chosen by `extras` if given.
    public func readSnapshot(_ channel: Channel, extras: JSONObject?) throws(EngineError) -> ChannelSnapshot {
        try checkFilter(channel, extras)
        return snapshot(channel, extras: extras)
    }

    public func featureFlag(id: String) -> JSON? {
        encodedFeatureFlag(id: id)?.value
    }

    /// The flag as its text, for replies.
    public func encodedFeatureFlag(id: String) -> EncodedJSON? {
        guard isEnabled(.featureFlags) else { return nil }
        return cache(.featureFlags).flags.first { $0.id.sameBytes(as: id) }?.encoded
    }

    public func banner(placementId: String) -> JSON? {
        encodedBanner(placementId: placementId)?.value
    }

    public func encodedBanner(placementId: String) -> EncodedJSON? {
        guard isEnabled(.banners) else { return nil }
        return visibleBanner(placementId)?.encoded
    }

    /// A flag of the current definitions resolved for `context`, as flagd
    /// would; an unknown flag (or no definitions yet) is FLAG_NOT_FOUND.
    public func evaluateFlag(_ flagKey: String, context: JSON, type: FlagType? = nil) -> JSONObject {
        guard let definitions else { return Self.flagNotFound(flagKey) }
        return definitions.evaluateFlag(flagKey, context: context, type: type, at: now)
    }

    /// The same, as the text of the reply.
    public func encodedFlagResult(_ flagKey: String, context: JSON, type: FlagType? = nil) -> EncodedJSON {
        guard let definitions else { return EncodedJSON(.object(Self.flagNotFound(flagKey))) }
        return definitions.encodedFlagResult(flagKey, context: context, type: type, at: now)
    }

    /// Many flags of the current definitions for one context.
    public func evaluateFlags(context: JSON, flagKeys: [String]?) -> JSONObject {
        guard let definitions else {
            var flags = JSONObject()
            for key in flagKeys ?? [] { flags[key] = .object(Self.flagNotFound(key)) }
            return ["flags": .object(flags)]
        }
        return definitions.evaluateFlags(context: context, flagKeys: flagKeys, at: now)
    }

    static func flagNotFound(_ flagKey: String) -> JSONObject {
        [
            "value": .null, "variant": .null, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND",
            "errorMessage": .string("flag \(flagKey.debugDescription) not found: no definitions are loaded"),
        ]
    }
}
