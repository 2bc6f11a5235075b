import BuntingJSON

extension GrowthBookEvaluator {
    /// `getStickyBucketVariation`: the variation a sticky document holds for
    /// the experiment's current bucket version (-1 for none, or one that is
    /// no longer a variation), and whether an assignment under a bucket
    /// version below `minBucketVersion` excludes the user.
    func stickyBucketVariation(_ experiment: ExperimentDefinition) -> (variation: Int, blocked: Bool) {
        let documents = stickyAssignmentDocuments(experiment)
        if experiment.minBucketVersion > 0, documents.contains(where: { hasBlockedVersion($0, experiment) }) {
            return (-1, true)
        }
        // The hash attribute's document wins over the fallback's, as in the SDK's merge.
        let key = Self.stickyKey(experiment.key, experiment.bucketVersion)
        guard let variationKey = documents.last(where: { $0[key] != nil })?[key] else { return (-1, false) }
        guard let meta = experiment.meta,
            let index = meta.firstIndex(where: {
                $0.key.map { JSValues.sameJSONText(.string($0), variationKey) } ?? false
            })
        else { return (-1, false) }
        return (index, false)
    }

    /// The fallback attribute's assignments, then the hash attribute's: the
    /// SDK merges them into one object (the hash attribute's win) at each
    /// evaluation; reading the two in that order gives the same answers
    /// without copying every assignment of both. Without a fallback attribute
    /// the SDK reads `id`'s document in its place (`getHashAttribute(ctx, undefined)`).
    private func stickyAssignmentDocuments(_ experiment: ExperimentDefinition) -> [JSONObject] {
        guard let documents = stickyDocuments else { return [] }
        var found: [JSONObject] = []
        let fallback = experiment.fallbackAttribute ?? "id"
        let fallbackValue = HashAttribute.value(of: fallback, in: context.attributes)
        if JSValues.isTruthy(fallbackValue),
            let document = documents[
                StickyAssignmentsDocument.key(
                    attributeName: fallback, attributeValue: HashAttribute.stickyValue(fallbackValue))]
        {
            found.append(document.assignments)
        }
        let value = HashAttribute.value(of: experiment.hashAttribute, in: context.attributes)
        if let document = documents[
            StickyAssignmentsDocument.key(
                attributeName: experiment.hashAttribute, attributeValue: HashAttribute.stickyValue(value))]
        {
            found.append(document.assignments)
        }
        return found
    }

    /// Whether an assignment exists under a bucket version 0…minBucketVersion−1.
    /// Reads the assignments' keys rather than counting up to the minimum,
    /// which a payload may set as high as it likes.
    private func hasBlockedVersion(_ assignments: JSONObject, _ experiment: ExperimentDefinition) -> Bool {
        let prefix = experiment.key + "__"
        for (key, _) in assignments where key.hasPrefix(prefix) {
            let version = key.utf8.dropFirst(prefix.utf8.count)
            guard !version.isEmpty, version.count <= 15, version.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                version.first != 0x30 || version.count == 1,
                let number = Double(String(decoding: version, as: UTF8.self))
            else { continue }
            if number < experiment.minBucketVersion { return true }
        }
        return false
    }
}
