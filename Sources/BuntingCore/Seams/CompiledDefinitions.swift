import BuntingJSON

/// A definitions document, checked and compiled, ready to decide per user what
/// each channel holds. Built off the loop (see `DefinitionsCompiler`) and
/// immutable afterwards.
public protocol CompiledDefinitions: AnyObject, Sendable {
    /// Whether the document turns `channel` on (`channels` in the document).
    func isEnabled(_ channel: Channel) -> Bool

    func featureFlags(for subject: EvaluationSubject, at now: Double) -> [FeatureFlag]
    /// The banner of each placement the document defines that has one for
    /// this user; the banners named in `excluding` (dismissed) are passed
    /// over, so that the next eligible banner fills their placement.
    func banners(for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>) -> [ExactString: Banner]
    /// Every placement the document defines, whether or not it has a banner for this user.
    var placementIds: [String] { get }
    /// The user's cards (control cards included), unsorted, viewed and clicked not yet set.
    func contentCards(for subject: EvaluationSubject, at now: Double) -> [ContentCard]

    /// One flag resolved for a flagd context as flagd would: `{value, variant,
    /// reason, errorCode?, errorMessage?, metadata?}`; with `type`, a value of
    /// another type is ERROR/TYPE_MISMATCH. Touches no user state.
    func evaluateFlag(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> JSONObject

    /// The same result as text, for replies (a document may keep results it wrote before).
    func encodedFlagResult(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> EncodedJSON

    /// Many flags for one context: `{flags: {key: result}, metadata?}`,
    /// every flag of the document, or the ones named.
    func evaluateFlags(context: JSON, flagKeys: [String]?, at now: Double) -> JSONObject

    /// The keys of the flags whose resolution could differ from `previous`:
    /// added, removed, or with a changed definition, evaluators or metadata.
    func flagsChanged(since previous: any CompiledDefinitions) -> [String]

    /// What is wrong in the document though it loaded (a flag in error, an
    /// entry left out), in document order.
    var problems: [DefinitionsProblem] { get }

    /// Calls `body` with `problems` once they are known: at once, or, for a
    /// document served while it is checked in full, when that is done (on
    /// another thread), so that telling of them does not wait for it.
    func whenProblemsKnown(_ body: @escaping @Sendable ([DefinitionsProblem]) -> Void)

    /// Why a document that was served before it was checked in full (from a
    /// note that it loaded before) turned out not to load: it then serves
    /// nothing. Nil for every other document.
    var refusal: DefinitionsError? { get }

    // MARK: GrowthBook features (a payload, or a `features` section)

    /// The keys of the document's GrowthBook features, in its order.
    var featureKeys: [String] { get }

    /// The (attribute name, value) of each sticky bucket document an
    /// evaluation of the features for `attributes` may read.
    func stickyDocumentKeys(for attributes: JSONObject) -> [(name: String, value: String)]

    /// Evaluates the features (every one, or those of `keys`) for
    /// `attributes`, GrowthBook's context. With `sticky` (the documents
    /// `stickyDocumentKeys` names that are stored) sticky bucketing is on,
    /// and the documents it changes come back to be saved; without, it is off.
    /// `listing` makes the flags the `featureFlags` channel lists as well.
    /// `tracking` collects the exposures; without, none are made (an
    /// evaluation for a context given with a request logs nothing).
    func evaluateFeatures(
        attributes: JSONObject, keys: [String]?, sticky: [StickyDocument]?, listing: Bool, tracking: Bool,
        at now: Double
    ) -> FeatureEvaluation

    /// One feature's result text for `attributes` alone: no sticky arms, no
    /// exposures (what `evaluateFeature` answers for a context given with
    /// the request, without the lists `evaluateFeatures` makes).
    func encodedFeatureResult(_ key: String, attributes: JSONObject) -> EncodedJSON?

    /// Evaluates a GrowthBook condition for `attributes`, against `savedGroups`
    /// when given, else the document's; a condition that cannot be read is
    /// refused with why.
    func evaluateCondition(_ condition: JSON, attributes: JSON, savedGroups: JSON?) -> Result<Bool, DefinitionsError>

    // MARK: Personalised text (Liquid templates in the items)

    /// As the methods above, with each item whose template gave no text for
    /// this user (`abort_message`, a render error) added to `unrendered`.
    func featureFlags(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [FeatureFlag]
    func banners(
        for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>, unrendered: inout [UnrenderedItem]
    ) -> [ExactString: Banner]
    func contentCards(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [ContentCard]

    /// Renders one template with the document's content blocks and limits.
    func renderTemplate(_ request: TemplateRequest) -> Result<String, TemplateFault>
}

extension CompiledDefinitions {
    public var refusal: DefinitionsError? { nil }

    public func whenProblemsKnown(_ body: @escaping @Sendable ([DefinitionsProblem]) -> Void) { body(problems) }

    public var featureKeys: [String] { [] }

    public func stickyDocumentKeys(for attributes: JSONObject) -> [(name: String, value: String)] { [] }

    public func evaluateFeatures(
        attributes: JSONObject, keys: [String]?, sticky: [StickyDocument]?, listing: Bool, tracking: Bool,
        at now: Double
    ) -> FeatureEvaluation {
        .none
    }

    public func encodedFeatureResult(_ key: String, attributes: JSONObject) -> EncodedJSON? {
        evaluateFeatures(attributes: attributes, keys: [key], sticky: nil, listing: false, tracking: false, at: 0)
            .results.first?.result
    }

    public func evaluateCondition(_ condition: JSON, attributes: JSON, savedGroups: JSON?) -> Result<
        Bool, DefinitionsError
    > {
        .failure(DefinitionsError(problems: ["these definitions hold no GrowthBook features"]))
    }

    public func featureFlags(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [FeatureFlag]
    {
        featureFlags(for: subject, at: now)
    }

    public func banners(
        for subject: EvaluationSubject, at now: Double, excluding: Set<ExactString>, unrendered: inout [UnrenderedItem]
    ) -> [ExactString: Banner] {
        banners(for: subject, at: now, excluding: excluding)
    }

    public func contentCards(for subject: EvaluationSubject, at now: Double, unrendered: inout [UnrenderedItem])
        -> [ContentCard]
    {
        contentCards(for: subject, at: now)
    }

    public func renderTemplate(_ request: TemplateRequest) -> Result<String, TemplateFault> {
        .failure(
            TemplateFault(
                reason: .invalidTemplate, message: "these definitions render no templates", line: 1, column: 1))
    }

    /// A flag resolved whatever the type of its value.
    public func evaluateFlag(_ flagKey: String, context: JSON, at now: Double) -> JSONObject {
        evaluateFlag(flagKey, context: context, type: nil, at: now)
    }

    public func encodedFlagResult(_ flagKey: String, context: JSON, type: FlagType?, at now: Double) -> EncodedJSON {
        EncodedJSON(.object(evaluateFlag(flagKey, context: context, type: type, at: now)))
    }
}

/// The value type a flag is asked for as (OpenFeature's typed resolution).
public enum FlagType: String, Sendable, CaseIterable {
    case boolean, string, integer, float, object
}

/// Who is being evaluated: the flagd context is `targetingKey` plus the attributes.
public struct EvaluationSubject: Sendable {
    public var targetingKey: String
    public var attributes: JSONObject

    public init(targetingKey: String, attributes: JSONObject) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }
}

/// Why a fetched document was refused; reported as INVALID_SERVER_DATA.
public struct DefinitionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Each problem, as `pointer (line:column): message` where known.
    public var problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        problems.count == 1 ? problems[0] : "\(problems.count) problems: " + problems.prefix(5).joined(separator: "; ")
    }
}

/// Turns the bytes of a document into compiled definitions, or says why not.
/// Runs on a worker thread. The bytes are given to it (`consuming`): a
/// caller that does not read them again lets the compiler give a large
/// document's text back as it goes.
public typealias DefinitionsCompiler =
    @Sendable (consuming [UInt8]) -> Result<any CompiledDefinitions, DefinitionsError>
