import BuntingJSON

/// A GrowthBook SDK payload (what `GET {apiHost}/api/features/{clientKey}`
/// serves), compiled once into immutable values.
///
/// A payload loads as flagd documents load: what cannot be read at all (not
/// an object, `features` not an object, too large) refuses the whole
/// payload, but a mistake inside one feature costs that feature only: it is
/// left out (it evaluates as an unknown feature) and listed in `problems`
/// with its JSON pointer. Auto experiments (`experiments`, visual changes
/// and URL redirects for browsers) are read past.
///
/// A class: every evaluator (one per request or user) holds the payload,
/// which is one reference to retain rather than each of its parts.
public final class GrowthBookPayload: Sendable {
    /// Every feature key of the payload, in its order, broken ones included.
    public let featureKeys: [String]
    /// The compiled features, in `featureKeys`' order; nil for a broken one.
    let features: [FeatureDefinition?]
    let featureIndices: [ExactKey: Int]
    let savedGroups: SavedGroups
    let bandits: [ExactKey: ContextualBandit]
    public let problems: [PayloadProblem]
    /// The features left out for a problem.
    public let brokenFeatureKeys: [String]
    public let limits: PayloadLimits
    /// The attributes sticky bucketing keys documents by: each experiment
    /// rule's hash attribute (`id` by default) and fallback attribute, as the
    /// JavaScript SDK derives them, in first-seen order.
    public let stickyBucketAttributes: [String]
    /// Distinct attribute paths the payload's conditions read.
    let attributePathCount: Int
    /// Distinct experiment keys of the payload's rules.
    let experimentKeyCount: Int

    /// The top-level keys of Bunting's own definitions document: a document
    /// with any of them is not a GrowthBook payload.
    static let definitionsKeys: Set<String> = [
        "$schema", "channels", "$evaluators", "flags", "fractionalHashing", "metadata", "banners", "contentCards",
        "contentBlocks",
    ]

    /// Whether a document with these top-level keys is a GrowthBook payload:
    /// it has `features` (or `encryptedFeatures`) and none of the keys of
    /// Bunting's own document (which may carry a `features` section too).
    public static func isPayload(topLevelKeys keys: some Sequence<String>) -> Bool {
        var hasFeatures = false
        for key in keys {
            if definitionsKeys.contains(key) { return false }
            if key == "features" || key == "encryptedFeatures" { hasFeatures = true }
        }
        return hasFeatures
    }

    /// Parses and compiles a payload's text; a `decryptionKey` (base64)
    /// decrypts its `encrypted…` sections first.
    public convenience init(text: [UInt8], decryptionKey: String? = nil, limits: PayloadLimits = .default)
        throws(PayloadProblem)
    {
        guard text.count <= limits.maxPayloadBytes else {
            throw PayloadProblem(
                pointer: .root,
                message: "a payload of \(text.count) bytes is larger than the limit of \(limits.maxPayloadBytes)")
        }
        let document: JSON
        do {
            document = try JSON.parse(text)
        } catch {
            throw PayloadProblem(pointer: .root, message: "not JSON: \(error)")
        }
        try self.init(document: document, decryptionKey: decryptionKey, limits: limits)
    }

    /// Compiles a parsed payload.
    public convenience init(document: JSON, decryptionKey: String? = nil, limits: PayloadLimits = .default)
        throws(PayloadProblem)
    {
        guard case .object(var root) = document else {
            throw PayloadProblem(
                pointer: .root, message: "a GrowthBook payload must be an object, not \(document.typeName)")
        }
        var problems: [PayloadProblem] = []
        try PayloadDecryption.decryptSections(of: &root, key: decryptionKey, limits: limits, problems: &problems)
        if let features = root["features"], features.objectValue == nil, !features.isNull {
            throw PayloadProblem(
                pointer: JSONPointer(tokens: ["features"]),
                message: "features must be an object, not \(features.typeName)")
        }
        self.init(
            features: root["features"], savedGroups: root["savedGroups"], contextualBandits: root["contextualBandits"],
            at: .root, limits: limits, problems: problems)
    }

    /// The `features` section of Bunting's own document (and, optionally,
    /// its saved groups and bandits), with a payload's semantics; pointers
    /// are below `pointer`, the document's root.
    public convenience init(
        features: JSON?, savedGroups: JSON? = nil, contextualBandits: JSON? = nil, at pointer: JSONPointer = .root,
        limits: PayloadLimits = .default
    ) {
        self.init(
            features: features, savedGroups: savedGroups, contextualBandits: contextualBandits, at: pointer,
            limits: limits, problems: [])
    }

    private init(
        features: JSON?, savedGroups savedGroupsJSON: JSON?, contextualBandits: JSON?, at pointer: JSONPointer,
        limits: PayloadLimits, problems initial: [PayloadProblem]
    ) {
        var problems = initial
        let savedGroups = SavedGroups(savedGroupsJSON, at: pointer.appending("savedGroups"), problems: &problems)
        var compiler = ConditionCompiler(savedGroups: savedGroups, limits: limits)

        var bandits: [ExactKey: ContextualBandit] = [:]
        if let contextualBandits {
            if case .object(let members) = contextualBandits {
                for (id, definition) in members {
                    do {
                        bandits[ExactKey(id)] = try ContextualBandit(
                            definition, at: pointer.appending("contextualBandits").appending(id), compiler: &compiler)
                    } catch {
                        problems.append(error.problem)
                    }
                }
            } else if !contextualBandits.isNull {
                problems.append(
                    PayloadProblem(
                        pointer: pointer.appending("contextualBandits"),
                        message: "contextualBandits must be an object, not \(contextualBandits.typeName)"))
            }
        }

        var keys: [String] = []
        var compiled: [FeatureDefinition?] = []
        var indices: [ExactKey: Int] = [:]
        var broken: [String] = []
        var stickyAttributes: [String] = []
        var seenAttributes = Set<ExactKey>()
        if case .object(let members)? = features {
            keys.reserveCapacity(members.count)
            compiled.reserveCapacity(members.count)
            // Every key first, so that a prerequisite can name a later feature.
            for (index, member) in members.enumerated() {
                keys.append(member.key)
                indices[ExactKey(member.key)] = index
            }
            compiler.featureIndices = indices
            for (key, json) in members {
                do {
                    let feature = try FeatureDefinition(
                        key: key, json, at: pointer.appending("features").appending(key), compiler: &compiler)
                    compiled.append(feature)
                    for rule in feature.rules {
                        guard case .experiment(let experiment) = rule.action else { continue }
                        for attribute in [experiment.hashAttribute, experiment.fallbackAttribute].compactMap({ $0 })
                        where seenAttributes.insert(ExactKey(attribute)).inserted {
                            stickyAttributes.append(attribute)
                        }
                    }
                } catch {
                    compiled.append(nil)
                    broken.append(key)
                    problems.append(error.problem)
                }
            }
        } else if let features, !features.isNull {
            problems.append(
                PayloadProblem(
                    pointer: pointer.appending("features"),
                    message: "features must be an object, not \(features.typeName)"))
        }
        featureKeys = keys
        attributePathCount = compiler.pathCount
        experimentKeyCount = compiler.experimentKeyCount
        self.features = compiled
        featureIndices = indices
        self.compiler = compiler
        self.savedGroups = savedGroups
        self.bandits = bandits
        self.problems = problems
        brokenFeatureKeys = broken
        self.limits = limits
        stickyBucketAttributes = stickyAttributes
    }

    /// The compiler of the payload's conditions, kept for conditions and
    /// experiments compiled later against its saved groups and features.
    private let compiler: ConditionCompiler

    func featureIndex(_ key: String) -> Int? {
        featureIndices[ExactKey(key)]
    }

    /// Whether a feature has this key (broken ones included).
    public func hasFeature(_ key: String) -> Bool {
        featureIndices[ExactKey(key)] != nil
    }

    func bandit(_ reference: String) -> ContextualBandit? {
        bandits[ExactKey(reference)]
    }

    /// Compiles a condition against this payload's saved groups (for
    /// `evaluateCondition`, and for experiments run directly).
    public func condition(_ json: JSON) throws(PayloadProblem) -> Condition {
        try Condition(json, savedGroups: savedGroups, limits: limits)
    }

    /// An experiment to run directly; its prerequisites name this payload's features.
    public func experiment(_ json: JSON) throws(PayloadProblem) -> ExperimentDefinition {
        try ExperimentDefinition(json, compiler: compiler)
    }
}
