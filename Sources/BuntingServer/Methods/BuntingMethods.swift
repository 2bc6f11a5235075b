import BuntingCore
import BuntingJSON
import BuntingJSONRPC

/// Every method Bunting answers, each declared once — its name, its params
/// (JSON type, required, shape) and its handler — in the order of the
/// OpenRPC document. Dispatch and param checking read these declarations,
/// and a test compares them with `schemas/openrpc.json`.
public enum BuntingMethods {
    public static func table(engine: Engine, context: ServerContext, testing: TestingControls = .none) -> MethodTable {
        MethodTable(
            ServerMethods.discovery(context, status: { engine.status().merging(testing.status) })
                + UserMethods.methods(engine, context: context)
                + SubscriptionMethods.methods(engine)
                + CacheMethods.methods(engine)
                + AnalyticsMethods.methods(engine)
                + TrackingMethods.methods(engine)
                + UserMethods.sdkMethods(engine)
                + RuleMethods.methods(engine)
                + FeatureMethods.methods(engine)
                + TemplateMethods.methods(engine)
                + TestingMethods.methods(testing)
                + [ServerMethods.shutdown(context)])
    }
}

/// Checks that several methods share.
enum CommonParams {
    /// User attributes may not use the keys the evaluation context reserves
    /// (`targetingKey`, `$flagd`).
    static func checkAttributes(_ attributes: JSONObject?) throws(RPCError) {
        for key in ["targetingKey", "$flagd"] where attributes?[key] != nil {
            throw .invalidParams(field: "attributes", "\(key.debugDescription) is reserved by the evaluation context")
        }
    }
}

extension JSONObject {
    /// This object with `other`'s members added (and replacing its own).
    func merging(_ other: JSONObject) -> JSONObject {
        var merged = self
        merged.merge(other)
        return merged
    }
}
