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
        let banners = banners(for: subject, at: now)
        var bannerObject = JSONObject()
        for placement in banners.keys.sorted(by: { $0.string < $1.string }) {
            bannerObject[placement.string] = banners[placement]!.json
        }
        let cards = contentCards(for: subject, at: now).filter { !$0.isExpired(at: now) }.sorted(by: ContentCard.listedBefore)
        return [
            "flags": .object(flags), "featureFlags": .array(featureFlags), "banners": .object(bannerObject),
            "contentCards": .array(cards.map(\.json)),
        ]
    }
}
