// Generated from schemas/openrpc.json by scripts/generate-params: do not edit.
// Each method's params, typed and declared once (the connection checks
// requests against `specs` before a handler runs).

import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// The params of one method, read from a request its `specs` accepted.
protocol GeneratedParams: MethodParams {}

extension GeneratedParams {
    /// The enum case a checked string names.
    static func value<Value: RawRepresentable>(_ type: Value.Type, _ params: Params, _ field: String) throws(RPCError)
        -> Value
    where Value.RawValue == String {
        try value(type, try params.string(field), field)
    }

    static func value<Value: RawRepresentable>(_ type: Value.Type, _ text: String, _ field: String) throws(RPCError)
        -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text) else {
            throw .internalError(
                "\(field): \(text.debugDescription) passed the declared values but is not a \(Value.self)")
        }
        return value
    }
}

/// `rpc.discover`.
struct RpcDiscoverParams: GeneratedParams {
    static let method = "rpc.discover"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `status`.
struct StatusParams: GeneratedParams {
    static let method = "status"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `changeUser`.
struct ChangeUserParams: GeneratedParams {
    static let method = "changeUser"
    static let specs: [ParamSpec] = [
        ParamSpec("userId", .string, required: true, minLength: 1, maxLength: 997),
        ParamSpec("attributes", .object),
    ]
    /// The new current user; becomes `targetingKey` in evaluation contexts (at most 997 characters,…
    let userId: String
    /// Attributes of the new user, merged into the stored ones; merged, they may take at most 64 KiB…
    let attributes: JSONObject?

    init(checked params: Params) throws(RPCError) {
        userId = try params.string("userId")
        attributes = params.optionalObject("attributes")
    }
}

/// `setUserAttributes`.
struct SetUserAttributesParams: GeneratedParams {
    static let method = "setUserAttributes"
    static let specs: [ParamSpec] = [
        ParamSpec("attributes", .object, required: true)
    ]
    /// The attributes to merge; merged, they may take at most 64 KiB encoded (-32602 past that)
    let attributes: JSONObject

    init(checked params: Params) throws(RPCError) {
        attributes = try params.object("attributes")
    }
}

/// `openSession`.
struct OpenSessionParams: GeneratedParams {
    static let method = "openSession"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `closeSession`.
struct CloseSessionParams: GeneratedParams {
    static let method = "closeSession"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `subscribe`.
struct SubscribeParams: GeneratedParams {
    static let method = "subscribe"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["banners", "contentCards", "featureFlags"]),
        ParamSpec("extras", .object),
    ]
    /// The channel to subscribe to
    let channel: Channel
    /// Content cards only: the subscription's snapshots list just the cards whose `extras` hold all of…
    let extras: JSONObject?

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
        extras = params.optionalObject("extras")
    }
}

/// `subscribeToUpdates`.
struct SubscribeToUpdatesParams: GeneratedParams {
    static let method = "subscribeToUpdates"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["banners", "contentCards", "featureFlags"])
    ]
    /// The channel to subscribe to
    let channel: Channel

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
    }
}

/// `subscribeToDefinitions`.
struct SubscribeToDefinitionsParams: GeneratedParams {
    static let method = "subscribeToDefinitions"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `removeSubscription`.
struct RemoveSubscriptionParams: GeneratedParams {
    static let method = "removeSubscription"
    static let specs: [ParamSpec] = [
        ParamSpec("subscriptionId", .string, required: true, minLength: 1, maxLength: 1024)
    ]
    /// The id `subscribe` or `subscribeToUpdates` returned
    let subscriptionId: String

    init(checked params: Params) throws(RPCError) {
        subscriptionId = try params.string("subscriptionId")
    }
}

/// `refresh`.
struct RefreshParams: GeneratedParams {
    static let method = "refresh"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["banners", "contentCards", "featureFlags"]),
        ParamSpec("placementIds", .array, itemKind: .string, itemMaxLength: 1024, minLength: 1, uniqueItems: true),
    ]
    /// The channel to refresh
    let channel: Channel
    /// Banners only: the placements to refresh, 1 to 10 distinct ids
    let placementIds: [String]?

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
        placementIds = params.optionalStringArray("placementIds")
    }
}

/// `getSnapshot`.
struct GetSnapshotParams: GeneratedParams {
    static let method = "getSnapshot"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["banners", "contentCards", "featureFlags"]),
        ParamSpec("extras", .object),
        ParamSpec("explain", .boolean),
    ]
    /// The channel
    let channel: Channel
    /// Content cards only: list just the cards whose `extras` hold all of these keys and values
    let extras: JSONObject?
    /// Adds `explain`: each item of the definitions for the channel and why it is or is not in this…
    let explain: Bool?

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
        extras = params.optionalObject("extras")
        explain = params.optionalBoolean("explain")
    }
}

/// `getFeatureFlag`.
struct GetFeatureFlagParams: GeneratedParams {
    static let method = "getFeatureFlag"
    static let specs: [ParamSpec] = [
        ParamSpec("id", .string, required: true, minLength: 1, maxLength: 1024)
    ]
    /// The flag's id (its key)
    let id: String

    init(checked params: Params) throws(RPCError) {
        id = try params.string("id")
    }
}

/// `getBanner`.
struct GetBannerParams: GeneratedParams {
    static let method = "getBanner"
    static let specs: [ParamSpec] = [
        ParamSpec("placementId", .string, required: true, minLength: 1, maxLength: 1024)
    ]
    /// The placement
    let placementId: String

    init(checked params: Params) throws(RPCError) {
        placementId = try params.string("placementId")
    }
}

/// `logImpression`.
struct LogImpressionParams: GeneratedParams {
    static let method = "logImpression"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["banners", "contentCards", "featureFlags"]),
        ParamSpec("id", .string, minLength: 1, maxLength: 1024),
        ParamSpec(
            "ids", .array, itemKind: .string, itemMaxLength: 1024, minLength: 1, maxLength: 10000, uniqueItems: true),
    ]
    /// The channel
    let channel: Channel
    /// One item
    let id: String?
    /// Several distinct items of the channel
    let ids: [String]?

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
        id = params.optionalString("id")
        ids = params.optionalStringArray("ids")
    }
}

/// `logClick`.
struct LogClickParams: GeneratedParams {
    static let method = "logClick"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["contentCards", "banners"]),
        ParamSpec("id", .string, required: true, minLength: 1, maxLength: 1024),
        ParamSpec("buttonId", .string, minLength: 1, maxLength: 1024),
    ]
    /// `contentCards` or `banners`
    let channel: Channel
    /// Card id, or banner placement id
    let id: String
    /// Banners only: the button clicked
    let buttonId: String?

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
        id = try params.string("id")
        buttonId = params.optionalString("buttonId")
    }
}

/// `logDismiss`.
struct LogDismissParams: GeneratedParams {
    static let method = "logDismiss"
    static let specs: [ParamSpec] = [
        ParamSpec("channel", .string, required: true, allowedValues: ["contentCards", "banners"]),
        ParamSpec("id", .string, required: true, minLength: 1, maxLength: 1024),
    ]
    /// `contentCards` or `banners`
    let channel: Channel
    /// Card id, or banner placement id
    let id: String

    init(checked params: Params) throws(RPCError) {
        channel = try Self.value(Channel.self, params, "channel")
        id = try params.string("id")
    }
}

/// `track`.
struct TrackParams: GeneratedParams {
    static let method = "track"
    static let specs: [ParamSpec] = [
        ParamSpec("name", .string, required: true, minLength: 1),
        ParamSpec("value", .number),
        ParamSpec("details", .object),
        ParamSpec("userId", .string, minLength: 1, maxLength: 997),
        ParamSpec("attributes", .object),
    ]
    /// The event's name (at most 255 bytes)
    let name: String
    /// A number that goes with it (OpenFeature's tracking value)
    let value: Double?
    /// Anything else about it (at most 16 KiB encoded)
    let details: JSONObject?
    /// The user the event is about (the evaluation context's targeting key), at most 997 characters;…
    let userId: String?
    /// The evaluation context's attributes at the time of the event (at most 64 KiB encoded), recorded…
    let attributes: JSONObject?

    init(checked params: Params) throws(RPCError) {
        name = try params.string("name")
        value = params.optionalNumber("value")
        details = params.optionalObject("details")
        userId = params.optionalString("userId")
        attributes = params.optionalObject("attributes")
    }
}

/// `flush`.
struct FlushParams: GeneratedParams {
    static let method = "flush"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `wipeData`.
struct WipeDataParams: GeneratedParams {
    static let method = "wipeData"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `disableSDK`.
struct DisableSDKParams: GeneratedParams {
    static let method = "disableSDK"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `enableSDK`.
struct EnableSDKParams: GeneratedParams {
    static let method = "enableSDK"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `evaluate`.
struct EvaluateParams: GeneratedParams {
    static let method = "evaluate"
    static let specs: [ParamSpec] = [
        ParamSpec("rule", .any, required: true),
        ParamSpec("data", .any),
    ]
    /// The JSONLogic rule
    let rule: JSON
    /// The data the rule reads with `var`
    let data: JSON?

    init(checked params: Params) throws(RPCError) {
        rule = try params.requiredValue("rule")
        data = params.value("data")
    }
}

/// `evaluateFlag`.
struct EvaluateFlagParams: GeneratedParams {
    static let method = "evaluateFlag"
    static let specs: [ParamSpec] = [
        ParamSpec("flagKey", .string, required: true, minLength: 1, maxLength: 1024),
        ParamSpec("context", .object, required: true),
        ParamSpec("type", .string, allowedValues: ["boolean", "string", "integer", "float", "object"]),
        ParamSpec("explain", .boolean),
    ]
    /// The flag's key in the definitions
    let flagKey: String
    /// The evaluation context, with `targetingKey`
    let context: JSONObject
    /// The type the caller asks for (OpenFeature's typed resolution); a resolved value of another type…
    let type: FlagType?
    /// Adds `explain` (FlagExplanation): why the flag resolves as it does, and the targeting that decided
    let explain: Bool?

    init(checked params: Params) throws(RPCError) {
        flagKey = try params.string("flagKey")
        context = try params.object("context")
        type = try params.optionalString("type").map { (text) throws(RPCError) in
            try Self.value(FlagType.self, text, "type")
        }
        explain = params.optionalBoolean("explain")
    }
}

/// `evaluateFlags`.
struct EvaluateFlagsParams: GeneratedParams {
    static let method = "evaluateFlags"
    static let specs: [ParamSpec] = [
        ParamSpec("context", .object, required: true),
        ParamSpec("flagKeys", .array, itemKind: .string, itemMaxLength: 1024, maxLength: 10000, uniqueItems: true),
    ]
    /// The evaluation context, with `targetingKey`
    let context: JSONObject
    /// The flags to resolve; every flag when left out
    let flagKeys: [String]?

    init(checked params: Params) throws(RPCError) {
        context = try params.object("context")
        flagKeys = params.optionalStringArray("flagKeys")
    }
}

/// `evaluateFeature`.
struct EvaluateFeatureParams: GeneratedParams {
    static let method = "evaluateFeature"
    static let specs: [ParamSpec] = [
        ParamSpec("featureKey", .string, required: true, minLength: 1, maxLength: 1024),
        ParamSpec("attributes", .object),
        ParamSpec("explain", .boolean),
    ]
    /// The feature's key
    let featureKey: String
    /// GrowthBook's context for this request alone (its attributes); the current user's when absent
    let attributes: JSONObject?
    /// Adds `explain` (FlagExplanation): why the feature has its value, and the rule that decided
    let explain: Bool?

    init(checked params: Params) throws(RPCError) {
        featureKey = try params.string("featureKey")
        attributes = params.optionalObject("attributes")
        explain = params.optionalBoolean("explain")
    }
}

/// `evaluateFeatures`.
struct EvaluateFeaturesParams: GeneratedParams {
    static let method = "evaluateFeatures"
    static let specs: [ParamSpec] = [
        ParamSpec("attributes", .object),
        ParamSpec("featureKeys", .array, itemKind: .string, itemMaxLength: 1024, maxLength: 10000, uniqueItems: true),
    ]
    /// GrowthBook's context for this request alone; the current user's when absent
    let attributes: JSONObject?
    /// The features to evaluate; all when absent
    let featureKeys: [String]?

    init(checked params: Params) throws(RPCError) {
        attributes = params.optionalObject("attributes")
        featureKeys = params.optionalStringArray("featureKeys")
    }
}

/// `evaluateCondition`.
struct EvaluateConditionParams: GeneratedParams {
    static let method = "evaluateCondition"
    static let specs: [ParamSpec] = [
        ParamSpec("condition", .object, required: true),
        ParamSpec("attributes", .object, required: true),
        ParamSpec("savedGroups", .object),
    ]
    /// The condition
    let condition: JSONObject
    /// The attributes the condition tests
    let attributes: JSONObject
    /// Saved groups (id → values) for `$inGroup`; the definitions' when absent
    let savedGroups: JSONObject?

    init(checked params: Params) throws(RPCError) {
        condition = try params.object("condition")
        attributes = try params.object("attributes")
        savedGroups = params.optionalObject("savedGroups")
    }
}

/// `renderTemplate`.
struct RenderTemplateParams: GeneratedParams {
    static let method = "renderTemplate"
    static let specs: [ParamSpec] = [
        ParamSpec("template", .string, required: true),
        ParamSpec("data", .object),
        ParamSpec("attributes", .object),
    ]
    /// The Liquid template (at most 1 MiB; more is TEMPLATE_LIMIT)
    let template: String
    /// Plain Liquid variables, read by `{{ name }}`
    let data: JSONObject?
    /// A user's attributes, read by `${name}`; the current user's when neither this nor `data` is given
    let attributes: JSONObject?

    init(checked params: Params) throws(RPCError) {
        template = try params.string("template")
        data = params.optionalObject("data")
        attributes = params.optionalObject("attributes")
    }
}

/// `shutdown`.
struct ShutdownParams: GeneratedParams {
    static let method = "shutdown"
    static let specs: [ParamSpec] = []

    init(checked params: Params) throws(RPCError) {}
}

/// `setClock`.
struct SetClockParams: GeneratedParams {
    static let method = "setClock"
    static let specs: [ParamSpec] = [
        ParamSpec("time", .any, required: true)
    ]
    /// The new time: Unix seconds or an RFC 3339 date-time
    let time: JSON

    init(checked params: Params) throws(RPCError) {
        time = try params.requiredValue("time")
    }
}

/// `advanceClock`.
struct AdvanceClockParams: GeneratedParams {
    static let method = "advanceClock"
    static let specs: [ParamSpec] = [
        ParamSpec("seconds", .number, required: true)
    ]
    /// How long passes, in seconds (≥ 0, at most a hundred years)
    let seconds: Double

    init(checked params: Params) throws(RPCError) {
        seconds = try params.number("seconds")
    }
}

/// `injectFault`.
struct InjectFaultParams: GeneratedParams {
    static let method = "injectFault"
    static let specs: [ParamSpec] = [
        ParamSpec("target", .string, required: true, allowedValues: ["definitions", "sink", "stream"]),
        ParamSpec("response", .any, required: true),
        ParamSpec("times", .integer),
    ]
    /// Where the failure goes
    let target: FaultTarget
    /// The answer given instead of the real one
    let response: JSON
    /// How many requests get it (1 by default)
    let times: Int64?

    init(checked params: Params) throws(RPCError) {
        target = try Self.value(FaultTarget.self, params, "target")
        response = try params.requiredValue("response")
        times = params.optionalInteger("times")
    }
}

/// `clearFaults`.
struct ClearFaultsParams: GeneratedParams {
    static let method = "clearFaults"
    static let specs: [ParamSpec] = [
        ParamSpec("target", .string, allowedValues: ["definitions", "sink", "stream"])
    ]
    /// The target to disarm; every one when left out
    let target: FaultTarget?

    init(checked params: Params) throws(RPCError) {
        target = try params.optionalString("target").map { (text) throws(RPCError) in
            try Self.value(FaultTarget.self, text, "target")
        }
    }
}
