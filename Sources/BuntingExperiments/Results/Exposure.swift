import BuntingJSON

/// An exposure: a user was assigned a variation of an experiment by hash,
/// the event GrowthBook's SDKs send to their `trackingCallback`. Not made
/// for forced or overridden assignments; made for passthrough variations and
/// for experiments run as prerequisites, as the JavaScript SDK makes them.
public struct Exposure: Sendable, Equatable {
    public let experimentKey: String
    public let variationId: Int
    /// The variation's meta key, or its index as a string.
    public let variationKey: String
    public let hashAttribute: String
    /// The hash attribute's value as the attributes hold it (a number stays a number).
    public let hashValue: JSON
    /// The feature whose rule ran the experiment; nil for an experiment run directly.
    public let featureId: String?

    public init(
        experimentKey: String, variationId: Int, variationKey: String, hashAttribute: String, hashValue: JSON,
        featureId: String?
    ) {
        self.experimentKey = experimentKey
        self.variationId = variationId
        self.variationKey = variationKey
        self.hashAttribute = hashAttribute
        self.hashValue = hashValue
        self.featureId = featureId
    }

    /// The fields that tell exposures apart, hashable (the evaluator keeps
    /// one exposure per identity).
    struct Identity: Hashable {
        let experimentKey: String
        let variationId: Int
        let hashAttribute: String
        let hashValue: JSON

        /// The experiment and variation only: within one user's evaluations
        /// they almost always tell exposures apart, and the rest is compared.
        func hash(into hasher: inout Hasher) {
            hasher.combine(experimentKey)
            hasher.combine(variationId)
        }
    }

    var identity: Identity {
        Identity(
            experimentKey: experimentKey, variationId: variationId, hashAttribute: hashAttribute, hashValue: hashValue)
    }

    /// What identifies one exposure for de-duplication (per user, experiment
    /// and variation; the engine adds the session): the JavaScript SDK's
    /// hash attribute, hash value, experiment key and variation, with
    /// separators so that no two different exposures share a key.
    public var deduplicationKey: String {
        let value = hashValue.stringValue ?? hashValue.encodedString()
        return "\(hashAttribute)\u{1F}\(value)\u{1F}\(experimentKey)\u{1F}\(variationId)"
    }

    public var json: JSON {
        var object = JSONObject()
        object["experimentKey"] = .string(experimentKey)
        object["variationId"] = .int(variationId)
        object["variationKey"] = .string(variationKey)
        object["hashAttribute"] = .string(hashAttribute)
        object["hashValue"] = hashValue
        object["featureId"] = featureId.map { .string($0) } ?? .null
        return .object(object)
    }

    /// One of a force rule's `tracks` (written by GrowthBook's remote
    /// evaluation): `{experiment: {key, …}, result: {variationId, key, …}}`.
    init(track json: JSON, at pointer: JSONPointer) throws(FeatureCompileError) {
        let fields = try FieldReader(json, at: pointer, what: "a track")
        let experiment = try FieldReader(
            fields["experiment"] ?? .null, at: fields.at("experiment"), what: "a track's experiment")
        let result = try FieldReader(fields["result"] ?? .null, at: fields.at("result"), what: "a track's result")
        guard let key = try experiment.string("key") else {
            throw FeatureCompileError(experiment.at("key"), "a track's experiment needs a key")
        }
        guard let variation = result["variationId"]?.integerValue, let variationId = Int(exactly: variation) else {
            throw FeatureCompileError(result.at("variationId"), "a track's result needs an integer variationId")
        }
        self.init(
            experimentKey: key, variationId: variationId, variationKey: try result.string("key") ?? String(variationId),
            hashAttribute: try result.string("hashAttribute") ?? "id", hashValue: result["hashValue"] ?? "",
            featureId: try result.string("featureId"))
    }
}
