import BuntingJSON

/// A content card as the client sees it: the definition's fields plus this
/// user's `viewed` and `clicked` state.
public struct ContentCard: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case classic, captionedImage, imageOnly, control
    }

    public var id: String
    public var type: Kind
    public var isControl: Bool { type == .control }
    public var title: String?
    public var description: String?
    public var imageUrl: String?
    public var aspectRatio: Double?
    public var url: String?
    public var linkText: String?
    public var extras: JSONObject
    public var created: Double
    public var updated: Double?
    public var expiresAt: Double?
    public var pinned: Bool
    public var dismissible: Bool
    public var viewed: Bool
    public var clicked: Bool

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
        var object: JSONObject = ["id": .string(id), "type": .string(type.rawValue), "isControl": .bool(isControl)]
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
        object["viewed"] = .bool(viewed)
        object["clicked"] = .bool(clicked)
        return .object(object)
    }
}
