import BuntingCore
import BuntingJSON
import BuntingRules

/// A definitions document, checked against `schemas/definitions.schema.json`
/// and compiled: flagd's flags, banners, content cards and channel switches,
/// ready to decide per user what each channel holds.
public final class Definitions: CompiledDefinitions {
    public let flagSet: FlagSet
    let banners: [BannerDefinition]
    let cards: [CardDefinition]
    let channels: [Channel: Bool]
    public let placementIds: [String]

    init(flagSet: FlagSet, banners: [BannerDefinition], cards: [CardDefinition], channels: [Channel: Bool]) {
        self.flagSet = flagSet
        self.banners = banners
        self.cards = cards
        self.channels = channels
        var placements: [String] = []
        for banner in banners where !placements.contains(banner.placementId) { placements.append(banner.placementId) }
        self.placementIds = placements
    }

    /// Reads, checks and compiles a document, or lists every problem found.
    public static func load(_ bytes: [UInt8]) -> Result<Definitions, DefinitionsProblems> {
        var loader = DefinitionsLoader(bytes)
        return loader.load()
    }

    /// The engine's compiler: problems become an INVALID_SERVER_DATA message.
    public static let compiler: DefinitionsCompiler = { bytes in
        switch load(bytes) {
        case .success(let definitions): .success(definitions)
        case .failure(let failure): .failure(DefinitionsError(problems: failure.problems.map(\.description)))
        }
    }

    // MARK: - CompiledDefinitions

    public func isEnabled(_ channel: Channel) -> Bool {
        channels[channel] ?? true
    }

    /// The flags the channel lists: those that resolve (not disabled, not in
    /// error) to a boolean or to `{"enabled", "properties"}`; flags of other
    /// value types are for `evaluateFlag` only.
    public func featureFlags(for subject: EvaluationSubject, at now: Double) -> [FeatureFlag] {
        flagSet.resolveAll(context: subject.context, timestamp: Int64(now.rounded(.down))).compactMap(Self.featureFlag)
    }

    static func featureFlag(_ resolution: FlagResolution) -> FeatureFlag? {
        guard resolution.reason != .error, resolution.reason != .disabled else { return nil }
        let tracking = resolution.metadata["trackingString"]?.stringValue
        switch resolution.value {
        case .bool(let enabled):
            return FeatureFlag(id: resolution.flagKey, enabled: enabled, trackingString: tracking)
        case .object(let object):
            guard let enabled = object["enabled"]?.boolValue else { return nil }
            return FeatureFlag(
                id: resolution.flagKey, enabled: enabled, properties: object["properties"]?.objectValue ?? [:],
                trackingString: object["trackingString"]?.stringValue ?? tracking)
        default:
            return nil
        }
    }

    /// For each placement, the eligible banner of highest priority (the
    /// earlier entry on a tie), or its control banner for a user in the control group.
    public func banners(for subject: EvaluationSubject, at now: Double) -> [String: Banner] {
        let context = subject.context
        var winners: [String: BannerDefinition] = [:]
        for banner in banners where banner.isShown(at: now) {
            if let current = winners[banner.placementId], current.priority >= banner.priority { continue }
            guard banner.targeting.matches(banner.id, context: context, at: now) else { continue }
            winners[banner.placementId] = banner
        }
        return winners.mapValues { $0.banner(for: subject) }
    }

    /// The cards whose schedule and targeting admit the user (control cards
    /// for those in a card's control group). Expiry is applied when read.
    public func contentCards(for subject: EvaluationSubject, at now: Double) -> [ContentCard] {
        let context = subject.context
        return cards.filter { $0.targeting.matches($0.id, context: context, at: now) }.map { $0.card(for: subject) }
    }

    public func evaluateFlag(_ flagKey: String, context: JSON, at now: Double) -> JSONObject {
        Self.flagdResult(flagSet.resolve(flagKey: flagKey, context: context, timestamp: Int64(now.rounded(.down))))
    }

    /// `{value, variant, reason, errorCode?}` as flagd reports a resolution.
    static func flagdResult(_ resolution: FlagResolution) -> JSONObject {
        var result: JSONObject = [
            "value": resolution.value, "variant": resolution.variant.map(JSON.string) ?? .null,
            "reason": .string(resolution.reason.rawValue),
        ]
        if let code = resolution.errorCode { result["errorCode"] = .string(code.rawValue) }
        return result
    }
}
