import BuntingJSON

/// Definitions that can say why they decide what they decide for a user:
/// `explain: true` of `evaluateFlag` and `getSnapshot`, `bunting eval --explain`.
/// Apart from `CompiledDefinitions` so that a document kept only for
/// serving (a test's) need not explain itself; one that cannot answers
/// without explanations.
public protocol ExplainingDefinitions: CompiledDefinitions {
    /// Why `flagKey` resolves as it does for `context`: `{why, rule?, listed}`
    /// (see `Explanation`).
    func explainFlag(_ flagKey: String, context: JSON, at now: Double) -> JSONObject

    /// Why each item of the document is or is not in `channel` for
    /// `subject` now, in document order (entries left out at load last):
    /// `[{id?, placementId?, in, outcome, why, …}]` (see `Explanation`).
    /// `dismissed`: the ids of the items the user dismissed.
    func explainChannel(
        _ channel: Channel, for subject: EvaluationSubject, at now: Double, dismissed: Set<ExactString>
    ) -> [JSONObject]
}
