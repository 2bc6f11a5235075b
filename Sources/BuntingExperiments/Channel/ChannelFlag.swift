import BuntingJSON

/// What the `featureFlags` channel shows of a GrowthBook feature: a
/// Braze-style flag. `enabled` is GrowthBook's `on`; an object value's
/// members become properties typed as Braze types them; a value an
/// experiment gave carries its assignment. Plain values: the engine makes
/// its `FeatureFlag` from them.
public struct ChannelFlag: Sendable, Equatable {
    public let id: String
    public let enabled: Bool
    /// Member → `{"type", "value"}`, type `string`, `number`, `boolean` or
    /// `jsonobject` (an object member). Members Braze has no type for (null,
    /// arrays) are left out.
    public let properties: JSONObject
    /// The experiment behind the value, when an experiment rule gave it.
    public let assignment: Assignment?

    public struct Assignment: Sendable, Equatable {
        public let experimentKey: String
        /// The variation's meta key (or its index as a string).
        public let variationKey: String
        public let variationId: Int
        public let inExperiment: Bool

        /// `{"experimentKey", "variationKey", "variationId", "inExperiment"}`, for the flag's metadata.
        public var json: JSONObject {
            [
                "experimentKey": .string(experimentKey), "variationKey": .string(variationKey),
                "variationId": .int(variationId), "inExperiment": .bool(inExperiment),
            ]
        }
    }

    public init(_ result: FeatureResult) {
        id = result.key
        enabled = result.on
        properties = Self.properties(of: result.value)
        if result.source == .experiment, let experimentResult = result.experimentResult,
            let key = result.experiment?["key"]?.stringValue
        {
            assignment = Assignment(
                experimentKey: key, variationKey: experimentResult.key, variationId: experimentResult.variationId,
                inExperiment: experimentResult.inExperiment)
        } else {
            assignment = nil
        }
    }

    /// Braze's typed properties of an object value; none for other values.
    static func properties(of value: JSON) -> JSONObject {
        guard case .object(let members) = value else { return JSONObject() }
        var properties = JSONObject()
        for (key, member) in members {
            let type: String
            switch member {
            case .string: type = "string"
            case .integer, .real: type = "number"
            case .bool: type = "boolean"
            case .object: type = "jsonobject"
            case .null, .array: continue
            }
            properties[key] = ["type": .string(type), "value": member]
        }
        return properties
    }
}
