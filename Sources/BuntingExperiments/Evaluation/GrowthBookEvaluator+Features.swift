import BuntingJSON

extension GrowthBookEvaluator {
    /// `evalFeature(id)` of the feature at `index` (nil: one the payload
    /// does not have); `stack` holds the features being evaluated above this
    /// one (prerequisites), for cycle detection. Each evaluation pushes its
    /// feature and pops it on return, which leaves every prerequisite the
    /// stack the SDK gives it (a copy of its child's).
    mutating func evaluateFeature(
        _ index: Int?, _ key: String, stack: inout FeatureStack, budget: inout EvaluationBudget
    ) -> FeatureResult {
        if let index, stack.contains(index) { return result(key, .null, .cyclicPrerequisite) }
        if !context.forcedFeatures.isEmpty, let forced = context.forcedFeature(key) {
            return result(key, forced, .override)
        }
        guard let index, let feature = payload.features[index] else { return result(key, .null, .unknownFeature) }
        // Prerequisites recurse: a chain deeper than the limit fails closed.
        guard stack.count < payload.limits.maxPrerequisiteDepth else {
            budget.markExhausted()
            return result(key, feature.defaultValue, .defaultValue, fixed: feature.defaultText)
        }
        guard budget.take() else { return result(key, feature.defaultValue, .defaultValue, fixed: feature.defaultText) }
        stack.push(index)
        defer { stack.pop() }

        rules: for rule in feature.rules {
            guard budget.take() else { break }
            if let parents = rule.parentConditions {
                for parent in parents {
                    let parentResult = evaluateFeature(parent.featureIndex, parent.id, stack: &stack, budget: &budget)
                    if parentResult.source == .cyclicPrerequisite { return result(key, .null, .cyclicPrerequisite) }
                    let tested: JSON = ["value": parentResult.value]
                    if !parent.condition.passes(tested, &budget) {
                        if parent.gate { return result(key, .null, .prerequisite) }
                        continue rules
                    }
                }
            }
            if let filters = rule.filters, isFilteredOut(filters) { continue }
            switch rule.action {
            case .skip:
                continue
            case .force(let force):
                if let condition = force.condition, !condition.passes(attributes: context.attributes, &budget) {
                    continue
                }
                let fallback = stickyBucketing && !force.disableStickyBucketing ? force.fallbackAttribute : nil
                guard
                    isIncludedInRollout(
                        seed: force.seed ?? key, hashAttribute: force.hashAttribute ?? "id", fallback: fallback,
                        range: force.range,
                        coverage: force.coverage, hashVersion: force.hashVersion)
                else { continue }
                for (exposure, ordinal) in force.tracks { track(exposure, keyOrdinal: ordinal) }
                return result(key, force.value, .force, ruleId: rule.id, fixed: force.text)
            case .experiment(let experiment):
                let bandit = experiment.banditReference.flatMap {
                    banditAssignment($0, experiment: experiment, budget: &budget)
                }
                let outcome = run(experiment, featureId: key, bandit: bandit, stack: &stack, budget: &budget)
                if outcome.inExperiment && outcome.passthrough == nil {
                    return FeatureResult(
                        key: key, value: outcome.value, source: .experiment, ruleId: rule.id,
                        experiment: experimentJSON(experiment, bandit: bandit, shown: outcome.bandit != nil),
                        experimentResult: outcome,
                        unchangedExperiment: bandit == nil ? experiment : nil, exhaustedBudget: false, fixedText: nil)
                }
            }
        }
        return result(key, feature.defaultValue, .defaultValue, fixed: feature.defaultText)
    }

    private func result(
        _ key: String, _ value: JSON, _ source: FeatureSource, ruleId: String = "", fixed: FixedResultText? = nil
    ) -> FeatureResult {
        FeatureResult(
            key: key, value: value, source: source, ruleId: ruleId, experiment: nil, experimentResult: nil,
            unchangedExperiment: nil, exhaustedBudget: false, fixedText: fixed)
    }

    /// The experiment as the result shows it: a bandit's leaf weights in
    /// place of the rule's, and its assignment when the user was hashed into it.
    private func experimentJSON(_ experiment: ExperimentDefinition, bandit: BanditPlan?, shown: Bool) -> JSONObject {
        guard let bandit else { return experiment.json }
        var json = experiment.json
        if let weights = bandit.leafWeightsJSON { json["weights"] = weights }
        if shown { json["contextualBandit"] = bandit.assignment.json }
        return json
    }

    /// `isFilteredOut`: a filter the user's hash falls outside of (or who has no hash value).
    func isFilteredOut(_ filters: [Filter]) -> Bool {
        for filter in filters {
            let value = HashAttribute.value(of: filter.attribute ?? "id", in: context.attributes)
            guard JSValues.isTruthy(value),
                let n = Bucketing.hash(seed: filter.seed, value: value, version: filter.hashVersion)
            else { return true }
            if !filter.ranges.contains(where: { $0.contains(n) }) { return true }
        }
        return false
    }

    /// `isIncludedInRollout`: range wins over coverage, which is inclusive.
    private func isIncludedInRollout(
        seed: String, hashAttribute: String, fallback: String?, range: BucketRange?, coverage: Double?,
        hashVersion: Double
    ) -> Bool {
        if range == nil && coverage == nil { return true }
        if range == nil && coverage == 0 { return false }
        let (_, value) = HashAttribute.resolve(hashAttribute, fallback: fallback, in: context.attributes)
        guard JSValues.isTruthy(value),
            let n = Bucketing.hash(seed: seed, value: value, version: hashVersion)
        else { return false }
        if let range { return range.contains(n) }
        if let coverage { return n <= coverage }
        return true
    }
}
