import BuntingJSON

/// A Braze-style feature flag as the client sees it.
public struct FeatureFlag: Equatable, Sendable {
    public var id: String
    public var enabled: Bool
    /// Key → `{type, value}`, as the definitions give them.
    public var properties: JSONObject
    public var trackingString: String?

    public init(id: String, enabled: Bool, properties: JSONObject = [:], trackingString: String? = nil) {
        self.id = id
        self.enabled = enabled
        self.properties = properties
        self.trackingString = trackingString
    }

    public var json: JSON {
        var object: JSONObject = ["id": .string(id), "enabled": .bool(enabled), "properties": .object(properties)]
        if let trackingString { object["trackingString"] = .string(trackingString) }
        return .object(object)
    }

    /// What makes two impressions the same within a session: the tracking
    /// string where the flag has one (as the Braze SDKs key them), else the id.
    public var impressionKey: String { trackingString ?? id }
}
