import BuntingCore
import BuntingJSON

/// The one encoder of `EngineEvent` into JSON-RPC notifications, and the one
/// place that knows the events' wire names.
///
/// Event subscriptions get `event` notifications:
/// `{"subscriptionId", "channel", "type", …the fields of that type}`;
/// update subscriptions (the deprecated pattern) get `updates`:
/// `{"subscriptionId", "channel", "<channel>": data}`.
public enum EventNotifications {
    public static func notification(for event: EngineEvent) -> (method: String, params: JSON) {
        let target = event.target
        var params: JSONObject = [
            "subscriptionId": .string(target.subscriptionId), "channel": .string(target.channel.rawValue),
        ]
        switch event {
        case .updates(_, let snapshot):
            params[target.channel.dataKey] = snapshot.data
            return ("updates", .object(params))
        case .cacheReplay(_, let snapshot):
            params["type"] = "CACHE_REPLAY"
            params["cacheSnapshot"] = snapshot.json
        case .cacheLoad(_, let snapshot):
            params["type"] = "CACHE_LOAD"
            params["cacheSnapshot"] = snapshot.json
        case .dataUpdated(_, let snapshot, let reason):
            params["type"] = "DATA_UPDATED"
            params["cacheSnapshot"] = snapshot.json
            params["reason"] = .string(name(of: reason))
        case .error(_, let error):
            params["type"] = "ERROR"
            params["reason"] = .string(name(of: error.reason))
            params["retryState"] = .string(name(of: error.retryState))
            if let until = error.rateLimitedUntil { params["rateLimitedUntil"] = .number(until) }
            if let message = error.message { params["message"] = .string(message) }
        case .analytics(_, let notice):
            params["type"] = .string(name(of: notice.kind))
            params["action"] = notice.action == .enqueued ? "ENQUEUED" : "FLUSHED"
            params["eventId"] = .string(notice.eventId)
            params[target.channel.itemKey] = notice.item
            if let buttonId = notice.buttonId { params["buttonId"] = .string(buttonId) }
        }
        return ("event", .object(params))
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
        }
    }
}
