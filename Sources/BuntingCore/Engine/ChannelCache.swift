import BuntingJSON

/// What one channel holds for one user: the items of the last refresh and
/// when it finished. Card and banner state (viewed, clicked, dismissed) is
/// kept apart and applied when the cache is read.
struct ChannelCache: Equatable {
    /// Unix seconds of the last finished refresh for this user; 0 before any.
    var lastSyncAt: Double = 0
    /// Set with `setFlags`, which writes their text.
    private(set) var flags: [FeatureFlag] = []
    /// `[flag,…]` as the refresh that made `flags` wrote it: the same text
    /// goes into the snapshot sent and into the stored form, so it is written
    /// once per refresh. Nil for caches read back from the store or kept aside
    /// (`withoutText`), which write it when asked.
    private(set) var encodedFlags: EncodedJSON?
    /// Placement id → banner.
    /// By placement id, keyed by its bytes.
    var banners: [ExactString: Banner] = [:]
    var cards: [ContentCard] = [] {
        // A refresh that finds the cards a returning user's `CACHE_LOAD`
        // listed keeps that listing for its `DATA_UPDATED`, so a returning
        // user's change lists its cards once, as a new user's does. Cards
        // compare by their rows, and by their texts only where those differ
        // (a control card is made per refresh, in a table of its own).
        didSet { if cards != oldValue { listedCards = nil } }
    }
    /// The cards' snapshot data (no `extras` filter) as last written, while
    /// the cards and the user's card states stay as they were: written again
    /// only when the time passes a card's expiry. Nil until a snapshot is
    /// written, and in caches read back from the store or kept aside after
    /// memory is given back (`withoutText`).
    var listedCards: ListedCardsText?

    mutating func setFlags(_ flags: [FeatureFlag]) {
        self.flags = flags
        encodedFlags = .array(flags)
    }

    /// The flags' array text: the one written by the refresh, or a new one.
    var flagsText: EncodedJSON { encodedFlags ?? .array(flags) }

    /// The same cache without the texts kept only to be quicker (the flags'
    /// array and the listed cards' snapshot): each is as large as the items'
    /// own, and is needed again only for a snapshot before the next refresh.
    var withoutText: ChannelCache {
        var cache = self
        cache.encodedFlags = nil
        cache.listedCards = nil
        return cache
    }

    /// The form kept by the store, written from the text of its items into
    /// one buffer of its final size. Its first member, `lastSyncAt`, changes
    /// with every refresh and is written to a fixed width, so that a refresh
    /// that finds the same items writes a text of the same size, differing
    /// in its first bytes only, which the store writes over in place.
    var encoded: EncodedJSON {
        let flags = flagsText
        let banners = self.banners.keys.sorted(by: { $0.string < $1.string }).map { self.banners[$0]!.encoded }
        var object = EncodedJSON.ObjectBuilder()
        object.reserveCapacity(
            flags.bytes.count + EncodedArray(banners).encodedCount + EncodedArray(cards).encodedCount + Self.roomForKeys
        )
        object.add(Self.lastSyncAtKey, FixedWidthNumber(lastSyncAt))
        object.add(Self.flagsKey, flags)
        object.add(Self.bannersKey, EncodedArray(banners))
        object.add(Self.cardsKey, EncodedArray(cards))
        return object.finish()
    }

    private static let lastSyncAtKey = EncodedJSON.Key("lastSyncAt")
    private static let flagsKey = EncodedJSON.Key("flags")
    private static let bannersKey = EncodedJSON.Key("banners")
    private static let cardsKey = EncodedJSON.Key("cards")
    /// The four keys, their commas and the number: a size hint.
    private static let roomForKeys = 96

    /// Equal when the items are: the texts are written from them.
    static func == (lhs: ChannelCache, rhs: ChannelCache) -> Bool {
        lhs.lastSyncAt == rhs.lastSyncAt && lhs.flags == rhs.flags && lhs.banners == rhs.banners
            && lhs.cards == rhs.cards
    }

    init() {}

    /// Reads the stored form back; anything malformed is left out rather than trusted.
    init(stored: JSON) {
        lastSyncAt = stored["lastSyncAt"]?.doubleValue ?? 0
        flags = stored["flags"]?.arrayValue?.compactMap(FeatureFlag.init(stored:)) ?? []
        for banner in stored["banners"]?.arrayValue?.compactMap(Banner.init(stored:)) ?? [] {
            banners[ExactString(banner.placementId)] = banner
        }
        cards = stored["cards"]?.arrayValue?.compactMap(ContentCard.init(json:)) ?? []
    }
}

/// A number followed by spaces up to `width` bytes, which JSON allows
/// between a value and what follows it. 24 bytes hold any double jansson
/// writes (17 digits, a sign, a point and an exponent of four).
private struct FixedWidthNumber: JSONText {
    static let width = 24
    let text: [UInt8]

    init(_ value: Double) {
        var text = JSON.number(value).encoded()
        if text.count < Self.width { text += repeatElement(UInt8(ascii: " "), count: Self.width - text.count) }
        self.text = text
    }

    func appendEncoded(to output: inout [UInt8]) { output.append(contentsOf: text) }
    var encodedCount: Int { text.count }
}

extension FeatureFlag {
    init?(stored json: JSON) {
        guard let id = json["id"]?.stringValue, let enabled = json["enabled"]?.boolValue else { return nil }
        self.init(
            id: id, enabled: enabled, properties: json["properties"]?.objectValue ?? [:],
            trackingString: json["trackingString"]?.stringValue,
            metadata: json["metadata"]?.objectValue ?? [:])
    }
}

extension Banner {
    init?(stored json: JSON) {
        guard let id = json["id"]?.stringValue, let placementId = json["placementId"]?.stringValue,
            let html = json["html"]?.stringValue
        else { return nil }
        self.init(
            id: id, placementId: placementId, html: html, isControl: json["isControl"]?.boolValue ?? false,
            isTestSend: json["isTestSend"]?.boolValue ?? false, expiresAt: json["expiresAt"]?.doubleValue,
            properties: json["properties"]?.objectValue ?? [:], trackingId: json["trackingId"]?.stringValue)
    }
}

extension ContentCard {
    /// A card from its JSON form (as stored, or as a definitions document
    /// writes it); nil when a required field is missing or of the wrong type.
    /// `viewed` and `clicked` are user state, kept apart, and start false.
    public init?(json: JSON) {
        var builder = TableBuilder()
        guard builder.add(json: json) != nil else { return nil }
        self = builder.onlyCard()
    }
}
