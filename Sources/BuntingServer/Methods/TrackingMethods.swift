import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Events the client names itself (OpenFeature's `track`).
enum TrackingMethods {
    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate(TrackParams.self) { params throws(RPCError) in
                try CommonParams.checkAttributes(params.attributes)
                let eventId = try engineCall("track") { () throws(EngineError) in
                    try engine.track(
                        name: params.name, value: params.value, details: params.details, userId: params.userId,
                        attributes: params.attributes)
                }
                return .object(["eventId": .string(eventId)])
            }
        ]
    }
}
