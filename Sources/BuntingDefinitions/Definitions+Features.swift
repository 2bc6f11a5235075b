import BuntingCore
import BuntingExperiments
import BuntingJSON
import BuntingRules

/// The document's GrowthBook features: evaluated for the current user (the
/// `featureFlags` channel, `evaluateFeature`) or for a context given with a
/// request, and answered as flags where a flag is asked for (`evaluateFlag`,
/// the OpenFeature providers), so that one client reads both kinds alike.
extension Definitions {
    public var featureKeys: [String] { growthBook?.featureKeys ?? [] }

    public func stickyDocumentKeys(for attributes: JSONObject) -> [(name: String, value: String)] {
        growthBook?.stickyDocumentKeys(for: .object(attributes)) ?? []
    }

    public func evaluateFeatures(
        attributes: JSONObject, keys: [String]?, sticky: [StickyDocument]?, listing: Bool, tracking: Bool,
        at now: Double
    ) -> FeatureEvaluation {
        // Without features, every key asked for is an unknown feature.
        guard let growthBook = growthBook ?? (keys == nil ? nil : Self.noFeatures) else { return .none }
        let documents = sticky.map { stored in
            stored.map {
                StickyAssignmentsDocument(
                    attributeName: $0.attributeName, attributeValue: $0.attributeValue, assignments: $0.assignments)
            }
        }
        var evaluator = GrowthBookEvaluator(
            payload: growthBook, context: EvaluationContext(attributes: .object(attributes)),
            stickyDocuments: documents,
            tracksExposures: tracking)
        let results = keys.map { $0.map { evaluator.evaluateFeature($0) } } ?? evaluator.evaluateAll()
        var evaluation = FeatureEvaluation()
        evaluation.results.reserveCapacity(results.count)
        if listing { evaluation.flags.reserveCapacity(results.count) }
        for result in results {
            evaluation.results.append((result.key, result.encoded))
            // The channel lists the features that exist, but a flag's key is the flag's.
            if listing, result.source != .unknownFeature, !flagSet.hasFlag(result.key) {
                evaluation.flags.append(Self.channelFlag(ChannelFlag(result)))
            }
        }
        if listing {
            personaliseFeatureFlags(
                &evaluation.flags, attributes: attributes, at: now, unrendered: &evaluation.unrendered)
        }
        evaluation.exposures = evaluator.takeExposures().map { exposure in
            ExperimentExposure(
                experimentKey: exposure.experimentKey, variationId: exposure.variationId,
                variationKey: exposure.variationKey,
                hashAttribute: exposure.hashAttribute, hashValue: exposure.hashValue, featureId: exposure.featureId,
                deduplicationKey: exposure.deduplicationKey)
        }
        evaluation.changedStickyDocuments = evaluator.takeChangedStickyDocuments().map {
            StickyDocument(
                attributeName: $0.attributeName, attributeValue: $0.attributeValue, assignments: $0.assignments)
        }
        return evaluation
    }

    public func encodedFeatureResult(_ key: String, attributes: JSONObject) -> EncodedJSON? {
        var evaluator = GrowthBookEvaluator(
            payload: growthBook ?? Self.noFeatures, context: EvaluationContext(attributes: .object(attributes)),
            tracksExposures: false)
        return evaluator.evaluateFeature(key).encoded
    }

    /// What a document without features evaluates against.
    private static let noFeatures = GrowthBookPayload(features: nil)

    public func evaluateCondition(_ condition: JSON, attributes: JSON, savedGroups: JSON?) -> Result<
        Bool, DefinitionsError
    > {
        do throws(PayloadProblem) {
            let payload =
                savedGroups == nil
                ? (growthBook ?? Self.noFeatures)
                : GrowthBookPayload(features: nil, savedGroups: savedGroups)
            return .success(try payload.condition(condition).evaluate(attributes))
        } catch {
            return .failure(DefinitionsError(problems: [error.description]))
        }
    }

    /// A feature as the channel lists it: `enabled` is GrowthBook's `on`, an
    /// object value's members are typed properties, and a value an
    /// experiment gave carries its assignment in `metadata.experiment`.
    static func channelFlag(_ flag: ChannelFlag) -> FeatureFlag {
        var metadata = JSONObject()
        if let assignment = flag.assignment { metadata["experiment"] = .object(assignment.json) }
        return FeatureFlag(
            id: flag.id, enabled: flag.enabled, properties: flag.properties, trackingString: nil, metadata: metadata)
    }

    /// A feature resolved for a flagd context (its `targetingKey` is
    /// GrowthBook's `id` unless the context has one), as flagd reports a
    /// flag: nil when no feature has the key, or a flag has it too (the flag answers).
    func featureAsFlag(_ key: String, context: JSON, type: FlagType?) -> JSONObject? {
        guard let growthBook, growthBook.hasFeature(key), !flagSet.hasFlag(key) else { return nil }
        var attributes = context.objectValue ?? JSONObject()
        if attributes["id"] == nil, let targetingKey = attributes["targetingKey"] { attributes["id"] = targetingKey }
        attributes["targetingKey"] = nil
        var evaluator = GrowthBookEvaluator(
            payload: growthBook, context: EvaluationContext(attributes: .object(attributes)))
        return Self.flagdResult(of: evaluator.evaluateFeature(key), type: type)
    }

    /// flagd's reasons for GrowthBook's sources: a default value is DEFAULT,
    /// a force rule TARGETING_MATCH, an experiment SPLIT (its variation is
    /// the variant), a forced value STATIC; a cycle of prerequisites is an
    /// error. The source and rule stay in `metadata`.
    static func flagdResult(of result: FeatureResult, type: FlagType?) -> JSONObject {
        var metadata: JSONObject = ["source": .string(result.source.rawValue)]
        if !result.ruleId.isEmpty { metadata["ruleId"] = .string(result.ruleId) }
        if let experiment = result.experiment?["key"] { metadata["experimentKey"] = experiment }
        var flagd: JSONObject = ["value": result.value, "variant": .null, "reason": "DEFAULT"]
        switch result.source {
        case .defaultValue, .prerequisite: break
        case .force: flagd["reason"] = "TARGETING_MATCH"
        case .override: flagd["reason"] = "STATIC"
        case .experiment:
            flagd["reason"] = "SPLIT"
            if let variation = result.experimentResult?.key { flagd["variant"] = .string(variation) }
        case .unknownFeature:
            return [
                "value": .null, "variant": .null, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND",
                "errorMessage": .string("feature \(result.key.debugDescription) not found"),
            ]
        case .cyclicPrerequisite:
            return [
                "value": .null, "variant": .null, "reason": "ERROR", "errorCode": "GENERAL",
                "errorMessage": "the feature's prerequisites form a cycle", "metadata": .object(metadata),
            ]
        }
        if let type, let value = flagd["value"], !Self.value(value, isA: type) {
            return [
                "value": .null, "variant": .null, "reason": "ERROR", "errorCode": "TYPE_MISMATCH",
                "errorMessage": .string("expected a value of type \(type.rawValue), got \(value.typeName)"),
                "metadata": .object(metadata),
            ]
        }
        if result.value.isNull { flagd["reason"] = "DEFAULT" }
        flagd["metadata"] = .object(metadata)
        return flagd
    }

    private static func value(_ value: JSON, isA type: FlagType) -> Bool {
        guard let expected = FlagValueType(rawValue: type.rawValue) else { return true }
        return expected.accepts(value)
    }
}
