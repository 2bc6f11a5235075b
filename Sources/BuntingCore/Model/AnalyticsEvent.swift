import BuntingJSON

/// One analytics event, from the moment it is enqueued until the sink
/// accepts it. The id is made once and kept on every re-send, so a sink can
/// recognise a repeat after a crash.
public struct AnalyticsEvent: Equatable, Sendable {
    /// Its `kind` at the sink.
    public enum Kind: String, Sendable {
        case impression, click, dismiss
        /// An event the client named (`track`): its name, value and details ride in `item`.
        case custom
        /// A user was assigned an arm of an experiment by hash (GrowthBook's
        /// exposure): the experiment key, variation and hash ride in `item`.
        case experimentViewed = "experiment_viewed"
    }

    public var eventId: String
    public var kind: Kind
    public var channel: Channel
    /// Card id, flag id, or banner placement id.
    public var itemId: String
    /// Nil for the anonymous user.
    public var userId: String?
    public var deviceId: String
    public var sessionId: String?
    /// Unix seconds.
    public var time: Double
    public var buttonId: String?
    public var trackingString: String?
    /// The item as the client saw it, for the IMPRESSION/CLICK/DISMISS notifications.
    public var item: JSON

    public init(
        eventId: String, kind: Kind, channel: Channel, itemId: String, userId: String?, deviceId: String,
        sessionId: String?, time: Double, buttonId: String? = nil, trackingString: String? = nil, item: JSON
    ) {
        self.eventId = eventId
        self.kind = kind
        self.channel = channel
        self.itemId = itemId
        self.userId = userId
        self.deviceId = deviceId
        self.sessionId = sessionId
        self.time = time
        self.buttonId = buttonId
        self.trackingString = trackingString
        self.item = item
    }

    /// The event as the sink receives it (an NDJSON line, or an element of a
    /// POSTed batch).
    public var sinkJSON: JSON {
        var object: JSONObject = [
            "eventId": .string(eventId), "kind": .string(kind.rawValue), "channel": .string(channel.rawValue),
            "itemId": .string(itemId), "userId": userId.map(JSON.string) ?? .null, "deviceId": .string(deviceId),
        ]
        if let sessionId { object["sessionId"] = .string(sessionId) }
        object["time"] = .number(time)
        if let buttonId { object["buttonId"] = .string(buttonId) }
        if let trackingString { object["trackingString"] = .string(trackingString) }
        if channel == .banners, let bannerId = item["id"]?.stringValue { object["bannerId"] = .string(bannerId) }
        if item["isControl"] == .bool(true) { object["isControl"] = .bool(true) }
        if kind == .custom {
            for key in ["name", "value", "details", "attributes"] { object[key] = item[key] }
        }
        if kind == .experimentViewed {
            for key in ExperimentExposure.fields { object[key] = item[key] }
        }
        return .object(object)
    }
}
