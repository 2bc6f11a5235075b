import BuntingJSON

/// The by-name params of one request, checked against the method's
/// declaration and then read field by field.
///
/// Checking refuses, with `-32602` naming the field and the reason: fields
/// the method does not declare (so a misspelt optional field is an error
/// rather than silently ignored), missing required fields, and values of
/// another type or shape than declared. By-position params are refused,
/// except an empty array, which means no params.
public struct Params {
    public let members: JSONObject

    public init(_ params: JSON?, declared specs: [ParamSpec]) throws(RPCError) {
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
        for key in members.keys where !specs.contains(where: { $0.name == key }) {
            let known =
                specs.isEmpty
                ? "this method takes no params" : "known fields: \(specs.map(\.name).joined(separator: ", "))"
            throw .invalidParams(field: key, "unknown field (\(known))")
        }
        for spec in specs {
            guard let value = members[spec.name] else {
                if spec.required { throw .invalidParams(field: spec.name, "is required") }
                continue
            }
            try Self.check(value, against: spec)
        }
    }

    private static func check(_ value: JSON, against spec: ParamSpec) throws(RPCError) {
        try checkKind(value, spec.kind, field: spec.name)
        switch value {
        case .string(let text):
            if let allowed = spec.allowedValues, !allowed.contains(text) {
                throw .invalidParams(
                    field: spec.name,
                    "must be one of \(allowed.joined(separator: ", ")), not \(text.debugDescription)")
            }
            let length = text.unicodeScalars.count
            if let minimum = spec.minLength, length < minimum {
                throw .invalidParams(
                    field: spec.name,
                    minimum == 1 ? "must not be empty" : "must have at least \(minimum) characters")
            }
            if let maximum = spec.maxLength, length > maximum {
                throw .invalidParams(field: spec.name, "must have at most \(maximum) characters, not \(length)")
            }
        case .array(let elements):
            // The count first: a check of each element costs as much as the array is long.
            if let minimum = spec.minLength, elements.count < minimum {
                throw .invalidParams(
                    field: spec.name, minimum == 1 ? "must not be empty" : "must have at least \(minimum) elements"
                )
            }
            if let maximum = spec.maxLength, elements.count > maximum {
                throw .invalidParams(field: spec.name, "must have at most \(maximum) elements, not \(elements.count)")
            }
            if let itemKind = spec.itemKind {
                for (index, element) in elements.enumerated() {
                    try checkKind(element, itemKind, field: "\(spec.name)[\(index)]")
                    if let maximum = spec.itemMaxLength, case .string(let text) = element,
                        text.unicodeScalars.count > maximum
                    {
                        throw .invalidParams(field: "\(spec.name)[\(index)]", "must have at most \(maximum) characters")
                    }
                }
            }
            if spec.uniqueItems, let twice = firstRepeated(elements) {
                throw .invalidParams(field: spec.name, "must not name \(twice.encodedString()) twice")
            }
        default:
            break
        }
    }

    /// The first element that appears again, in one pass with a set (comparing
    /// every pair took minutes for 100,000 ids). Strings are compared by
    /// their bytes: canonically equivalent spellings are two ids.
    private static func firstRepeated(_ elements: [JSON]) -> JSON? {
        var strings = Set<ExactString>()
        var others = Set<JSON>()
        for element in elements {
            let isNew: Bool
            if case .string(let text) = element {
                isNew = strings.insert(ExactString(text)).inserted
            } else {
                isNew = others.insert(element).inserted
            }
            if !isNew { return element }
        }
        return nil
    }

    private static func checkKind(_ value: JSON, _ kind: ParamSpec.Kind, field: String) throws(RPCError) {
        let matches: Bool
        switch (kind, value) {
        case (.any, _), (.string, .string), (.boolean, .bool), (.object, .object), (.array, .array),
            (.number, .integer), (.number, .real), (.integer, .integer):
            matches = true
        default:
            matches = false
        }
        guard matches else { throw wrongType(field, expected: kind, got: value) }
    }

    static func wrongType(_ field: String, expected: ParamSpec.Kind, got value: JSON) -> RPCError {
        let name: String
        switch expected {
        case .string: name = "a string"
        case .boolean: name = "a boolean"
        case .number: name = "a number"
        case .integer: name = "an integer"
        case .object: name = "an object"
        case .array: name = "an array"
        case .any: name = "a JSON value"
        }
        return .invalidParams(field: field, "must be \(name), not \(value.typeName)")
    }

    // MARK: - Reading checked fields
    //
    // By name: what a server's generated params types (`MethodParams`) read,
    // each name written once, where they are generated.

    /// The raw value of a field.
    public func value(_ name: String) -> JSON? {
        members[name]
    }

    /// A field the declaration makes required; its absence is a bug in the
    /// method's declaration, answered as an internal error.
    public func requiredValue(_ name: String) throws(RPCError) -> JSON {
        guard let value = members[name] else { throw .invalidParams(field: name, "is required") }
        return value
    }

    public func string(_ name: String) throws(RPCError) -> String {
        guard case .string(let text) = try requiredValue(name) else {
            throw .internalError("\(name) is not declared a string")
        }
        return text
    }

    public func optionalString(_ name: String) -> String? {
        members[name]?.stringValue
    }

    public func object(_ name: String) throws(RPCError) -> JSONObject {
        guard case .object(let object) = try requiredValue(name) else {
            throw .internalError("\(name) is not declared an object")
        }
        return object
    }

    public func optionalObject(_ name: String) -> JSONObject? {
        members[name]?.objectValue
    }

    public func optionalNumber(_ name: String) -> Double? {
        members[name]?.doubleValue
    }

    public func number(_ name: String) throws(RPCError) -> Double {
        guard let number = try requiredValue(name).doubleValue else {
            throw .internalError("\(name) is not declared a number")
        }
        return number
    }

    public func optionalInteger(_ name: String) -> Int64? {
        members[name]?.integerValue
    }

    public func integer(_ name: String) throws(RPCError) -> Int64 {
        guard let number = try requiredValue(name).integerValue else {
            throw .internalError("\(name) is not declared an integer")
        }
        return number
    }

    public func optionalBoolean(_ name: String) -> Bool? {
        members[name]?.boolValue
    }

    public func boolean(_ name: String) throws(RPCError) -> Bool {
        guard let flag = try requiredValue(name).boolValue else {
            throw .internalError("\(name) is not declared a boolean")
        }
        return flag
    }

    public func stringArray(_ name: String) throws(RPCError) -> [String] {
        guard case .array(let elements) = try requiredValue(name) else {
            throw .internalError("\(name) is not declared an array")
        }
        return elements.compactMap(\.stringValue)
    }

    /// An array declared with string elements.
    public func optionalStringArray(_ name: String) -> [String]? {
        members[name]?.arrayValue?.compactMap(\.stringValue)
    }
}
