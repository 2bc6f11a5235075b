import BuntingJSON

/// The sticky bucket assignments of one (attribute, value), such as
/// (`id`, `u123`): for each `<experimentKey>__<bucketVersion>`, the meta key
/// of the variation the user had. GrowthBook's `StickyAssignmentsDocument`.
public struct StickyAssignmentsDocument: Sendable, Hashable {
    public let attributeName: String
    public let attributeValue: String
    /// Experiment key and bucket version → variation key, in the order first assigned.
    public private(set) var assignments: JSONObject

    public init(attributeName: String, attributeValue: String, assignments: JSONObject = JSONObject()) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
        self.assignments = assignments
    }

    /// `<attributeName>||<attributeValue>`, the SDK's key for a document.
    public var key: String { Self.key(attributeName: attributeName, attributeValue: attributeValue) }

    public static func key(attributeName: String, attributeValue: String) -> String {
        "\(attributeName)||\(attributeValue)"
    }

    /// Reads a document as GrowthBook's SDKs store it:
    /// `{attributeName, attributeValue, assignments}`.
    public init?(json: JSON) {
        guard case .string(let name)? = json["attributeName"], case .string(let value)? = json["attributeValue"] else {
            return nil
        }
        var assignments = JSONObject()
        if case .object(let members)? = json["assignments"] {
            for (key, variation) in members where variation.stringValue != nil { assignments[key] = variation }
        }
        self.init(attributeName: name, attributeValue: value, assignments: assignments)
    }

    public var json: JSON {
        [
            "attributeName": .string(attributeName), "attributeValue": .string(attributeValue),
            "assignments": .object(assignments),
        ]
    }

    /// The variation key stored for an experiment key and bucket version.
    public func variationKey(for experimentKey: String) -> String? {
        assignments[experimentKey]?.stringValue
    }

    /// Sets one assignment; whether that changed the document (the SDK
    /// compares the assignments' JSON before and after).
    mutating func assign(_ experimentKey: String, variationKey: String) -> Bool {
        if assignments[experimentKey] == .string(variationKey) { return false }
        assignments[experimentKey] = .string(variationKey)
        return true
    }
}
