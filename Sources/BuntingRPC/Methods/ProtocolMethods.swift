/// Every method of the wire protocol with the param fields it takes: the one
/// list that the method table, the OpenRPC document and the tests agree on.
public enum ProtocolMethods {
    public static let fields: [String: [String]] = [
        "rpc.discover": [],
        "status": [],
        "changeUser": ["userId", "attributes"],
        "setUserAttributes": ["attributes"],
        "openSession": [],
        "closeSession": [],
        "subscribe": ["channel"],
        "subscribeToUpdates": ["channel"],
        "removeSubscription": ["subscriptionId"],
        "refresh": ["channel", "placementIds"],
        "getSnapshot": ["channel"],
        "getFeatureFlag": ["id"],
        "getBanner": ["placementId"],
        "logImpression": ["channel", "id", "ids"],
        "logClick": ["channel", "id", "buttonId"],
        "logDismiss": ["channel", "id"],
        "flush": [],
        "wipeData": [],
        "disableSDK": [],
        "enableSDK": [],
        "evaluate": ["rule", "data"],
        "evaluateFlag": ["flagKey", "context"],
        "shutdown": [],
    ]

    /// A table where every protocol method answers `NOT_IMPLEMENTED`; the
    /// layers that implement methods replace their entries.
    public static func placeholderTable() -> MethodTable {
        var table = MethodTable()
        for (name, fields) in fields { table.registerNotImplemented(name, fields: fields) }
        return table
    }
}
