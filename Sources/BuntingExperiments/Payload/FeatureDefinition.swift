import BuntingJSON

/// A feature, compiled: its default value and ordered rules. A class, so
/// that evaluation reads it in place instead of copying its fields.
final class FeatureDefinition: Sendable {
    /// The text of the result that gives the default value.
    let defaultText = FixedResultText()
    public let key: String
    let defaultValue: JSON
    let rules: [FeatureRule]

    init(key: String, _ json: JSON, at pointer: JSONPointer, compiler: inout ConditionCompiler)
        throws(FeatureCompileError)
    {
        self.key = key
        let fields = try FieldReader(json, at: pointer, what: "a feature")
        defaultValue = fields["defaultValue"] ?? .null
        var rules: [FeatureRule] = []
        if let elements = try fields.array("rules") {
            rules.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                rules.append(
                    try FeatureRule(
                        element, at: fields.at("rules").appending(index), featureKey: key, compiler: &compiler))
            }
        }
        self.rules = rules
    }
}

/// One rule of a feature: what it needs before it applies (prerequisites,
/// filters) and what it does (force a value, or run an experiment).
final class FeatureRule: Sendable {
    /// The rule's `id` ("" when the payload has none).
    let id: String
    let parentConditions: [ParentCondition]?
    let filters: [Filter]?
    let action: Action

    enum Action: Sendable {
        case force(ForceRule)
        case experiment(ExperimentDefinition)
        /// Neither `force` nor variations: the SDK skips it.
        case skip
    }

    init(_ json: JSON, at pointer: JSONPointer, featureKey: String, compiler: inout ConditionCompiler)
        throws(FeatureCompileError)
    {
        let limits = compiler.limits
        let fields = try FieldReader(json, at: pointer, what: "a rule")
        id = try fields.string("id") ?? ""
        parentConditions = try ParentCondition.list(fields, compiler: compiler)
        filters = try Filter.list(fields, limits: limits)
        // A contextual bandit's rule carries its variations under another
        // key, so that SDKs without bandits skip it.
        let contextual = try fields.array("contextualVariations", limit: limits.maxVariations)
        let plain = try fields.array("variations", limit: limits.maxVariations)
        if fields.has("force") {
            action = .force(try ForceRule(fields, compiler: &compiler))
        } else if let variations = contextual ?? plain {
            action = .experiment(
                try ExperimentDefinition(
                    rule: fields, id: id, variations: variations, featureKey: featureKey, compiler: &compiler))
        } else {
            action = .skip
        }
    }
}

/// A rule that forces a value, for users who pass its condition and fall in
/// its rollout (`range`, else `coverage`).
final class ForceRule: Sendable {
    let value: JSON
    /// The text of the result that gives the value.
    let text = FixedResultText()
    let condition: Condition?
    let seed: String?
    let hashAttribute: String?
    let fallbackAttribute: String?
    let disableStickyBucketing: Bool
    let range: BucketRange?
    let coverage: Double?
    let hashVersion: Double
    /// Exposures a remote evaluation attached to the rule, fired when it
    /// applies, with their experiment keys' ordinals.
    let tracks: [(exposure: Exposure, keyOrdinal: Int)]

    init(_ fields: FieldReader, compiler: inout ConditionCompiler) throws(FeatureCompileError) {
        value = fields["force"] ?? .null
        condition = try compileCondition(fields, "condition", compiler: &compiler)
        seed = try fields.string("seed")
        hashAttribute = try fields.string("hashAttribute")
        fallbackAttribute = try fields.string("fallbackAttribute")
        disableStickyBucketing = try fields.flag("disableStickyBucketing")
        if let json = fields["range"], JSValues.isTruthy(json) {
            range = try FieldReader.range(json, at: fields.at("range"))
        } else {
            range = nil
        }
        coverage = try fields.number("coverage")
        let version = try fields.number("hashVersion") ?? 0
        hashVersion = version == 0 ? 1 : version
        var tracks: [(exposure: Exposure, keyOrdinal: Int)] = []
        if let elements = try fields.array("tracks") {
            for (index, element) in elements.enumerated() {
                let exposure = try Exposure(track: element, at: fields.at("tracks").appending(index))
                tracks.append((exposure, compiler.experimentKeyOrdinal(exposure.experimentKey)))
            }
        }
        self.tracks = tracks
    }
}
