import BuntingJSON

/// A contextual bandit rule's weights for this user: the first leaf whose
/// condition the user passes, or the rule's own weights (leaf -1).
struct BanditPlan {
    let assignment: BanditAssignment
    /// The leaf's weights as the payload wrote them (nil for the fallback).
    let leafWeightsJSON: JSON?
    let weights: [Double]?
}

extension GrowthBookEvaluator {
    /// `runExperiment(experiment, featureId)`.
    mutating func run(
        _ experiment: ExperimentDefinition, featureId: String?, bandit: BanditPlan?, stack: inout FeatureStack,
        budget: inout EvaluationBudget
    ) -> ExperimentResult {
        let count = experiment.variations.count
        guard count >= 2, context.enabled else { return outOf(experiment, featureId) }
        if let forced = QueryStringOverride.variation(
            experimentKey: experiment.key, url: context.url, variationCount: count)
        {
            return result(experiment, forced, hashUsed: false, featureId: featureId)
        }
        if let forced = context.forcedVariation(experiment.key) {
            return result(experiment, forced, hashUsed: false, featureId: featureId)
        }
        if experiment.inactive { return outOf(experiment, featureId) }

        let sticky = stickyBucketing && !experiment.disableStickyBucketing
        let (hashAttribute, hashValue) = HashAttribute.resolve(
            experiment.hashAttribute, fallback: sticky ? experiment.fallbackAttribute : nil, in: context.attributes)
        guard JSValues.isTruthy(hashValue) else { return outOf(experiment, featureId) }

        var assigned = -1
        var foundStickyBucket = false
        var versionIsBlocked = false
        if sticky {
            (assigned, versionIsBlocked) = stickyBucketVariation(experiment)
            foundStickyBucket = assigned >= 0
        }
        if !foundStickyBucket {
            if let filters = experiment.filters {
                if isFilteredOut(filters) { return outOf(experiment, featureId) }
            } else if let namespace = experiment.namespace, !Bucketing.inNamespace(hashValue, namespace) {
                return outOf(experiment, featureId)
            }
            if let condition = experiment.condition, !condition.passes(attributes: context.attributes, &budget) {
                return outOf(experiment, featureId)
            }
            if let parents = experiment.parentConditions {
                for parent in parents {
                    let parentResult = evaluateFeature(parent.featureIndex, parent.id, stack: &stack, budget: &budget)
                    if parentResult.source == .cyclicPrerequisite { return outOf(experiment, featureId) }
                    if !parent.condition.passes(["value": parentResult.value], &budget) {
                        return outOf(experiment, featureId)
                    }
                }
            }
        }

        guard let n = Bucketing.hash(seed: experiment.seed, value: hashValue, version: experiment.hashVersion)
        else { return outOf(experiment, featureId) }
        if !foundStickyBucket {
            let ranges =
                experiment.ranges == nil && bandit?.weights != nil
                ? Bucketing.bucketRanges(count: count, coverage: experiment.coverage ?? 1, weights: bandit?.weights)
                : experiment.bucketRanges
            assigned = Bucketing.chooseVariation(n, ranges: ranges)
        }
        if versionIsBlocked {
            return result(experiment, -1, hashUsed: false, featureId: featureId, stickyBucketUsed: true)
        }
        if assigned < 0 { return outOf(experiment, featureId) }
        if let force = experiment.force {
            return result(experiment, force ?? -1, hashUsed: false, featureId: featureId)
        }
        if context.qaMode || experiment.stopped { return outOf(experiment, featureId) }

        let outcome = result(
            experiment, assigned, hashUsed: true, featureId: featureId, bucket: n, stickyBucketUsed: foundStickyBucket,
            bandit: experiment.ranges == nil ? bandit?.assignment : nil, hash: (hashAttribute, hashValue))
        if sticky {
            let key = HashAttribute.stickyValue(hashValue)
            var document =
                stickyDocuments?[StickyAssignmentsDocument.key(attributeName: hashAttribute, attributeValue: key)]
                ?? StickyAssignmentsDocument(attributeName: hashAttribute, attributeValue: key)
            if document.assign(Self.stickyKey(experiment.key, experiment.bucketVersion), variationKey: outcome.key) {
                saveSticky(document)
            }
        }
        track(
            Exposure(
                experimentKey: experiment.key, variationId: outcome.variationId, variationKey: outcome.key,
                hashAttribute: outcome.hashAttribute, hashValue: outcome.hashValue, featureId: featureId),
            keyOrdinal: experiment.keyOrdinal)
        return outcome
    }

    /// Not in the experiment: variation 0's value. (A method, not a local
    /// function: one would capture, and so copy, the evaluator.)
    private func outOf(_ experiment: ExperimentDefinition, _ featureId: String?) -> ExperimentResult {
        result(experiment, -1, hashUsed: false, featureId: featureId)
    }

    /// `getExperimentResult`: an index outside the variations means variation
    /// 0, not in the experiment.
    private func result(
        _ experiment: ExperimentDefinition, _ index: Int, hashUsed: Bool, featureId: String?, bucket: Double? = nil,
        stickyBucketUsed: Bool = false, bandit: BanditAssignment? = nil, hash: (String, JSON)? = nil
    ) -> ExperimentResult {
        var variation = index
        var inExperiment = true
        if variation < 0 || variation >= experiment.variations.count {
            variation = 0
            inExperiment = false
        }
        let sticky = stickyBucketing && !experiment.disableStickyBucketing
        let (hashAttribute, hashValue) =
            hash
            ?? HashAttribute.resolve(
                experiment.hashAttribute, fallback: sticky ? experiment.fallbackAttribute : nil, in: context.attributes)
        let meta = experiment.meta(at: variation)
        return ExperimentResult(
            inExperiment: inExperiment, variationId: variation,
            value: variation < experiment.variations.count ? experiment.variations[variation] : .null,
            hashUsed: hashUsed,
            hashAttribute: hashAttribute, hashValue: hashValue, featureId: featureId,
            key: meta?.key ?? String(variation),
            stickyBucketUsed: stickyBucketUsed, bucket: bucket, name: meta?.name, passthrough: meta?.passthrough,
            bandit: hashUsed && inExperiment ? bandit : nil, definition: experiment)
    }

    /// The weights a contextual bandit gives this user; nil for a reference
    /// the payload has no bandit for (the rule then runs as a plain experiment).
    mutating func banditAssignment(
        _ reference: String, experiment: ExperimentDefinition, budget: inout EvaluationBudget
    ) -> BanditPlan? {
        guard let bandit = payload.bandit(reference) else { return nil }
        let count = experiment.variations.count
        for leaf in bandit.leaves where leaf.condition.passes(attributes: context.attributes, &budget) {
            guard let id = leaf.id, let weights = leaf.weights, let json = leaf.weightsJSON,
                Self.isUsable(weights, count: count)
            else {
                break
            }
            return BanditPlan(
                assignment: BanditAssignment(
                    leafId: id, variationWeights: weights, variationWeightsJSON: json, banditVersion: bandit.version),
                leafWeightsJSON: json, weights: weights)
        }
        // No leaf (or a malformed one): the rule's weights, as bucketing will use them.
        let weights =
            experiment.weights.flatMap { Self.isUsable($0, count: count) ? $0 : nil } ?? Bucketing.equalWeights(count)
        return BanditPlan(
            assignment: BanditAssignment(
                leafId: -1, variationWeights: weights, variationWeightsJSON: .array(weights.map { .number($0) }),
                banditVersion: bandit.version),
            leafWeightsJSON: nil, weights: nil)
    }

    /// Weights bucketing uses as they are: one per variation, summing to 1 within 0.01.
    static func isUsable(_ weights: [Double], count: Int) -> Bool {
        guard weights.count == count else { return false }
        let total = weights.reduce(0, +)
        return total >= 0.99 && total <= 1.01
    }

    static func stickyKey(_ experimentKey: String, _ bucketVersion: Double) -> String {
        "\(experimentKey)__\(JSValues.string(bucketVersion))"
    }
}
