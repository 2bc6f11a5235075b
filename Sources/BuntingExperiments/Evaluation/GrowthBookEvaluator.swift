import BuntingJSON

/// Evaluates a payload's features for one user, as the JavaScript SDK's
/// `evalFeature` and `runExperiment` do, and collects what the evaluations
/// cause: exposures (the SDK's tracking calls) and changed sticky bucket
/// documents, for the owner to log and save.
///
/// A value type with no shared state: one per user (or per request), used
/// from one thread at a time.
public struct GrowthBookEvaluator: Sendable {
    public let payload: GrowthBookPayload
    /// Fixed for the evaluator's life: the attribute values it keeps are this context's.
    public let context: EvaluationContext
    /// The budget of the last evaluation, kept for the attribute values it
    /// read (see `EvaluationBudget.attributeValues`).
    private var scratch: EvaluationBudget?
    /// The user's sticky bucket documents by key; nil when sticky bucketing is off.
    var stickyDocuments: [String: StickyAssignmentsDocument]?
    private var changedKeys: [String] = []
    private var exposureList: [Exposure] = []
    /// The first exposure made of each experiment key, by the key's ordinal;
    /// any other (another variation or hash value of a key already exposed,
    /// or an experiment run directly with a key the payload has not) is in
    /// `trackedElsewhere`.
    private var tracked: [Exposure.Identity?] = []
    private var trackedElsewhere = Set<Exposure.Identity>()
    /// Whether exposures are collected: not for an evaluation whose
    /// exposures nobody logs (the SDK without a tracking callback).
    public var tracksExposures: Bool

    /// `stickyDocuments` turns sticky bucketing on (the SDK's sticky bucket
    /// service): the user's documents, as `StickyBucketStore.documents(for:attributes:)` reads them.
    public init(
        payload: GrowthBookPayload, context: EvaluationContext, stickyDocuments: [StickyAssignmentsDocument]? = nil,
        tracksExposures: Bool = true
    ) {
        self.payload = payload
        self.context = context
        self.tracksExposures = tracksExposures
        // Each property set once, so that the evaluator is built in place.
        self.stickyDocuments = stickyDocuments.map { documents in
            var byKey: [String: StickyAssignmentsDocument] = [:]
            for document in documents { byKey[document.key] = document }
            return byKey
        }
    }

    public var stickyBucketing: Bool { stickyDocuments != nil }

    /// Exposures since the last call, each once.
    public mutating func takeExposures() -> [Exposure] {
        defer { exposureList = [] }
        return exposureList
    }

    /// Sticky bucket documents changed since the last call, to be saved.
    public mutating func takeChangedStickyDocuments() -> [StickyAssignmentsDocument] {
        defer { changedKeys = [] }
        return changedKeys.compactMap { stickyDocuments?[$0] }
    }

    /// The current sticky documents (those read and those changed).
    public var currentStickyDocuments: [StickyAssignmentsDocument] {
        stickyDocuments.map { Array($0.values) } ?? []
    }

    // MARK: - Entry points

    /// One feature's value for the context's user.
    public mutating func evaluateFeature(_ key: String) -> FeatureResult {
        evaluateFeature(at: payload.featureIndex(key), key)
    }

    private mutating func evaluateFeature(at index: Int?, _ key: String) -> FeatureResult {
        var budget = takeBudget()
        defer { scratch = budget }
        var stack = FeatureStack()
        let result = evaluateFeature(index, key, stack: &stack, budget: &budget)
        guard budget.exhausted else { return result }
        return FeatureResult(
            key: result.key, value: result.value, source: result.source, ruleId: result.ruleId,
            experiment: result.experiment,
            experimentResult: result.experimentResult, unchangedExperiment: result.unchangedExperiment,
            exhaustedBudget: true, fixedText: result.fixedText)
    }

    /// Every feature of the payload, in its order.
    public mutating func evaluateAll() -> [FeatureResult] {
        var results: [FeatureResult] = []
        results.reserveCapacity(payload.featureKeys.count)
        for (index, key) in payload.featureKeys.enumerated() { results.append(evaluateFeature(at: index, key)) }
        return results
    }

    /// An experiment run directly (`gb.run`), not through a feature.
    public mutating func run(_ experiment: ExperimentDefinition) -> ExperimentResult {
        var budget = takeBudget()
        defer { scratch = budget }
        var stack = FeatureStack()
        return run(experiment, featureId: nil, bandit: nil, stack: &stack, budget: &budget)
    }

    /// A full budget for one evaluation, with the attribute values read so far.
    ///
    /// The first evaluation of an evaluator keeps no values: one feature
    /// asked for (most requests) reads each attribute about once, and the
    /// table would cost more than it saves. From the second on they are kept.
    private mutating func takeBudget() -> EvaluationBudget {
        guard var budget = scratch else { return EvaluationBudget(steps: payload.limits.maxEvaluationSteps) }
        scratch = nil
        budget.renew(steps: payload.limits.maxEvaluationSteps)
        if budget.attributeValues.isEmpty, payload.attributePathCount > 0 {
            budget.attributeValues = Array(repeating: nil, count: payload.attributePathCount)
        }
        return budget
    }

    // MARK: - Effects

    mutating func track(_ exposure: @autoclosure () -> Exposure, keyOrdinal: Int = -1) {
        guard tracksExposures else { return }
        let exposure = exposure()
        let identity = exposure.identity
        // A few exposures (one feature asked for) are told apart in the set;
        // past those, the table by key ordinal is worth making.
        if keyOrdinal >= 0, keyOrdinal < payload.experimentKeyCount,
            !tracked.isEmpty || exposureList.count >= Self.exposuresBeforeTable
        {
            if tracked.isEmpty {
                tracked = Array(repeating: nil, count: payload.experimentKeyCount)
                exposureList.reserveCapacity(payload.experimentKeyCount)
            }
            if let first = tracked[keyOrdinal] {
                guard first != identity, trackedElsewhere.insert(identity).inserted else { return }
            } else {
                // The set holds those tracked before the table was made.
                guard !trackedElsewhere.contains(identity) else { return }
                tracked[keyOrdinal] = identity
            }
        } else {
            guard trackedElsewhere.insert(identity).inserted else { return }
        }
        exposureList.append(exposure)
    }

    static let exposuresBeforeTable = 8

    mutating func saveSticky(_ document: StickyAssignmentsDocument) {
        guard stickyDocuments != nil else { return }
        if !changedKeys.contains(document.key) { changedKeys.append(document.key) }
        stickyDocuments![document.key] = document
    }
}
