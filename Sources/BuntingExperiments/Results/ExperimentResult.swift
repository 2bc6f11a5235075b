import BuntingJSON

/// What running an experiment gave one user: GrowthBook's `Result`. A class,
/// so that a feature's result, copied through every layer of evaluation,
/// carries one reference rather than these fields.
public final class ExperimentResult: Sendable, Equatable {
    public let inExperiment: Bool
    public let variationId: Int
    public let value: JSON
    /// Whether the variation came from the user's hash (not forced or overridden).
    public let hashUsed: Bool
    public let hashAttribute: String
    /// The hash attribute's value as the attributes hold it; "" when missing.
    public let hashValue: JSON
    public let featureId: String?
    /// The variation's meta key, or its index as a string.
    public let key: String
    public let stickyBucketUsed: Bool
    /// The user's hash, when one was computed.
    public let bucket: Double?
    public let name: JSON?
    public let passthrough: JSON?
    /// A contextual bandit's leaf and weights, for hash-assigned users in it.
    public let bandit: BanditAssignment?
    /// The experiment run, whose variation `variationId` gave `key`, `value`,
    /// `name` and `passthrough`: their text is the experiment's, written once.
    let definition: ExperimentDefinition

    init(
        inExperiment: Bool, variationId: Int, value: JSON, hashUsed: Bool, hashAttribute: String, hashValue: JSON,
        featureId: String?, key: String, stickyBucketUsed: Bool, bucket: Double?, name: JSON?, passthrough: JSON?,
        bandit: BanditAssignment?, definition: ExperimentDefinition
    ) {
        self.definition = definition
        self.inExperiment = inExperiment
        self.variationId = variationId
        self.value = value
        self.hashUsed = hashUsed
        self.hashAttribute = hashAttribute
        self.hashValue = hashValue
        self.featureId = featureId
        self.key = key
        self.stickyBucketUsed = stickyBucketUsed
        self.bucket = bucket
        self.name = name
        self.passthrough = passthrough
        self.bandit = bandit
    }

    public static func == (lhs: ExperimentResult, rhs: ExperimentResult) -> Bool {
        lhs === rhs || lhs.json == rhs.json
    }

    public var json: JSON {
        var object = JSONObject()
        object["key"] = .string(key)
        object["featureId"] = featureId.map { .string($0) } ?? .null
        object["inExperiment"] = .bool(inExperiment)
        object["hashUsed"] = .bool(hashUsed)
        object["variationId"] = .int(variationId)
        object["value"] = value
        object["hashAttribute"] = .string(hashAttribute)
        object["hashValue"] = hashValue
        object["stickyBucketUsed"] = .bool(stickyBucketUsed)
        if let name { object["name"] = name }
        if let bucket { object["bucket"] = .number(bucket) }
        if let passthrough { object["passthrough"] = passthrough }
        if let bandit {
            object["leafId"] = .int(bandit.leafId)
            object["variationWeights"] = bandit.variationWeightsJSON
            if let version = bandit.banditVersion { object["banditVersion"] = .int(version) }
        }
        return .object(object)
    }
}

/// The leaf of a contextual bandit a user was routed to (`-1` when none
/// matched) and the weights that bucketed them.
public struct BanditAssignment: Sendable, Hashable {
    public let leafId: Int
    public let variationWeights: [Double]
    let variationWeightsJSON: JSON
    public let banditVersion: Int?

    var json: JSON {
        var object = JSONObject()
        object["leafId"] = .int(leafId)
        object["variationWeights"] = variationWeightsJSON
        if let banditVersion { object["banditVersion"] = .int(banditVersion) }
        return .object(object)
    }
}
