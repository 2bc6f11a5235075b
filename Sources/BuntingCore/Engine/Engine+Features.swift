import BuntingJSON
import BuntingRuntime

/// GrowthBook features: evaluated for the current user with sticky arms and
/// exposures, or for a context given with the request with neither; and
/// exposures on the durable path, once per user, experiment and variation a
/// session.
extension Engine {
    /// One feature as GrowthBook's `FeatureResult` (`cases.json`'s shape).
    /// Without `attributes`, for the current user: sticky arms are read and
    /// kept, and an exposure is logged (EXPOSURE/ENQUEUED, `experiment_viewed`
    /// at the sink) when the user is assigned an arm by hash. With
    /// `attributes`, for that context alone: nothing is stored or logged.
    /// The result is its reply's text.
    public func evaluateFeature(_ key: String, attributes: JSONObject?) throws(EngineError) -> EncodedJSON {
        try onLoop { () throws(EngineError) in
            if let attributes, let definitions {
                return definitions.encodedFeatureResult(key, attributes: attributes)
                    ?? EncodedJSON(Self.unknownFeature(key))
            }
            let results = try featureResults(keys: [key], attributes: attributes)
            return results.first?.result ?? EncodedJSON(.null)
        }
    }

    /// Every feature, or those of `keys`, in the document's order (those of
    /// `keys` in theirs), each as its text.
    public func evaluateFeatures(keys: [String]?, attributes: JSONObject?) throws(EngineError) -> [(
        key: String, result: EncodedJSON
    )] {
        try onLoop { () throws(EngineError) in try featureResults(keys: keys, attributes: attributes) }
    }

    /// A GrowthBook condition for `attributes` (against `savedGroups`, else the document's).
    public func evaluateCondition(_ condition: JSON, attributes: JSON, savedGroups: JSON?) -> Result<
        Bool, DefinitionsError
    > {
        onLoop {
            guard let definitions else {
                return .failure(DefinitionsError(problems: ["no definitions are loaded yet"]))
            }
            return definitions.evaluateCondition(condition, attributes: attributes, savedGroups: savedGroups)
        }
    }

    private func featureResults(keys: [String]?, attributes: JSONObject?) throws(EngineError) -> [(
        key: String, result: EncodedJSON
    )] {
        guard let definitions else {
            return (keys ?? []).map { ($0, EncodedJSON(Self.unknownFeature($0))) }
        }
        if let attributes {
            return definitions.evaluateFeatures(
                attributes: attributes, keys: keys, sticky: nil, listing: false, tracking: false, at: now
            ).results
        }
        guard user.isSDKEnabled else { throw .sdkDisabled }
        let evaluation = currentUserFeatures(definitions, keys: keys, listing: false)
        try logExposures(evaluation.exposures)
        return evaluation.results
    }

    /// The features evaluated for the current user, sticky arms read and the
    /// changed documents saved (with the channel's flags when `listing`).
    /// Exposures are the caller's to log.
    func currentUserFeatures(_ definitions: any CompiledDefinitions, keys: [String]?, listing: Bool)
        -> FeatureEvaluation
    {
        let attributes = user.growthBookAttributes
        let sticky = stickyAssignments.documents(for: definitions.stickyDocumentKeys(for: attributes))
        let evaluation = definitions.evaluateFeatures(
            attributes: attributes, keys: keys, sticky: sticky, listing: listing, tracking: true, at: now)
        stickyAssignments.save(evaluation.changedStickyDocuments)
        return evaluation
    }

    /// Logs each exposure not logged yet in this session: committed before
    /// its EXPOSURE/ENQUEUED, FLUSHED once the sink accepted it.
    func logExposures(_ exposures: [ExperimentExposure]) throws(EngineError) {
        var noted = false
        defer { if noted { user.save() } }
        for exposure in exposures where !user.hasLoggedExposure(exposure.deduplicationKey) {
            try enqueue(.experimentViewed, .featureFlags, itemId: exposure.experimentKey, item: exposure.json)
            user.noteExposure(exposure.deduplicationKey)
            noted = true
        }
    }

    /// The exposures the current user's impression of feature `key` stands for.
    func logExposuresOfFeatureImpression(_ key: String) throws(EngineError) {
        guard let definitions, definitions.featureKeys.contains(where: { $0.sameBytes(as: key) }) else { return }
        try logExposures(currentUserFeatures(definitions, keys: [key], listing: false).exposures)
    }

    static func unknownFeature(_ key: String) -> JSON {
        ["value": .null, "on": false, "off": true, "source": "unknownFeature", "ruleId": ""]
    }
}
