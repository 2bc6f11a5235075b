import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Every method Bunting answers, each declared once — its name, its params
/// (JSON type, required, shape) and its handler — in the order of the
/// OpenRPC document. Dispatch and param checking read these declarations,
/// and a test compares them with `schemas/openrpc.json`.
public enum BuntingMethods {
    public static func table(engine: Engine, context: ServerContext) -> MethodTable {
        MethodTable(
            ServerMethods.discovery(context, status: engine.status)
                + UserMethods.methods(engine)
                + SubscriptionMethods.methods(engine)
                + CacheMethods.methods(engine)
                + AnalyticsMethods.methods(engine)
                + TrackingMethods.methods(engine)
                + UserMethods.sdkMethods(engine)
                + RuleMethods.methods(engine)
                + [ServerMethods.shutdown(context)])
    }
}

/// Params that several methods share.
enum CommonParams {
    static let channels = Channel.allCases.map(\.rawValue)

    /// The most characters an id of an item may have in a request (a card,
    /// flag, placement, button or subscription id): a bound on what a request
    /// can make the server store and log, far above any id in use.
    static let maxIdLength = 1024
    /// The most ids one `logImpression` names (each becomes an event; the
    /// queue holds 10,000 by default).
    static let maxIdsPerImpression = 10_000
    /// The most flag keys one `evaluateFlags` names (all flags are had by naming none).
    static let maxFlagKeys = 10_000

    static func id(_ name: String, required: Bool = true) -> ParamSpec {
        .string(name, required: required, minLength: 1, maxLength: maxIdLength)
    }

    static func channel(required: Bool = true) -> ParamSpec {
        .string("channel", required: required, oneOf: channels)
    }

    /// The channel of a declared `channel` param (checked before the handler runs).
    static func channel(_ params: Params) throws(RPCError) -> Channel {
        guard let channel = Channel(rawValue: try params.string("channel")) else {
            throw .internalError("channel is not declared with the channel names")
        }
        return channel
    }

    /// User attributes: an object whose keys are not the ones the evaluation
    /// context reserves (`targetingKey`, `$flagd`).
    static func attributes(_ params: Params) throws(RPCError) -> JSONObject? {
        let attributes = params.optionalObject("attributes")
        for key in ["targetingKey", "$flagd"] where attributes?[key] != nil {
            throw .invalidParams(field: "attributes", "\(key.debugDescription) is reserved by the evaluation context")
        }
        return attributes
    }
}
