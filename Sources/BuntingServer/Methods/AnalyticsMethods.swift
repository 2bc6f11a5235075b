import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Impressions, clicks, dismissals, and flushing them to the sink.
enum AnalyticsMethods {
    static let interactiveChannels = [Channel.contentCards.rawValue, Channel.banners.rawValue]

    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("logImpression", params: [
                CommonParams.channel(), CommonParams.id("id", required: false),
                .stringArray(
                    "ids", itemMaxLength: CommonParams.maxIdLength, minLength: 1, maxLength: CommonParams.maxIdsPerImpression,
                    uniqueItems: true),
            ]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let (ids, field) = try idOrIds(params)
                try engineCall("logImpression") { () throws(EngineError) in try engine.logImpression(channel, ids: ids, field: field) }
                return .object([:])
            },
            .immediate("logClick", params: [
                .string("channel", required: true, oneOf: interactiveChannels), CommonParams.id("id"),
                CommonParams.id("buttonId", required: false),
            ]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let id = try params.string("id")
                let buttonId = params.optionalString("buttonId")
                try engineCall("logClick") { () throws(EngineError) in try engine.logClick(channel, id: id, buttonId: buttonId) }
                return .object([:])
            },
            .immediate("logDismiss", params: [
                .string("channel", required: true, oneOf: interactiveChannels), CommonParams.id("id"),
            ]) { params throws(RPCError) in
                let channel = try CommonParams.channel(params)
                let id = try params.string("id")
                try engineCall("logDismiss") { () throws(EngineError) in try engine.logDismiss(channel, id: id) }
                return .object([:])
            },
            .deferred("flush") { _, responder throws(RPCError) in
                guard engine.isSDKEnabled else { throw .engine(.sdkDisabled, method: "flush") }
                engine.flush(all: true) { flushed, pending in
                    responder.succeed(.object(["flushed": .int(flushed), "pending": .int(pending)]))
                }
            },
        ]
    }

    /// Exactly one of `id` and `ids`, with the name of the one given.
    static func idOrIds(_ params: Params) throws(RPCError) -> ([String], String) {
        switch (params.optionalString("id"), params.optionalStringArray("ids")) {
        case (let id?, nil): return ([id], "id")
        case (nil, let ids?): return (ids, "ids")
        case (nil, nil): throw .invalidParams(field: "id", "is required (or give ids)")
        case (_?, _?): throw .invalidParams(field: "ids", "give id or ids, not both")
        }
    }
}

/// Events the client names itself.
enum TrackingMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("track", params: [
                .string("name", required: true, minLength: 1), .number("value"), .object("details"),
                .string("userId", minLength: 1, maxLength: UserMethods.maxUserIdLength), .object("attributes"),
            ]) { params throws(RPCError) in
                let name = try params.string("name")
                let value = params.optionalNumber("value")
                let details = params.optionalObject("details")
                let userId = params.optionalString("userId")
                let attributes = try CommonParams.attributes(params)
                let eventId = try engineCall("track") { () throws(EngineError) in
                    try engine.track(name: name, value: value, details: details, userId: userId, attributes: attributes)
                }
                return .object(["eventId": .string(eventId)])
            },
        ]
    }
}
