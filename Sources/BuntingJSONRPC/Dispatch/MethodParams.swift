import BuntingJSON

/// The params of one method as a type: the method's name, the declaration
/// its requests are checked against, and the fields read from a request that
/// passed the check. A server generates these from its OpenRPC document, so
/// that each param is named once; handlers then read typed fields.
public protocol MethodParams {
    static var method: String { get }
    static var specs: [ParamSpec] { get }
    /// Reads the fields of params that `specs` accepted.
    init(checked params: Params) throws(RPCError)
}

extension Method {
    /// A method that answers at once, from its typed params.
    public static func immediate<P: MethodParams>(
        _ params: P.Type, _ body: @escaping (P) throws(RPCError) -> JSON
    ) -> Method {
        Method(P.method, params: P.specs, .immediate { (raw) throws(RPCError) in try body(P(checked: raw)) })
    }

    /// A method that answers at once with a result already written as text.
    public static func encoded<P: MethodParams>(
        _ params: P.Type, _ body: @escaping (P) throws(RPCError) -> EncodedJSON
    ) -> Method {
        Method(P.method, params: P.specs, .immediateEncoded { (raw) throws(RPCError) in try body(P(checked: raw)) })
    }

    /// A method that answers later, through the responder.
    public static func deferred<P: MethodParams>(
        _ params: P.Type, _ body: @escaping (P, Responder) throws(RPCError) -> Void
    ) -> Method {
        Method(
            P.method, params: P.specs,
            .deferred { (raw, responder) throws(RPCError) in try body(P(checked: raw), responder) })
    }
}
