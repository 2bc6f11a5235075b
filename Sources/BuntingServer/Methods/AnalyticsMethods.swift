import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Impressions, clicks, dismissals, and flushing them to the sink.
enum AnalyticsMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(LogImpressionParams.self) { params throws(RPCError) in
                let (ids, field) = try idOrIds(params)
                try engineCall("logImpression") { () throws(EngineError) in
                    try engine.logImpression(params.channel, ids: ids, field: field)
                }
                return .object([:])
            },
            .immediate(LogClickParams.self) { params throws(RPCError) in
                try engineCall("logClick") { () throws(EngineError) in
                    try engine.logClick(params.channel, id: params.id, buttonId: params.buttonId)
                }
                return .object([:])
            },
            .immediate(LogDismissParams.self) { params throws(RPCError) in
                try engineCall("logDismiss") { () throws(EngineError) in
                    try engine.logDismiss(params.channel, id: params.id)
                }
                return .object([:])
            },
            .deferred(FlushParams.self) { _, responder throws(RPCError) in
                guard engine.isSDKEnabled else { throw .engine(.sdkDisabled, method: "flush") }
                engine.flush(all: true) { flushed, pending in
                    responder.succeed(.object(["flushed": .int(flushed), "pending": .int(pending)]))
                }
            },
        ]
    }

    /// Exactly one of `id` and `ids`, with the name of the one given.
    static func idOrIds(_ params: LogImpressionParams) throws(RPCError) -> ([String], String) {
        switch (params.id, params.ids) {
        case (let id?, nil): return ([id], "id")
        case (nil, let ids?): return (ids, "ids")
        case (nil, nil): throw .invalidParams(field: "id", "is required (or give ids)")
        case (_?, _?): throw .invalidParams(field: "ids", "give id or ids, not both")
        }
    }
}
