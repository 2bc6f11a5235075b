import BuntingJSON

/// The methods the server answers, by name.
///
/// Each method declares its param fields (anything else is refused before it
/// runs) and a handler that answers at once or later. A method of the
/// protocol that is not built yet is registered as such and answers
/// `NOT_IMPLEMENTED`, so that `rpc.discover` and the table always agree.
public struct MethodTable {
    public typealias Immediate = (Params) throws(RPCError) -> JSON
    public typealias Deferred = (Params, Responder) throws(RPCError) -> Void

    public enum Handler {
        case immediate(Immediate)
        case deferred(Deferred)
        case notImplemented
    }

    public struct Method {
        public let name: String
        public let fields: [String]
        public let handler: Handler
    }

    private var methods: [String: Method] = [:]

    public init() {}

    public mutating func register(_ name: String, fields: [String] = [], _ handler: @escaping Immediate) {
        methods[name] = Method(name: name, fields: fields, handler: .immediate(handler))
    }

    public mutating func registerDeferred(_ name: String, fields: [String] = [], _ handler: @escaping Deferred) {
        methods[name] = Method(name: name, fields: fields, handler: .deferred(handler))
    }

    public mutating func registerNotImplemented(_ name: String, fields: [String] = []) {
        methods[name] = Method(name: name, fields: fields, handler: .notImplemented)
    }

    public subscript(name: String) -> Method? { methods[name] }

    public var names: [String] { methods.keys.sorted() }
    public var implementedNames: [String] {
        methods.values.filter { if case .notImplemented = $0.handler { false } else { true } }.map(\.name).sorted()
    }
}
