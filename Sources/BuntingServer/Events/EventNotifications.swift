import BuntingCore
import BuntingJSON

/// The one encoder of `EngineEvent` into JSON-RPC notifications, and the one
/// place that knows the events' wire names.
///
/// Event subscriptions get `event` notifications:
/// `{"subscriptionId", "channel", "type", …the fields of that type}`;
/// update subscriptions (the deprecated pattern) get `updates`:
/// `{"subscriptionId", "channel", "<channel>": data}`; definitions
/// subscriptions get `definitions`: `{"subscriptionId", "type", …}`.
public enum EventNotifications {
    public static func notification(for event: EngineEvent) -> (method: String, params: SplicedJSON) {
        switch event {
        case .definitions(let subscriptionId, let notice):
            return ("definitions", SplicedJSON(EncodedJSON(.object(definitionsParams(subscriptionId, notice)))))
        case .updates(let target, let snapshot):
            var params = EncodedJSON.ObjectBuilder()
            params.add(contentsOf: addressed(target))
            params.add(dataKeys[target.channel]!, prefix: [], sharing: snapshot.encodedData.bytes, suffix: [])
            return ("updates", params.finishSpliced())
        case .cacheReplay(let target, let snapshot):
            return eventNotification(target, "CACHE_REPLAY", snapshot: snapshot)
        case .cacheLoad(let target, let snapshot):
            return eventNotification(target, "CACHE_LOAD", snapshot: snapshot)
        case .dataUpdated(let target, let snapshot, let reason):
            return eventNotification(target, "DATA_UPDATED", snapshot: snapshot, ["reason": .string(name(of: reason))])
        case .error(let target, let error):
            return eventNotification(target, "ERROR", errorFields(error))
        case .analytics(let target, let notice):
            var fields: JSONObject = [
                "action": notice.action == .enqueued ? "ENQUEUED" : "FLUSHED", "eventId": .string(notice.eventId),
            ]
            switch notice.kind {
            case .custom: fields["event"] = notice.item
            case .experimentViewed: fields["exposure"] = notice.item
            default: fields[target.channel.itemKey] = notice.item
            }
            if let buttonId = notice.buttonId { fields["buttonId"] = .string(buttonId) }
            return eventNotification(target, name(of: notice.kind), fields)
        }
    }

    private static func addressed(_ target: EventTarget) -> JSONObject {
        ["subscriptionId": .string(target.subscriptionId), "channel": .string(target.channel.rawValue)]
    }

    /// `{subscriptionId, channel, type, cacheSnapshot?, …fields}`: the small
    /// members are written by jansson, the snapshot (kept as text by the
    /// engine, and often megabytes) is shared between them, not copied: the
    /// output channel writes it to the client from the engine's own buffer.
    private static func eventNotification(
        _ target: EventTarget, _ type: String, snapshot: ChannelSnapshot? = nil, _ fields: JSONObject = [:]
    ) -> (method: String, params: SplicedJSON) {
        var head = addressed(target)
        head["type"] = .string(type)
        var params = EncodedJSON.ObjectBuilder()
        params.add(contentsOf: head)
        snapshot?.add(to: &params, as: cacheSnapshotKey)
        params.add(contentsOf: fields)
        return ("event", params.finishSpliced())
    }

    private static let cacheSnapshotKey = EncodedJSON.Key("cacheSnapshot")
    private static let dataKeys = Dictionary(
        uniqueKeysWithValues: Channel.allCases.map { ($0, EncodedJSON.Key($0.dataKey)) })

    /// The fields of an ERROR: its reason, who retries, and the optional rest.
    private static func errorFields(_ error: ChannelProblem) -> JSONObject {
        var fields: JSONObject = [
            "reason": .string(name(of: error.reason)), "retryState": .string(name(of: error.retryState)),
        ]
        if let until = error.rateLimitedUntil { fields["rateLimitedUntil"] = .number(until) }
        if let message = error.message { fields["message"] = .string(message) }
        return fields
    }

    private static func definitionsParams(_ subscriptionId: String, _ notice: DefinitionsNotice) -> JSONObject {
        var params: JSONObject = ["subscriptionId": .string(subscriptionId)]
        switch notice {
        case .ready(let loadedAt):
            params["type"] = "READY"
            params["loadedAt"] = .number(loadedAt)
        case .changed(let loadedAt, let flagsChanged):
            params["type"] = "CHANGED"
            params["loadedAt"] = .number(loadedAt)
            params["flagsChanged"] = .array(flagsChanged.map(JSON.string))
        case .error(let error, let stale):
            params["type"] = "ERROR"
            params.merge(errorFields(error))
            params["stale"] = .bool(stale)
        }
        return params
    }

    static func name(of reason: DataUpdatedReason) -> String {
        switch reason {
        case .autoServerRefresh: "AUTO_SERVER_REFRESH"
        case .manualServerRefresh: "MANUAL_SERVER_REFRESH"
        case .clientAction: "CLIENT_ACTION"
        }
    }

    static func name(of reason: ErrorReason) -> String {
        switch reason {
        case .serverError: "SERVER_ERROR"
        case .clientError: "CLIENT_ERROR"
        case .rateLimited: "RATE_LIMITED"
        case .sdkDisabled: "SDK_DISABLED"
        case .invalidServerData: "INVALID_SERVER_DATA"
        case .featureDisabled: "FEATURE_DISABLED"
        }
    }

    static func name(of state: RetryState) -> String {
        switch state {
        case .sdkWillRetry: "SDK_WILL_RETRY"
        case .integratorMayRetry: "INTEGRATOR_MAY_RETRY"
        case .doNotRetry: "DO_NOT_RETRY"
        }
    }

    static func name(of kind: AnalyticsEvent.Kind) -> String {
        switch kind {
        case .impression: "IMPRESSION"
        case .click: "CLICK"
        case .dismiss: "DISMISS"
        case .custom: "CUSTOM"
        case .experimentViewed: "EXPOSURE"
        }
    }
}
