import BuntingJSON

/// A Braze-style feature flag as the client sees it.
///
/// Its fields live in one shared object, as a content card's do: a user's
/// cache of thousands of flags, and every snapshot and stored form written
/// from it, copies one reference per flag, not five.
public struct FeatureFlag: Equatable, Sendable, JSONText {
    private final class Storage: Sendable {
        let id: String
        let enabled: Bool
        let properties: JSONObject
        let trackingString: String?
        let metadata: JSONObject
        let encoded: EncodedJSON

        init(id: String, enabled: Bool, properties: JSONObject, trackingString: String?, metadata: JSONObject) {
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
    }

    private let storage: Storage

    public var id: String { storage.id }
    public var enabled: Bool { storage.enabled }
    /// Key → `{type, value}`, as the definitions give them.
    public var properties: JSONObject { storage.properties }
    public var trackingString: String? { storage.trackingString }
    /// flagd's metadata of the flag, over the flag set's (strings, numbers, booleans).
    public var metadata: JSONObject { storage.metadata }
    /// The flag as JSON text, written once when it is made.
    public var encoded: EncodedJSON { storage.encoded }

    public init(id: String, enabled: Bool, properties: JSONObject = [:], trackingString: String? = nil, metadata: JSONObject = [:]) {
        storage = Storage(id: id, enabled: enabled, properties: properties, trackingString: trackingString, metadata: metadata)
    }

    public func appendEncoded(to output: inout [UInt8]) {
        output.append(contentsOf: storage.encoded.bytes)
    }

    public var encodedCount: Int { storage.encoded.bytes.count }

    public var json: JSON {
        encoded.value
    }

    /// What makes two impressions the same within a session: the tracking
    /// string where the flag has one (as the Braze SDKs key them), else the id.
    public var impressionKey: String { trackingString ?? id }

    public static func == (lhs: FeatureFlag, rhs: FeatureFlag) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.id == rhs.id && lhs.enabled == rhs.enabled && lhs.properties == rhs.properties
            && lhs.trackingString == rhs.trackingString && lhs.metadata == rhs.metadata
    }
}
