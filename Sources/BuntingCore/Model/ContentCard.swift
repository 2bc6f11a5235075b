import BuntingJSON

/// A content card as the client sees it: the definition's fields plus this
/// user's `viewed` and `clicked` state.
public struct ContentCard: Equatable, Sendable, JSONText {
    public enum Kind: String, Sendable {
        case classic, captionedImage, imageOnly, control
    }

    /// What the definitions say of the card, made (and encoded) once and
    /// shared by every copy: a user's cache of thousands of cards copies one
    /// reference per card, not a dozen strings. Besides the text, only the
    /// fields the engine reads for every card are kept (to match, list,
    /// expire and filter them); the others (title, description, …) are read
    /// back from the text when asked for, which only tests and tools do.
    private final class Definition: Sendable {
        let id: String
        let type: Kind
        let extras: JSONObject
        let created: Double
        let updated: Double?
        let expiresAt: Double?
        let pinned: Bool
        let dismissible: Bool
        /// The card's JSON up to its user state: `{…,"dismissible":true`;
        /// `encoded` adds viewed and clicked.
        let encodedPrefix: [UInt8]

        init(
            id: String, type: Kind, extras: JSONObject, created: Double, updated: Double?, expiresAt: Double?,
            pinned: Bool, dismissible: Bool, encodedPrefix: [UInt8]
        ) {
            self.id = id
            self.type = type
            self.extras = extras
            self.created = created
            self.updated = updated
            self.expiresAt = expiresAt
            self.pinned = pinned
            self.dismissible = dismissible
            self.encodedPrefix = encodedPrefix
        }

        /// The definition's fields as the text holds them.
        var written: JSON {
            (try? JSON.parse(encodedPrefix + [UInt8(ascii: "}")])) ?? .null
        }
    }

    private let definition: Definition
    public var viewed: Bool
    public var clicked: Bool

    public var id: String { definition.id }
    public var type: Kind { definition.type }
    public var isControl: Bool { definition.type == .control }
    public var title: String? { definition.written["title"]?.stringValue }
    public var description: String? { definition.written["description"]?.stringValue }
    public var imageUrl: String? { definition.written["imageUrl"]?.stringValue }
    public var aspectRatio: Double? { definition.written["aspectRatio"]?.doubleValue }
    public var url: String? { definition.written["url"]?.stringValue }
    public var linkText: String? { definition.written["linkText"]?.stringValue }
    public var extras: JSONObject { definition.extras }
    public var created: Double { definition.created }
    public var updated: Double? { definition.updated }
    public var expiresAt: Double? { definition.expiresAt }
    public var pinned: Bool { definition.pinned }
    public var dismissible: Bool { definition.dismissible }

    public init(
        id: String, type: Kind, title: String? = nil, description: String? = nil, imageUrl: String? = nil,
        aspectRatio: Double? = nil, url: String? = nil, linkText: String? = nil, extras: JSONObject = [:],
        created: Double, updated: Double? = nil, expiresAt: Double? = nil, pinned: Bool = false,
        dismissible: Bool = true, viewed: Bool = false, clicked: Bool = false
    ) {
        var prefix = ContentCard.definitionJSON(
            id: id, type: type, title: title, description: description, imageUrl: imageUrl, aspectRatio: aspectRatio,
            url: url, linkText: linkText, extras: extras, created: created, updated: updated, expiresAt: expiresAt,
            pinned: pinned, dismissible: dismissible
        ).encoded()
        prefix.removeLast()  // the closing brace; `encoded` writes the user state and its own
        definition = Definition(
            id: id, type: type, extras: extras, created: created, updated: updated, expiresAt: expiresAt,
            pinned: pinned, dismissible: dismissible, encodedPrefix: prefix)
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
        encoded.value
    }

    /// The card as the client sees it, written from the text made once.
    public var encoded: EncodedJSON {
        var text: [UInt8] = []
        appendEncoded(to: &text)
        return EncodedJSON(trustedText: text)
    }

    /// Appends the card's text, user state included, without a copy of its own.
    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: definition.encodedPrefix)
        output.append(contentsOf: viewed ? Self.viewedTrue : Self.viewedFalse)
        output.append(contentsOf: clicked ? Self.clickedTrue : Self.clickedFalse)
    }

    public var encodedCount: Int {
        definition.encodedPrefix.count + (viewed ? Self.viewedTrue : Self.viewedFalse).count
            + (clicked ? Self.clickedTrue : Self.clickedFalse).count
    }

    private static let viewedTrue = Array(#","viewed":true"#.utf8)
    private static let viewedFalse = Array(#","viewed":false"#.utf8)
    private static let clickedTrue = Array(#","clicked":true}"#.utf8)
    private static let clickedFalse = Array(#","clicked":false}"#.utf8)

    public static func == (lhs: ContentCard, rhs: ContentCard) -> Bool {
        lhs.viewed == rhs.viewed && lhs.clicked == rhs.clicked
            && (lhs.definition === rhs.definition || lhs.definition.encodedPrefix == rhs.definition.encodedPrefix)
    }

    fileprivate static func definitionJSON(
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
