import BuntingCore
import BuntingJSON

/// Definitions for engine tests: items listed as they are, each optionally
/// limited to some users (`onlyFor`), so the engine's behaviour is tested
/// apart from rule evaluation (which has tests of its own).
///
/// The test document: `{"channels": {"banners": false}, "flags": [{"id",
/// "enabled", "onlyFor"?}], "banners": [{"id", "placementId", "html",
/// "isControl"?, "onlyFor"?, "expiresAt"?}], "cards": [{"id", "type",
/// "created", "pinned"?, "dismissible"?, "expiresAt"?, "extras"?, "onlyFor"?}],
/// "placements": [...]}`.
final class StaticDefinitions: CompiledDefinitions {
    let document: JSON

    init(_ document: JSON) {
        self.document = document
    }

    /// The compiler the engine is given: bytes → this, or the parse error.
    static let compile: DefinitionsCompiler = { bytes in
        do throws(JSONParseError) {
            let document = try JSON.parse(bytes)
            guard document.objectValue != nil, document["invalid"] == nil else {
                return .failure(DefinitionsError(problems: ["/: not a test document"]))
            }
            return .success(StaticDefinitions(document))
        } catch {
            return .failure(DefinitionsError(problems: [error.description]))
        }
    }

    func isEnabled(_ channel: Channel) -> Bool {
        document["channels"]?[channel.rawValue]?.boolValue ?? true
    }

    private func entries(_ key: String, for subject: EvaluationSubject) -> [JSON] {
        (document[key]?.arrayValue ?? []).filter { entry in
            guard let users = entry["onlyFor"]?.arrayValue else { return true }
            return users.contains(.string(subject.targetingKey))
        }
    }

    func featureFlags(for subject: EvaluationSubject, at now: Double) -> [FeatureFlag] {
        entries("flags", for: subject).map { entry in
            FeatureFlag(
                id: entry["id"]!.stringValue!, enabled: entry["enabled"]?.boolValue ?? true,
                properties: entry["properties"]?.objectValue ?? [:],
                trackingString: entry["trackingString"]?.stringValue)
        }
    }

    func banners(for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>) -> [ExactString: Banner] {
        var banners: [ExactString: Banner] = [:]
        for entry in entries("banners", for: subject) where !excluding.contains(ExactString(entry["id"]!.stringValue!))
        {
            let banner = Banner(
                id: entry["id"]!.stringValue!, placementId: entry["placementId"]!.stringValue!,
                html: entry["html"]?.stringValue ?? "", isControl: entry["isControl"]?.boolValue ?? false,
                expiresAt: entry["expiresAt"]?.doubleValue)
            banners[ExactString(banner.placementId)] = banner
        }
        return banners
    }

    var placementIds: [String] {
        document["placements"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    func evaluateFlag(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> JSONObject {
        ["value": .null, "variant": .null, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND"]
    }

    func evaluateFlags(context: JSON, flagKeys: [String]?, at now: Double) -> JSONObject {
        ["flags": .object([:])]
    }

    /// The ids of the flag entries that differ between the two documents.
    func flagsChanged(since previous: any CompiledDefinitions) -> [String] {
        func entries(_ definitions: StaticDefinitions?) -> [String: JSON] {
            var byId: [String: JSON] = [:]
            for entry in definitions?.document["flags"]?.arrayValue ?? [] {
                byId[entry["id"]?.stringValue ?? ""] = entry
            }
            return byId
        }
        let before = entries(previous as? StaticDefinitions)
        let after = entries(self)
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    var problems: [DefinitionsProblem] { [] }

    /// `"refusedOnFullLoad": "why"` stands for a document served from its
    /// note whose full load then refused it.
    var refusal: DefinitionsError? {
        document["refusedOnFullLoad"]?.stringValue.map { DefinitionsError(problems: [$0]) }
    }

    func contentCards(for subject: EvaluationSubject, at now: Double) -> [ContentCard] {
        entries("cards", for: subject).map { entry in
            ContentCard(
                id: entry["id"]!.stringValue!,
                type: ContentCard.Kind(rawValue: entry["type"]?.stringValue ?? "classic")!,
                title: entry["title"]?.stringValue, extras: entry["extras"]?.objectValue ?? [:],
                created: entry["created"]?.doubleValue ?? 0,
                expiresAt: entry["expiresAt"]?.doubleValue, pinned: entry["pinned"]?.boolValue ?? false,
                dismissible: entry["dismissible"]?.boolValue ?? true)
        }
    }
}
