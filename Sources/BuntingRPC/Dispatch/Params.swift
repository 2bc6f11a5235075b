import BuntingJSON

/// The by-name params of one request, read field by field.
///
/// Every getter throws `-32602` naming the field and the reason. Fields the
/// method does not declare are refused before the method runs, so a misspelt
/// optional field is an error rather than silently ignored. By-position params
/// are refused, except an empty array, which means no params.
public struct Params {
    public let members: JSONObject

    public init(_ params: JSON?, allowedFields: [String]) throws(RPCError) {
        switch params {
        case nil:
            members = [:]
        case .object(let object)?:
            members = object
        case .array(let array)? where array.isEmpty:
            members = [:]
        case .array?:
            throw .invalidParams(field: "", "by-position params are not supported; pass an object with named fields")
        case let other?:
            throw .invalidParams(field: "", "params must be an object, not \(other.typeName)")
        }
        for key in members.keys where !allowedFields.contains(key) {
            let known = allowedFields.isEmpty ? "this method takes no params" : "known fields: \(allowedFields.joined(separator: ", "))"
            throw .invalidParams(field: key, "unknown field (\(known))")
        }
    }

    /// The raw value of a field.
    public func value(_ name: String) -> JSON? {
        members[name]
    }

    public func requiredValue(_ name: String) throws(RPCError) -> JSON {
        guard let value = value(name) else { throw .invalidParams(field: name, "is required") }
        return value
    }

    public func string(_ name: String) throws(RPCError) -> String {
        let value = try requiredValue(name)
        guard case .string(let text) = value else { throw Self.wrongType(name, expected: "a string", got: value) }
        return text
    }

    public func optionalString(_ name: String) throws(RPCError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(name, expected: "a string", got: value) }
        return text
    }

    public func object(_ name: String) throws(RPCError) -> JSONObject {
        let value = try requiredValue(name)
        guard case .object(let object) = value else { throw Self.wrongType(name, expected: "an object", got: value) }
        return object
    }

    public func optionalObject(_ name: String) throws(RPCError) -> JSONObject? {
        guard let value = value(name) else { return nil }
        guard case .object(let object) = value else { throw Self.wrongType(name, expected: "an object", got: value) }
        return object
    }

    public func optionalStringArray(_ name: String) throws(RPCError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard case .array(let elements) = value else { throw Self.wrongType(name, expected: "an array of strings", got: value) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw Self.wrongType("\(name)[\(index)]", expected: "a string", got: element)
            }
            strings.append(text)
        }
        return strings
    }

    public static func wrongType(_ field: String, expected: String, got value: JSON) -> RPCError {
        .invalidParams(field: field, "must be \(expected), not \(value.typeName)")
    }
}
