import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Users, sessions, wiping, and turning the SDK off and on.
enum UserMethods {
    static func methods(_ engine: Engine, context: ServerContext) -> [Method] {
        [
            .deferred(ChangeUserParams.self) { params, responder throws(RPCError) in
                try CommonParams.checkAttributes(params.attributes)
                // Answered before the refresh, and the answer and the
                // CACHE_LOADs handed to the client then: they reach it while
                // the new user's data is evaluated.
                try engineCall("changeUser") { () throws(EngineError) in
                    try engine.changeUser(params.userId, attributes: params.attributes) {
                        responder.succeed(.object([:]))
                        context.flushOutput?()
                    }
                }
            },
            .immediate(SetUserAttributesParams.self) { params throws(RPCError) in
                try CommonParams.checkAttributes(params.attributes)
                try engineCall("setUserAttributes") { () throws(EngineError) in
                    try engine.setUserAttributes(params.attributes)
                }
                return .object([:])
            },
            .immediate(OpenSessionParams.self) { _ throws(RPCError) in
                try engineCall("openSession") { () throws(EngineError) in try engine.openSession() }
                return .object([:])
            },
            .immediate(CloseSessionParams.self) { _ in
                engine.closeSession()
                return .object([:])
            },
        ]
    }

    /// The methods that act on all of the SDK's state.
    static func sdkMethods(_ engine: Engine) -> [Method] {
        [
            .immediate(WipeDataParams.self) { _ throws(RPCError) in
                try engineCall("wipeData") { () throws(EngineError) in try engine.wipeData() }
                return .object([:])
            },
            .immediate(DisableSDKParams.self) { _ in
                engine.disableSDK()
                return .object([:])
            },
            .immediate(EnableSDKParams.self) { _ in
                engine.enableSDK()
                return .object([:])
            },
        ]
    }
}
