import BuntingCore
import BuntingJSON

extension Definitions {
    public var bannerCount: Int { banners.count }
    public var cardCount: Int { cards.count }

    /// Everything the document gives one flagd evaluation context, as
    /// `bunting eval` writes it: flagd's resolution of every flag, and the
    /// three channels as a client would see them (expired cards left out).
    public func evaluation(for context: JSONObject, at now: Double) -> JSONObject {
        var attributes = context
        let targetingKey = attributes["targetingKey"]?.stringValue ?? ""
        attributes["targetingKey"] = nil
        let subject = EvaluationSubject(targetingKey: targetingKey, attributes: attributes)

        var flags = JSONObject()
        var featureFlags: [JSON] = []
        for resolution in flagSet.resolveAll(context: .object(context), timestamp: Int64(now.rounded(.down))) {
            flags[resolution.flagKey] = .object(Self.flagdResult(resolution))
            if let flag = Self.featureFlag(resolution) { featureFlags.append(flag.json) }
        }
        // GrowthBook features: their results as GrowthBook gives them, and the
        // channel's flags (GrowthBook's context: the attributes, `id` the targeting key).
        var features = JSONObject()
        if growthBook != nil {
            var growthBookAttributes = attributes
            if growthBookAttributes["id"] == nil { growthBookAttributes["id"] = .string(targetingKey) }
            let evaluation = evaluateFeatures(
                attributes: growthBookAttributes, keys: nil, sticky: nil, listing: true, tracking: false, at: now)
            for (key, result) in evaluation.results { features[key] = result.value }
            featureFlags += evaluation.flags.map(\.json)
        }
        let banners = banners(for: subject, at: now)
        var bannerObject = JSONObject()
        for placement in banners.keys.sorted(by: { $0.string < $1.string }) {
            bannerObject[placement.string] = banners[placement]!.json
        }
        let cards = contentCards(for: subject, at: now).filter { !$0.isExpired(at: now) }.sorted(
            by: ContentCard.listedBefore)
        var result: JSONObject = ["flags": .object(flags)]
        if growthBook != nil { result["features"] = .object(features) }
        result["featureFlags"] = .array(featureFlags)
        result["banners"] = .object(bannerObject)
        result["contentCards"] = .array(cards.map(\.json))
        return result
    }
}
