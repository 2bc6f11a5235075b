import BuntingCore
import BuntingJSON

/// What `bunting eval` reports besides each context's evaluation: why
/// (`--explain`), and the items a summary counts (`--summary`).
extension Definitions {
    /// Why the document decides what it decides for one flagd context
    /// (`targetingKey` and attributes), as `eval --explain` writes it:
    /// `{flags: {key: FlagExplanation}, features?: {key: …}, banners: […], contentCards: […]}`.
    public func explanation(for context: JSONObject, at now: Double) -> JSONObject {
        var attributes = context
        let targetingKey = attributes["targetingKey"]?.stringValue ?? ""
        attributes["targetingKey"] = nil
        let subject = EvaluationSubject(targetingKey: targetingKey, attributes: attributes)
        var flags = JSONObject()
        for resolution in flagSet.resolveAll(context: .object(context), timestamp: Int64(now.rounded(.down))) {
            flags[resolution.flagKey] = .object(Self.flagExplanation(resolution, flagKey: resolution.flagKey))
        }
        var result: JSONObject = ["flags": .object(flags)]
        if growthBook != nil {
            var featureAttributes = attributes
            if featureAttributes["id"] == nil { featureAttributes["id"] = .string(targetingKey) }
            var features = JSONObject()
            for (key, outcome) in evaluateFeatures(
                attributes: featureAttributes, keys: nil, sticky: nil, listing: false, tracking: false, at: now
            ).results {
                features[key] = .object(Explanation.feature(outcome.value))
            }
            result["features"] = .object(features)
        }
        for channel in [Channel.banners, .contentCards] {
            result[channel.rawValue] = .array(
                explainChannel(channel, for: subject, at: now, dismissed: []).map(JSON.object))
        }
        return result
    }

    /// The ids of the document's cards, in its order (entries left out at load are not among them).
    public var contentCardIds: [String] { cards.map(\.id) }
}
