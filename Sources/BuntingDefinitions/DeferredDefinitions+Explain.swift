import BuntingCore
import BuntingJSON

/// A document served from its note explains itself as the full document
/// does, once that is loaded (it is waited for): an explanation is read
/// seldom, and must be the full document's.
extension DeferredDefinitions: ExplainingDefinitions {
    public func explainFlag(_ flagKey: String, context: JSON, at now: Double) -> JSONObject {
        definitions.explainFlag(flagKey, context: context, at: now)
    }

    public func explainChannel(
        _ channel: Channel, for subject: EvaluationSubject, at now: Double, dismissed: Set<ExactString>
    ) -> [JSONObject] {
        definitions.explainChannel(channel, for: subject, at: now, dismissed: dismissed)
    }
}
