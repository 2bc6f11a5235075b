import BuntingCore
import BuntingJSON

/// The protocol's methods that drive the engine: users and sessions,
/// subscriptions, refreshes, reads, logging and flushing.
public enum EngineMethods {
    public static func register(in table: inout MethodTable, engine: Engine) {
        table.register("changeUser", fields: ["userId", "attributes"]) { params throws(RPCError) in
            let userId = try params.string("userId")
            guard !userId.isEmpty else { throw .invalidParams(field: "userId", "must not be empty") }
            let attributes = try attributes(params, required: false)
            try run("changeUser") { () throws(EngineError) in try engine.changeUser(userId, attributes: attributes) }
            return .object([:])
        }
        table.register("setUserAttributes", fields: ["attributes"]) { params throws(RPCError) in
            let attributes = try attributes(params, required: true) ?? [:]
            try run("setUserAttributes") { () throws(EngineError) in try engine.setUserAttributes(attributes) }
            return .object([:])
        }
        table.register("openSession") { _ throws(RPCError) in
            try run("openSession") { () throws(EngineError) in try engine.openSession() }
            return .object([:])
        }
        table.register("closeSession") { _ in
            engine.closeSession()
            return .object([:])
        }
        table.register("subscribe", fields: ["channel"]) { params throws(RPCError) in
            let channel = try channel(params)
            return engine.subscribe(channel, kind: .events).map { .object(["subscriptionId": .string($0)]) } ?? .null
        }
        table.register("subscribeToUpdates", fields: ["channel"]) { params throws(RPCError) in
            let channel = try channel(params)
            return engine.subscribe(channel, kind: .updates).map { .object(["subscriptionId": .string($0)]) } ?? .null
        }
        table.register("removeSubscription", fields: ["subscriptionId"]) { params throws(RPCError) in
            let id = try params.string("subscriptionId")
            return .object(["removed": .bool(engine.removeSubscription(id))])
        }
        table.register("refresh", fields: ["channel", "placementIds"]) { params throws(RPCError) in
            let channel = try channel(params)
            let placementIds = try params.optionalStringArray("placementIds")
            if let placementIds, Set(placementIds).count != placementIds.count {
                throw .invalidParams(field: "placementIds", "must not name a placement twice")
            }
            try run("refresh") { () throws(EngineError) in try engine.refresh(channel, placementIds: placementIds) }
            return .object([:])
        }
        table.register("getSnapshot", fields: ["channel"]) { params throws(RPCError) in
            engine.snapshot(try channel(params)).json
        }
        table.register("getFeatureFlag", fields: ["id"]) { params throws(RPCError) in
            engine.featureFlag(id: try params.string("id")) ?? .null
        }
        table.register("getBanner", fields: ["placementId"]) { params throws(RPCError) in
            engine.banner(placementId: try params.string("placementId")) ?? .null
        }
        table.register("logImpression", fields: ["channel", "id", "ids"]) { params throws(RPCError) in
            let channel = try channel(params)
            let (ids, field) = try idOrIds(params)
            try run("logImpression") { () throws(EngineError) in try engine.logImpression(channel, ids: ids, field: field) }
            return .object([:])
        }
        table.register("logClick", fields: ["channel", "id", "buttonId"]) { params throws(RPCError) in
            let channel = try channel(params)
            let id = try params.string("id")
            let buttonId = try params.optionalString("buttonId")
            try run("logClick") { () throws(EngineError) in try engine.logClick(channel, id: id, buttonId: buttonId) }
            return .object([:])
        }
        table.register("logDismiss", fields: ["channel", "id"]) { params throws(RPCError) in
            let channel = try channel(params)
            let id = try params.string("id")
            try run("logDismiss") { () throws(EngineError) in try engine.logDismiss(channel, id: id) }
            return .object([:])
        }
        table.registerDeferred("flush") { _, responder throws(RPCError) in
            guard engine.isSDKEnabled else { throw rpcError(.sdkDisabled, method: "flush") }
            engine.flush(all: true) { flushed, pending in
                responder.succeed(.object(["flushed": .int(flushed), "pending": .int(pending)]))
            }
        }
        table.register("wipeData") { _ throws(RPCError) in
            try run("wipeData") { () throws(EngineError) in try engine.wipeData() }
            return .object([:])
        }
        table.register("disableSDK") { _ in
            engine.disableSDK()
            return .object([:])
        }
        table.register("enableSDK") { _ in
            engine.enableSDK()
            return .object([:])
        }
    }

    // MARK: - Params shared by several methods

    static func channel(_ params: Params) throws(RPCError) -> Channel {
        let name = try params.string("channel")
        guard let channel = Channel(rawValue: name) else {
            throw .invalidParams(field: "channel", "must be one of featureFlags, banners, contentCards, not \(name.debugDescription)")
        }
        return channel
    }

    /// Exactly one of `id` (a string) and `ids` (a non-empty array of distinct
    /// strings), with the name of the one given.
    static func idOrIds(_ params: Params) throws(RPCError) -> ([String], String) {
        let id = try params.optionalString("id")
        let ids = try params.optionalStringArray("ids")
        switch (id, ids) {
        case (let id?, nil):
            return ([id], "id")
        case (nil, let ids?):
            guard !ids.isEmpty else { throw .invalidParams(field: "ids", "must not be empty") }
            guard Set(ids).count == ids.count else { throw .invalidParams(field: "ids", "must not name an item twice") }
            return (ids, "ids")
        case (nil, nil):
            throw .invalidParams(field: "id", "is required (or give ids)")
        case (_?, _?):
            throw .invalidParams(field: "ids", "give id or ids, not both")
        }
    }

    /// User attributes: an object whose keys are not the ones the evaluation
    /// context reserves (`targetingKey`, `$flagd`).
    static func attributes(_ params: Params, required: Bool) throws(RPCError) -> JSONObject? {
        let attributes = required ? try params.object("attributes") : try params.optionalObject("attributes")
        for key in ["targetingKey", "$flagd"] where attributes?[key] != nil {
            throw .invalidParams(field: "attributes", "\(key.debugDescription) is reserved by the evaluation context")
        }
        return attributes
    }

    static func run(_ method: String, _ body: () throws(EngineError) -> Void) throws(RPCError) {
        do {
            try body()
        } catch {
            throw rpcError(error, method: method)
        }
    }

    /// An engine refusal as a JSON-RPC error, with its reason in `data.reason`.
    static func rpcError(_ error: EngineError, method: String) -> RPCError {
        let details: JSONObject = ["field": .string(error.field), "why": .string(error.why)]
        switch error.kind {
        case .invalidParams:
            return .invalidParams(field: error.field, error.why)
        case .notFound:
            return RPCError(code: .notFound, reason: "NOT_FOUND", message: "Not found: \(error.field): \(error.why)", details: details)
        case .notAllowed:
            return RPCError(code: .notAllowed, reason: "NOT_ALLOWED", message: "Not allowed: \(error.field): \(error.why)", details: details)
        case .sdkDisabled:
            return RPCError(
                code: .sdkDisabled, reason: "SDK_DISABLED", message: "SDK disabled: \(method) is refused while the SDK is disabled",
                details: ["method": .string(method)])
        case .storage:
            return RPCError(
                code: .storageError, reason: "STORAGE_ERROR", message: "Storage error: \(error.why)",
                details: ["method": .string(method), "detail": .string(error.why)])
        }
    }
}
