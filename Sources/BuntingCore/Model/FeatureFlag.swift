import BuntingJSON

/// A Braze-style feature flag as the client sees it.
public struct FeatureFlag: Equatable, Sendable, JSONText {
    public let id: String
    public let enabled: Bool
    /// Key → `{type, value}`, as the definitions give them.
    public let properties: JSONObject
    public let trackingString: String?
    /// flagd's metadata of the flag, over the flag set's (strings, numbers, booleans).
    public let metadata: JSONObject
    /// The flag as JSON text, written once when it is made.
    public let encoded: EncodedJSON

    public init(id: String, enabled: Bool, properties: JSONObject = [:], trackingString: String? = nil, metadata: JSONObject = [:]) {
        self.id = id
        self.enabled = enabled
        self.properties = properties
        self.trackingString = trackingString
        self.metadata = metadata
        var object: JSONObject = ["id": .string(id), "enabled": .bool(enabled), "properties": .object(properties)]
        if let trackingString { object["trackingString"] = .string(trackingString) }
        if !metadata.isEmpty { object["metadata"] = .object(metadata) }
        encoded = EncodedJSON(.object(object))
    }

    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: encoded.bytes)
    }

    public var json: JSON {
        encoded.value
    }

    /// What makes two impressions the same within a session: the tracking
    /// string where the flag has one (as the Braze SDKs key them), else the id.
    public var impressionKey: String { trackingString ?? id }
}
