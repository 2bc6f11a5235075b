import BuntingJSON

/// A content card as the client sees it: the definition's fields plus this
/// user's `viewed` and `clicked` state.
public struct ContentCard: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case classic, captionedImage, imageOnly, control
    }

    public let id: String
    public let type: Kind
    public var isControl: Bool { type == .control }
    public let title: String?
    public let description: String?
    public let imageUrl: String?
    public let aspectRatio: Double?
    public let url: String?
    public let linkText: String?
    public let extras: JSONObject
    public let created: Double
    public let updated: Double?
    public let expiresAt: Double?
    public let pinned: Bool
    public let dismissible: Bool
    public var viewed: Bool
    public var clicked: Bool
    /// The card's JSON up to its user state: `{…,"dismissible":true`, written
    /// once when the card is made; `encoded` adds viewed and clicked.
    private let encodedPrefix: [UInt8]

    public init(
        id: String, type: Kind, title: String? = nil, description: String? = nil, imageUrl: String? = nil,
        aspectRatio: Double? = nil, url: String? = nil, linkText: String? = nil, extras: JSONObject = [:],
        created: Double, updated: Double? = nil, expiresAt: Double? = nil, pinned: Bool = false,
        dismissible: Bool = true, viewed: Bool = false, clicked: Bool = false
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.description = description
        self.imageUrl = imageUrl
        self.aspectRatio = aspectRatio
        self.url = url
        self.linkText = linkText
        self.extras = extras
        self.created = created
        self.updated = updated
        self.expiresAt = expiresAt
        self.pinned = pinned
        self.dismissible = dismissible
        self.viewed = viewed
        self.clicked = clicked
        var prefix = Self.definitionJSON(
            id: id, type: type, title: title, description: description, imageUrl: imageUrl, aspectRatio: aspectRatio, url: url,
            linkText: linkText, extras: extras, created: created, updated: updated, expiresAt: expiresAt, pinned: pinned,
            dismissible: dismissible
        ).encoded()
        prefix.removeLast()  // the closing brace; `encoded` writes the user state and its own
        encodedPrefix = prefix
    }

    public func isExpired(at now: Double) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    /// Pinned first, then newest `created` first, then by id.
    public static func listedBefore(_ lhs: ContentCard, _ rhs: ContentCard) -> Bool {
        if lhs.pinned != rhs.pinned { return lhs.pinned }
        if lhs.created != rhs.created { return lhs.created > rhs.created }
        return lhs.id < rhs.id
    }

    public var json: JSON {
        encoded.value
    }

    /// The card as the client sees it, written from the text made once.
    public var encoded: EncodedJSON {
        var text = encodedPrefix
        text.append(contentsOf: viewed ? Self.viewedTrue : Self.viewedFalse)
        text.append(contentsOf: clicked ? Self.clickedTrue : Self.clickedFalse)
        return EncodedJSON(trustedText: text)
    }

    private static let viewedTrue = Array(#","viewed":true"#.utf8)
    private static let viewedFalse = Array(#","viewed":false"#.utf8)
    private static let clickedTrue = Array(#","clicked":true}"#.utf8)
    private static let clickedFalse = Array(#","clicked":false}"#.utf8)

    public static func == (lhs: ContentCard, rhs: ContentCard) -> Bool {
        lhs.encoded == rhs.encoded
    }

    private static func definitionJSON(
        id: String, type: Kind, title: String?, description: String?, imageUrl: String?, aspectRatio: Double?, url: String?,
        linkText: String?, extras: JSONObject, created: Double, updated: Double?, expiresAt: Double?, pinned: Bool,
        dismissible: Bool
    ) -> JSON {
        var object: JSONObject = ["id": .string(id), "type": .string(type.rawValue), "isControl": .bool(type == .control)]
        if let title { object["title"] = .string(title) }
        if let description { object["description"] = .string(description) }
        if let imageUrl { object["imageUrl"] = .string(imageUrl) }
        if let aspectRatio { object["aspectRatio"] = .number(aspectRatio) }
        if let url { object["url"] = .string(url) }
        if let linkText { object["linkText"] = .string(linkText) }
        object["extras"] = .object(extras)
        object["created"] = .number(created)
        if let updated { object["updated"] = .number(updated) }
        if let expiresAt { object["expiresAt"] = .number(expiresAt) }
        object["pinned"] = .bool(pinned)
        object["dismissible"] = .bool(dismissible)
        return .object(object)
    }
}
