import BuntingJSON

/// What one channel holds for one user: the items of the last refresh and
/// when it finished. Card and banner state (viewed, clicked, dismissed) is
/// kept apart and applied when the cache is read.
struct ChannelCache: Equatable {
    /// Unix seconds of the last finished refresh for this user; 0 before any.
    var lastSyncAt: Double = 0
    var flags: [FeatureFlag] = []
    /// Placement id → banner.
    var banners: [String: Banner] = [:]
    var cards: [ContentCard] = []

    /// The form kept by the store, written from the text of its items.
    var encoded: EncodedJSON {
        var object = EncodedJSON.ObjectBuilder()
        object.add("lastSyncAt", .number(lastSyncAt))
        object.add("flags", .array(flags))
        object.add("banners", .array(banners.keys.sorted().lazy.compactMap { banners[$0]?.encoded }))
        object.add("cards", .array(cards))
        return object.finish()
    }

    init() {}

    /// Reads the stored form back; anything malformed is left out rather than trusted.
    init(stored: JSON) {
        lastSyncAt = stored["lastSyncAt"]?.doubleValue ?? 0
        flags = stored["flags"]?.arrayValue?.compactMap(FeatureFlag.init(stored:)) ?? []
        for banner in stored["banners"]?.arrayValue?.compactMap(Banner.init(stored:)) ?? [] {
            banners[banner.placementId] = banner
        }
        cards = stored["cards"]?.arrayValue?.compactMap(ContentCard.init(json:)) ?? []
    }
}

extension FeatureFlag {
    init?(stored json: JSON) {
        guard let id = json["id"]?.stringValue, let enabled = json["enabled"]?.boolValue else { return nil }
        self.init(
            id: id, enabled: enabled, properties: json["properties"]?.objectValue ?? [:], trackingString: json["trackingString"]?.stringValue,
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
        guard let id = json["id"]?.stringValue, let typeName = json["type"]?.stringValue,
              let type = Kind(rawValue: typeName), let created = json["created"]?.doubleValue
        else { return nil }
        self.init(
            id: id, type: type, title: json["title"]?.stringValue, description: json["description"]?.stringValue,
            imageUrl: json["imageUrl"]?.stringValue, aspectRatio: json["aspectRatio"]?.doubleValue,
            url: json["url"]?.stringValue, linkText: json["linkText"]?.stringValue,
            extras: json["extras"]?.objectValue ?? [:], created: created, updated: json["updated"]?.doubleValue,
            expiresAt: json["expiresAt"]?.doubleValue, pinned: json["pinned"]?.boolValue ?? false,
            dismissible: json["dismissible"]?.boolValue ?? true)
    }
}
