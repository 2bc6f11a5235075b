import BuntingJSON

/// The banner that fills one placement for the current user.
public struct Banner: Equatable, Sendable {
    public var id: String
    public var placementId: String
    public var html: String
    /// A control banner marks a user of the control group: never meant to be
    /// shown (its html is empty), but its impression is logged.
    public var isControl: Bool
    public var isTestSend: Bool
    public var expiresAt: Double?
    public var properties: JSONObject
    public var trackingId: String?

    public init(
        id: String, placementId: String, html: String, isControl: Bool = false, isTestSend: Bool = false,
        expiresAt: Double? = nil, properties: JSONObject = [:], trackingId: String? = nil
    ) {
        self.id = id
        self.placementId = placementId
        self.html = html
        self.isControl = isControl
        self.isTestSend = isTestSend
        self.expiresAt = expiresAt
        self.properties = properties
        self.trackingId = trackingId
    }

    public func isExpired(at now: Double) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    public var json: JSON {
        var object: JSONObject = [
            "id": .string(id), "placementId": .string(placementId), "html": .string(html),
            "isControl": .bool(isControl), "isTestSend": .bool(isTestSend),
        ]
        if let expiresAt { object["expiresAt"] = .number(expiresAt) }
        object["properties"] = .object(properties)
        if let trackingId { object["trackingId"] = .string(trackingId) }
        return .object(object)
    }
}
