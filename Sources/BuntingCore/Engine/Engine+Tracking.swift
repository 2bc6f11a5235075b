import BuntingJSON

/// Events the client names itself (OpenFeature's `track`): they take the
/// same durable path as impressions.
extension Engine {
    /// The longest event name, in bytes of UTF-8.
    public static let maxTrackNameBytes = 255
    /// The most an event's details may take, encoded: each is stored until sent.
    public static let maxTrackDetailsBytes = 16 << 10

    /// Stores a custom event — committed before its ENQUEUED, FLUSHED once the
    /// sink accepted it, `kind` `custom` at the sink — attributed to the
    /// current user and session. Its notifications go to the event
    /// subscriptions of the feature-flags channel, the experimentation side.
    /// `userId` and `attributes` are the evaluation context the event happened
    /// in: a server that tracks for many users names each event's own user
    /// instead of switching the current one. Returns the event's id.
    public func track(
        name: String, value: Double?, details: JSONObject?, userId: String? = nil, attributes: JSONObject? = nil
    ) throws(EngineError) -> String {
        try onLoop { () throws(EngineError) in
            try enqueueTracked(name: name, value: value, details: details, userId: userId, attributes: attributes)
        }
    }

    private func enqueueTracked(
        name: String, value: Double?, details: JSONObject?, userId: String?, attributes: JSONObject?
    ) throws(EngineError) -> String {
        guard user.isSDKEnabled else { throw .sdkDisabled }
        guard name.utf8.count <= Self.maxTrackNameBytes else {
            throw EngineError(
                .invalidParams, field: "name",
                "is \(name.utf8.count) bytes long; at most \(Self.maxTrackNameBytes) are allowed")
        }
        var event: JSONObject = ["name": .string(name)]
        if let value {
            guard value.isFinite else { throw EngineError(.invalidParams, field: "value", "must be a finite number") }
            event["value"] = .number(value)
        }
        if let details {
            let size = JSON.object(details).encoded().count
            guard size <= Self.maxTrackDetailsBytes else {
                throw EngineError(
                    .invalidParams, field: "details",
                    "takes \(size) bytes encoded; at most \(Self.maxTrackDetailsBytes) are allowed")
            }
            event["details"] = .object(details)
        }
        if let userId { event["userId"] = .string(userId) }
        if let attributes {
            let size = JSON.object(attributes).encoded().count
            guard size <= Self.maxAttributesBytes else {
                throw EngineError(
                    .invalidParams, field: "attributes",
                    "takes \(size) bytes encoded; at most \(Self.maxAttributesBytes) are allowed")
            }
            event["attributes"] = .object(attributes)
        }
        return try enqueue(.custom, .featureFlags, itemId: name, item: .object(event), userId: userId)
    }
}
