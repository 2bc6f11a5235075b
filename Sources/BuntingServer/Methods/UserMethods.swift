import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Users, sessions, wiping, and turning the SDK off and on.
enum UserMethods {
    /// Braze's limit on external user ids; every event carries the id.
    static let maxUserIdLength = 997

    static func methods(_ engine: Engine) -> [Method] {
        [
            .immediate("changeUser", params: [.string("userId", required: true, minLength: 1, maxLength: maxUserIdLength), .object("attributes")]) {
                params throws(RPCError) in
                let userId = try params.string("userId")
                let attributes = try CommonParams.attributes(params)
                try engineCall("changeUser") { () throws(EngineError) in try engine.changeUser(userId, attributes: attributes) }
                return .object([:])
            },
            .immediate("setUserAttributes", params: [.object("attributes", required: true)]) { params throws(RPCError) in
                let attributes = try CommonParams.attributes(params) ?? [:]
                try engineCall("setUserAttributes") { () throws(EngineError) in try engine.setUserAttributes(attributes) }
                return .object([:])
            },
            .immediate("openSession") { _ throws(RPCError) in
                try engineCall("openSession") { () throws(EngineError) in try engine.openSession() }
                return .object([:])
            },
            .immediate("closeSession") { _ in
                engine.closeSession()
                return .object([:])
            },
        ]
    }

    /// The methods that act on all of the SDK's state.
    static func sdkMethods(_ engine: Engine) -> [Method] {
        [
            .immediate("wipeData") { _ throws(RPCError) in
                try engineCall("wipeData") { () throws(EngineError) in try engine.wipeData() }
                return .object([:])
            },
            .immediate("disableSDK") { _ in
                engine.disableSDK()
                return .object([:])
            },
            .immediate("enableSDK") { _ in
                engine.enableSDK()
                return .object([:])
            },
        ]
    }
}
