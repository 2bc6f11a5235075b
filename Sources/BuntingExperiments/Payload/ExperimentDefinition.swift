import BuntingJSON
import Synchronization

/// An experiment, compiled: what the JavaScript SDK's `runExperiment` reads.
/// Made from an experiment rule of a feature (with the keys `evalFeature`
/// copies into the experiment it runs) or from an experiment given whole.
public final class ExperimentDefinition: Sendable {
    public let key: String
    let variations: [JSON]
    let weights: [Double]?
    /// The `coverage` key, when present (`coverage === undefined ? 1 : coverage`).
    let coverage: Double?
    let ranges: [BucketRange]?
    /// `hashAttribute || "id"`.
    let hashAttribute: String
    let fallbackAttribute: String?
    /// `hashVersion || 1`.
    let hashVersion: Double
    /// `seed || key`.
    let seed: String
    let namespace: Namespace?
    let filters: [Filter]?
    let condition: Condition?
    let parentConditions: [ParentCondition]?
    let meta: [VariationMeta]?
    let disableStickyBucketing: Bool
    let bucketVersion: Double
    let minBucketVersion: Double
    /// `"force" in experiment`: the variation every user in the experiment gets.
    let force: Int??
    /// `active === false` or `status === "draft"` keeps everyone out.
    let inactive: Bool
    let stopped: Bool
    /// A contextual bandit rule's reference into the payload's `contextualBandits`.
    let banditReference: String?
    /// The experiment as results show it.
    let json: JSONObject
    /// The rule and feature that run it, for an experiment rule: what its
    /// results' `ruleId` and `featureId` almost always are, written into
    /// their text once (`ResultTexts`).
    let rule: (id: String, featureKey: String)?
    /// The parts of its results' text that are the same for every user,
    /// written the first time a result is (not at load: a payload's
    /// experiments are many, those asked for over the protocol few).
    private let texts = Mutex<ResultTexts?>(nil)
    /// The same number for the same key throughout a payload, for telling
    /// exposures apart without hashing keys.
    let keyOrdinal: Int
    /// The bucket ranges of its weights and coverage, made once (a bandit
    /// rule's weights differ per user, so its ranges are made then).
    let bucketRanges: [BucketRange]

    /// An experiment rule of feature `featureKey`: the rule's keys that the
    /// SDK copies into the experiment, in the order it copies them.
    init(
        rule fields: FieldReader, id ruleId: String, variations: [JSON], featureKey: String,
        compiler: inout ConditionCompiler
    ) throws(FeatureCompileError) {
        rule = (ruleId, featureKey)
        let limits = compiler.limits
        var json = JSONObject()
        json["variations"] = .array(variations)
        let key = try fields.string("key") ?? featureKey
        json["key"] = .string(key)
        self.key = key
        self.variations = variations
        coverage = try fields.number("coverage")
        if fields.has("coverage") { json["coverage"] = fields["coverage"] }
        weights = try fields.numbers("weights", limit: limits.maxVariations)
        if weights != nil { json["weights"] = fields["weights"] }
        let hashAttribute = try fields.string("hashAttribute")
        if let hashAttribute { json["hashAttribute"] = .string(hashAttribute) }
        self.hashAttribute = hashAttribute ?? "id"
        fallbackAttribute = try fields.string("fallbackAttribute")
        if let fallbackAttribute { json["fallbackAttribute"] = .string(fallbackAttribute) }
        disableStickyBucketing = try fields.flag("disableStickyBucketing")
        if disableStickyBucketing { json["disableStickyBucketing"] = true }
        bucketVersion = try fields.number("bucketVersion") ?? 0
        if fields.has("bucketVersion") { json["bucketVersion"] = fields["bucketVersion"] }
        minBucketVersion = try fields.number("minBucketVersion") ?? 0
        if fields.has("minBucketVersion") { json["minBucketVersion"] = fields["minBucketVersion"] }
        namespace = try Self.namespace(fields)
        if namespace != nil { json["namespace"] = fields["namespace"] }
        meta = try VariationMeta.list(fields, limits: limits)
        if meta != nil { json["meta"] = fields["meta"] }
        ranges = try fields.ranges("ranges", limit: limits.maxVariations)
        if ranges != nil { json["ranges"] = fields["ranges"] }
        for name in ["name", "phase"] where fields[name].map(JSValues.isTruthy) == true { json[name] = fields[name] }
        let seed = try fields.string("seed")
        if let seed { json["seed"] = .string(seed) }
        self.seed = seed ?? key
        let version = try fields.number("hashVersion") ?? 0
        if version != 0 { json["hashVersion"] = fields["hashVersion"] }
        hashVersion = version == 0 ? 1 : version
        filters = try Filter.list(fields, limits: limits)
        if filters != nil { json["filters"] = fields["filters"] }
        condition = try compileCondition(fields, "condition", compiler: &compiler)
        if condition != nil { json["condition"] = fields["condition"] }
        // A rule's prerequisites are checked by the feature, not copied.
        parentConditions = nil
        force = nil
        inactive = false
        stopped = false
        banditReference = try fields.string("contextualBanditRef")
        self.json = json
        keyOrdinal = compiler.experimentKeyOrdinal(key)
        bucketRanges =
            ranges ?? Bucketing.bucketRanges(count: variations.count, coverage: coverage ?? 1, weights: weights)
    }

    /// An experiment given whole, as `gb.run(experiment)` takes it.
    public convenience init(_ json: JSON, savedGroups: SavedGroups = .none, limits: PayloadLimits = .default)
        throws(PayloadProblem)
    {
        try self.init(json, compiler: ConditionCompiler(savedGroups: savedGroups, limits: limits))
    }

    convenience init(_ json: JSON, compiler: ConditionCompiler) throws(PayloadProblem) {
        var compiler = compiler
        do {
            try self.init(experiment: json, at: .root, compiler: &compiler)
        } catch {
            throw error.problem
        }
    }

    init(experiment: JSON, at pointer: JSONPointer, compiler: inout ConditionCompiler) throws(FeatureCompileError) {
        rule = nil
        let limits = compiler.limits
        let fields = try FieldReader(experiment, at: pointer, what: "an experiment")
        guard case .string(let key)? = fields["key"] else {
            throw FeatureCompileError(fields.at("key"), "an experiment needs a string key")
        }
        self.key = key
        guard let variations = try fields.array("variations", limit: limits.maxVariations) else {
            throw FeatureCompileError(fields.at("variations"), "an experiment needs its variations")
        }
        self.variations = variations
        coverage = try fields.number("coverage")
        weights = try fields.numbers("weights", limit: limits.maxVariations)
        hashAttribute = try fields.string("hashAttribute") ?? "id"
        fallbackAttribute = try fields.string("fallbackAttribute")
        disableStickyBucketing = try fields.flag("disableStickyBucketing")
        bucketVersion = try fields.number("bucketVersion") ?? 0
        minBucketVersion = try fields.number("minBucketVersion") ?? 0
        namespace = try Self.namespace(fields)
        meta = try VariationMeta.list(fields, limits: limits)
        ranges = try fields.ranges("ranges", limit: limits.maxVariations)
        seed = try fields.string("seed") ?? key
        let version = try fields.number("hashVersion") ?? 0
        hashVersion = version == 0 ? 1 : version
        filters = try Filter.list(fields, limits: limits)
        condition = try compileCondition(fields, "condition", compiler: &compiler)
        parentConditions = try ParentCondition.list(fields, compiler: compiler)
        if fields.has("force") {
            switch fields["force"] {
            case .null?: force = .some(nil)
            case let value?:
                guard let index = value.integerValue, let small = Int(exactly: index) else {
                    throw FeatureCompileError(fields.at("force"), "force must be a variation's index")
                }
                force = .some(small)
            case nil: force = nil
            }
        } else {
            force = nil
        }
        let status = try fields.string("status")
        inactive = fields["active"] == .bool(false) || status == "draft"
        stopped = status == "stopped"
        banditReference = nil
        json = fields.members
        keyOrdinal = compiler.experimentKeyOrdinal(key)
        bucketRanges =
            ranges ?? Bucketing.bucketRanges(count: variations.count, coverage: coverage ?? 1, weights: weights)
    }

    private static func namespace(_ fields: FieldReader) throws(FeatureCompileError) -> Namespace? {
        guard let json = fields["namespace"], JSValues.isTruthy(json) else { return nil }
        guard case .array(let parts) = json, parts.count == 3, case .string(let id) = parts[0],
            let start = JSValues.number(parts[1]), let end = JSValues.number(parts[2])
        else {
            throw FeatureCompileError(fields.at("namespace"), "a namespace must be [id, start, end]")
        }
        return Namespace(id: id, start: start, end: end)
    }

    /// The meta of variation `index`, if the experiment has one.
    func meta(at index: Int) -> VariationMeta? {
        guard let meta, index >= 0, index < meta.count else { return nil }
        return meta[index]
    }
}

extension ExperimentDefinition {
    /// The parts of a result's text this experiment fixes, written once.
    var resultTexts: ResultTexts {
        texts.withLock { texts in
            if let texts { return texts }
            let written = ResultTexts(self)
            texts = written
            return written
        }
    }
}

/// Text an experiment's results share: the experiment as results show it,
/// its hash attribute, and per variation what `getExperimentResult` takes
/// from the variation alone (its meta key, value, name and passthrough),
/// with the runs of a result's text that hold nothing else (see
/// `FeatureResult.encoded`).
final class ResultTexts: Sendable {
    let experiment: EncodedJSON
    let hashAttribute: String
    let hashAttributeText: EncodedJSON
    let variations: [Variation]

    /// A class, so that a result written from it holds one reference.
    final class Variation: Sendable {
        let key: EncodedJSON
        let value: EncodedJSON
        let name: EncodedJSON?
        let passthrough: EncodedJSON?
        /// `{"value":V,"on":B,"off":B,"source":"experiment","ruleId":R,"experiment":E,`
        /// `"experimentResult":{"key":K,"featureId":F`: a feature's result up
        /// to its feature id, when the variation gave its value, from the
        /// experiment's rule (nil for an experiment given whole).
        let head: [UInt8]?
        /// `,"variationId":N,"value":V,"hashAttribute":H,"hashValue":`,
        /// when the result hashed the experiment's own attribute.
        let resultMiddle: [UInt8]

        init(index: Int, definition: ExperimentDefinition, experiment: EncodedJSON, hashAttribute: EncodedJSON) {
            let meta = definition.meta(at: index)
            let variationValue = definition.variations[index]
            key = EncodedJSON(.string(meta?.key ?? String(index)))
            value = EncodedJSON(variationValue)
            name = meta?.name.map { EncodedJSON($0) }
            passthrough = meta?.passthrough.map { EncodedJSON($0) }
            if let rule = definition.rule {
                var head: [UInt8] = []
                head.reserveCapacity(
                    160 + 2 * value.bytes.count + experiment.bytes.count + key.bytes.count + rule.id.utf8.count
                        + rule.featureKey.utf8.count)
                head.append(contentsOf: #"{"value":"#.utf8)
                head.append(contentsOf: value.bytes)
                let on = JSValues.isTruthy(variationValue)
                head.append(contentsOf: on ? #","on":true,"off":false"#.utf8 : #","on":false,"off":true"#.utf8)
                head.append(contentsOf: #","source":"experiment","ruleId":"#.utf8)
                JSON.string(rule.id).encode(appendingTo: &head)
                head.append(contentsOf: #","experiment":"#.utf8)
                head.append(contentsOf: experiment.bytes)
                head.append(contentsOf: #","experimentResult":{"key":"#.utf8)
                head.append(contentsOf: key.bytes)
                head.append(contentsOf: #","featureId":"#.utf8)
                JSON.string(rule.featureKey).encode(appendingTo: &head)
                self.head = head
            } else {
                head = nil
            }
            var middle: [UInt8] = []
            middle.reserveCapacity(64 + value.bytes.count + hashAttribute.bytes.count)
            middle.append(contentsOf: #","variationId":"#.utf8)
            middle.append(contentsOf: String(index).utf8)
            middle.append(contentsOf: #","value":"#.utf8)
            middle.append(contentsOf: value.bytes)
            middle.append(contentsOf: #","hashAttribute":"#.utf8)
            middle.append(contentsOf: hashAttribute.bytes)
            middle.append(contentsOf: #","hashValue":"#.utf8)
            resultMiddle = middle
        }
    }

    init(_ definition: ExperimentDefinition) {
        let experiment = EncodedJSON(.object(definition.json))
        let hashAttributeText = EncodedJSON(.string(definition.hashAttribute))
        self.experiment = experiment
        hashAttribute = definition.hashAttribute
        self.hashAttributeText = hashAttributeText
        variations = definition.variations.indices.map { index in
            Variation(index: index, definition: definition, experiment: experiment, hashAttribute: hashAttributeText)
        }
    }
}
