import BuntingJSON

/// The banner that fills one placement for the current user.
public struct Banner: Equatable, Sendable {
    public let id: String
    public let placementId: String
    public let html: String
    /// A control banner marks a user of the control group: never meant to be
    /// shown (its html is empty), but its impression is logged.
    public let isControl: Bool
    public let isTestSend: Bool
    public let expiresAt: Double?
    public let properties: JSONObject
    public let trackingId: String?
    /// The banner as JSON text, written once when it is made.
    public let encoded: EncodedJSON

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
        var object: JSONObject = [
            "id": .string(id), "placementId": .string(placementId), "html": .string(html),
            "isControl": .bool(isControl), "isTestSend": .bool(isTestSend),
        ]
        if let expiresAt { object["expiresAt"] = .number(expiresAt) }
        object["properties"] = .object(properties)
        if let trackingId { object["trackingId"] = .string(trackingId) }
        encoded = EncodedJSON(.object(object))
    }

    public func isExpired(at now: Double) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    public var json: JSON {
        encoded.value
    }
}
