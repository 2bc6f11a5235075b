import BuntingJSON
import BuntingRuntime

/// The words an explanation is written in, shared by the server
/// (`explain: true`) and `bunting eval --explain`, so that both say the
/// same thing the same way.
///
/// An item's explanation is `{id, in, outcome, why}`: `in` says whether the
/// user gets it, `outcome` is a word to switch on, `why` a sentence for a
/// person. Banners add `placementId`, flags `variant` and `rule` (the JSON
/// pointer of the targeting that decided, when one did).
public enum Explanation {
    /// Why a banner or card is in or out.
    public enum Outcome: String, Sendable {
        /// Shown to the user.
        case shown = "SHOWN"
        /// The user is in the item's control group: a control item stands in.
        case control = "CONTROL"
        /// The targeting is false for this user.
        case notTargeted = "NOT_TARGETED"
        /// The targeting could not be evaluated (a bound reached): counted as false.
        case targetingError = "TARGETING_ERROR"
        /// Before its schedule's start.
        case notStarted = "NOT_STARTED"
        /// At or after its schedule's end.
        case ended = "ENDED"
        /// At or after `expiresAt`.
        case expired = "EXPIRED"
        /// A banner of its placement with a higher priority (or listed earlier) fills it.
        case outranked = "OUTRANKED"
        /// The user dismissed it.
        case dismissed = "DISMISSED"
        /// The entry has a problem and was left out when the document loaded.
        case invalid = "INVALID"
        /// Admitted, but one of its Liquid templates gave this user no text
        /// (`abort_message`, a render error, a limit): left out for them.
        case notRendered = "NOT_RENDERED"

        public var isIn: Bool { self == .shown || self == .control }
    }

    /// `{id?, in, outcome, why}` plus `more`.
    public static func item(id: String?, _ outcome: Outcome, _ why: String, more: JSONObject = [:]) -> JSONObject {
        var object = JSONObject()
        if let id { object["id"] = .string(id) }
        object.merge(more)
        object["in"] = .bool(outcome.isIn)
        object["outcome"] = .string(outcome.rawValue)
        object["why"] = .string(why)
        return object
    }

    /// A time in explanations: RFC 3339, which a person reads.
    public static func time(_ seconds: Double) -> String {
        UnixTime.rfc3339(seconds)
    }

    /// Why a GrowthBook feature has its value, from its FeatureResult
    /// (`source`, `ruleId`, `experimentResult`): `{source, why, rule?}`.
    public static func feature(_ result: JSON) -> JSONObject {
        let source = result["source"]?.stringValue ?? ""
        let rule = result["ruleId"]?.stringValue ?? ""
        let named = rule.isEmpty ? "a rule" : "rule \(rule.debugDescription)"
        let why: String
        switch source {
        case "defaultValue": why = "no rule applies: the feature's default value"
        case "force": why = "\(named) forces the value"
        case "experiment":
            let key = result["experimentResult"]?["key"].map { $0.stringValue ?? $0.encodedString() } ?? "?"
            let experiment = result["experiment"]?["key"]?.stringValue ?? "?"
            why = "\(named) puts the user in experiment \(experiment.debugDescription), variation \(key)"
        case "unknownFeature": why = "the definitions have no such feature"
        case "prerequisite": why = "a prerequisite of the feature is not met"
        case "cyclicPrerequisite": why = "the feature's prerequisites form a cycle"
        case "override": why = "an override sets the value"
        default: why = "source \(source.debugDescription)"
        }
        var object: JSONObject = ["source": .string(source), "why": .string(why)]
        if !rule.isEmpty { object["rule"] = .string(rule) }
        return object
    }
}
