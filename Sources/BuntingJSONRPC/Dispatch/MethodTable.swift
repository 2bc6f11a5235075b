import BuntingJSON

/// One param of a method as it is declared: its name, JSON type, whether it
/// is required, and the shape it must have. The connection checks every
/// request against the declaration before the handler runs, so handlers see
/// only params of the declared shape; the same declaration is what the
/// OpenRPC document is checked against.
public struct ParamSpec: Equatable, Sendable {
    /// A JSON type, as JSON Schema names it.
    public enum Kind: String, Equatable, Sendable {
        case string, boolean, number, integer, object, array
        /// Any JSON value.
        case any
    }

    public let name: String
    public let kind: Kind
    public let required: Bool
    /// The type of each element of an array param.
    public var itemKind: Kind?
    /// Arrays of strings: the most Unicode scalars of each element.
    public var itemMaxLength: Int?
    /// Strings: fewest Unicode scalars; arrays: fewest elements.
    public var minLength: Int?
    /// Strings: most Unicode scalars; arrays: most elements.
    public var maxLength: Int?
    /// Arrays: no element may appear twice.
    public var uniqueItems = false
    /// Strings: the only values allowed, in the order error messages list them.
    public var allowedValues: [String]?

    public init(
        _ name: String, _ kind: Kind, required: Bool = false, itemKind: Kind? = nil, itemMaxLength: Int? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, uniqueItems: Bool = false, allowedValues: [String]? = nil
    ) {
        self.name = name
        self.kind = kind
        self.required = required
        self.itemKind = itemKind
        self.itemMaxLength = itemMaxLength
        self.minLength = minLength
        self.maxLength = maxLength
        self.uniqueItems = uniqueItems
        self.allowedValues = allowedValues
    }

    public static func string(
        _ name: String, required: Bool = false, minLength: Int? = nil, maxLength: Int? = nil, oneOf: [String]? = nil
    ) -> ParamSpec {
        ParamSpec(name, .string, required: required, minLength: minLength, maxLength: maxLength, allowedValues: oneOf)
    }

    public static func stringArray(
        _ name: String, required: Bool = false, itemMaxLength: Int? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        uniqueItems: Bool = false
    ) -> ParamSpec {
        ParamSpec(
            name, .array, required: required, itemKind: .string, itemMaxLength: itemMaxLength, minLength: minLength,
            maxLength: maxLength, uniqueItems: uniqueItems)
    }

    public static func object(_ name: String, required: Bool = false) -> ParamSpec {
        ParamSpec(name, .object, required: required)
    }

    public static func number(_ name: String, required: Bool = false) -> ParamSpec {
        ParamSpec(name, .number, required: required)
    }

    public static func any(_ name: String, required: Bool = false) -> ParamSpec {
        ParamSpec(name, .any, required: required)
    }
}

/// One method: its declaration (name and params) and its handler, declared
/// once, in one place.
public struct Method {
    /// Answers at once.
    public typealias Immediate = (Params) throws(RPCError) -> JSON
    /// Answers at once with a result already written as text.
    public typealias ImmediateEncoded = (Params) throws(RPCError) -> EncodedJSON
    /// Answers later, through the responder (exactly once).
    public typealias Deferred = (Params, Responder) throws(RPCError) -> Void

    public enum Handler {
        case immediate(Immediate)
        case immediateEncoded(ImmediateEncoded)
        case deferred(Deferred)
        /// Declared (so that discovery and the table agree) but not built:
        /// answers NOT_IMPLEMENTED.
        case notImplemented
    }

    public let name: String
    public let params: [ParamSpec]
    public let handler: Handler

    public init(_ name: String, params: [ParamSpec] = [], _ handler: Handler) {
        self.name = name
        self.params = params
        self.handler = handler
    }

    public static func immediate(_ name: String, params: [ParamSpec] = [], _ body: @escaping Immediate) -> Method {
        Method(name, params: params, .immediate(body))
    }

    public static func encoded(_ name: String, params: [ParamSpec] = [], _ body: @escaping ImmediateEncoded) -> Method {
        Method(name, params: params, .immediateEncoded(body))
    }

    public static func deferred(_ name: String, params: [ParamSpec] = [], _ body: @escaping Deferred) -> Method {
        Method(name, params: params, .deferred(body))
    }
}

/// The methods a server answers, by name, in the order they were declared.
public struct MethodTable {
    public let methods: [Method]
    private let index: [String: Int]

    public init(_ methods: [Method]) {
        var index: [String: Int] = [:]
        for (position, method) in methods.enumerated() {
            precondition(index[method.name] == nil, "method \(method.name) is declared twice")
            index[method.name] = position
        }
        self.methods = methods
        self.index = index
    }

    public subscript(name: String) -> Method? {
        index[name].map { methods[$0] }
    }

    public var names: [String] { methods.map(\.name) }

    /// The method a misspelt name most likely meant.
    public func closestName(to name: String) -> String? {
        EditDistance.closest(to: name, among: names)
    }
}
