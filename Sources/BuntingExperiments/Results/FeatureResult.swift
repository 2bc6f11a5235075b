import BuntingJSON

/// A feature's value for one user and why: GrowthBook's `FeatureResult`, as
/// `cases.json` writes it.
public struct FeatureResult: Sendable {
    public let key: String
    public let value: JSON
    public let source: FeatureSource
    /// The id of the rule that decided, "" when none did (or it had no id).
    public let ruleId: String
    /// The experiment that gave the value (source `experiment` only), as the
    /// SDK shows it: the rule's experiment keys, with a bandit's weights.
    public let experiment: JSONObject?
    public let experimentResult: ExperimentResult?
    /// The rule's experiment, when `experiment` is its `json` unchanged (no
    /// bandit's weights in it): its text is then written once and reused.
    let unchangedExperiment: ExperimentDefinition?
    /// The evaluation ran out of steps: conditions it had not decided failed.
    public let exhaustedBudget: Bool
    /// Where the text of a result the payload fixes is kept (a feature's
    /// default, a force rule's value): written the first time, then reused.
    let fixedText: FixedResultText?

    /// JavaScript truthiness of the value.
    public var on: Bool { JSValues.isTruthy(value) }
    public var off: Bool { !on }

    public var json: JSON {
        var object = JSONObject()
        object["value"] = value
        object["on"] = .bool(on)
        object["off"] = .bool(off)
        object["source"] = .string(source.rawValue)
        object["ruleId"] = .string(ruleId)
        if let experiment { object["experiment"] = .object(experiment) }
        if let experimentResult { object["experimentResult"] = experimentResult.json }
        return .object(object)
    }
}
