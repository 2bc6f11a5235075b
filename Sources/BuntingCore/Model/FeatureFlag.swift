import BuntingJSON

/// A Braze-style feature flag as the client sees it.
public struct FeatureFlag: Equatable, Sendable {
    public var id: String
    public var enabled: Bool
    /// Key → `{type, value}`, as the definitions give them.
    public var properties: JSONObject
    public var trackingString: String?
    /// flagd's metadata of the flag, over the flag set's (strings, numbers, booleans).
    public var metadata: JSONObject

    public init(id: String, enabled: Bool, properties: JSONObject = [:], trackingString: String? = nil, metadata: JSONObject = [:]) {
        self.id = id
        self.enabled = enabled
        self.properties = properties
        self.trackingString = trackingString
        self.metadata = metadata
    }

    public var json: JSON {
        var object: JSONObject = ["id": .string(id), "enabled": .bool(enabled), "properties": .object(properties)]
        if let trackingString { object["trackingString"] = .string(trackingString) }
        if !metadata.isEmpty { object["metadata"] = .object(metadata) }
        return .object(object)
    }

    /// What makes two impressions the same within a session: the tracking
    /// string where the flag has one (as the Braze SDKs key them), else the id.
    public var impressionKey: String { trackingString ?? id }
}
