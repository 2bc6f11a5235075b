import BuntingJSON

/// Who features are evaluated for, and the overrides a GrowthBook context
/// carries: the user's attributes, the page URL (for `?experiment=i`
/// overrides), forced variations and feature values, QA mode.
public struct EvaluationContext: Sendable {
    /// A JSON object.
    public var attributes: JSON
    public var url: String
    /// Experiment key → the variation every evaluation gives.
    public var forcedVariations: [String: Int]
    /// Feature key → the value every evaluation gives (source `override`).
    public var forcedFeatures: [String: JSON]
    /// False: no one is in any experiment.
    public var enabled: Bool
    /// True: no one is in an experiment unless a variation is forced.
    public var qaMode: Bool

    public init(
        attributes: JSON = .object(JSONObject()), url: String = "", forcedVariations: [String: Int] = [:],
        forcedFeatures: [String: JSON] = [:], enabled: Bool = true, qaMode: Bool = false
    ) {
        self.attributes = attributes
        self.url = url
        self.forcedVariations = forcedVariations
        self.forcedFeatures = forcedFeatures
        self.enabled = enabled
        self.qaMode = qaMode
    }

    func forcedVariation(_ experimentKey: String) -> Int? {
        guard !forcedVariations.isEmpty else { return nil }
        for (key, value) in forcedVariations where JSValues.sameJSONText(.string(key), .string(experimentKey)) {
            return value
        }
        return nil
    }

    func forcedFeature(_ featureKey: String) -> JSON? {
        guard !forcedFeatures.isEmpty else { return nil }
        for (key, value) in forcedFeatures where JSValues.sameJSONText(.string(key), .string(featureKey)) {
            return value
        }
        return nil
    }
}
