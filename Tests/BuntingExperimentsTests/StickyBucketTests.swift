import BuntingJSON
import Testing
@testable import BuntingExperiments

/// Sticky bucketing: a user keeps the arm they had when the weights change,
/// until the bucket version moves; `minBucketVersion` excludes users of old
/// versions; the fallback attribute's document serves until the hash
/// attribute has one.
@Suite struct StickyBucketTests {
    static func payload(weights: [Double], bucketVersion: Int = 0, minBucketVersion: Int = 0) -> GrowthBookPayload {
        GrowthBookPayload(features: [
            "checkout": [
                "defaultValue": "old",
                "rules": [
                    [
                        "key": "checkout-test", "variations": ["old", "new"],
                        "weights": .array(weights.map { .real($0) }),
                        "meta": [["key": "control"], ["key": "treatment"]], "hashAttribute": "id",
                        "fallbackAttribute": "deviceId",
                        "bucketVersion": .int(bucketVersion), "minBucketVersion": .int(minBucketVersion),
                    ]
                ],
            ]
        ])
    }

    static func evaluate(
        _ payload: GrowthBookPayload, user: Int, store: inout InMemoryStickyBucketStore, sticky: Bool = true
    ) -> FeatureResult {
        let attributes: JSON = ["id": .string("user-\(user)")]
        var evaluator = GrowthBookEvaluator(
            payload: payload, context: EvaluationContext(attributes: attributes),
            stickyDocuments: sticky ? store.documents(for: payload, attributes: attributes) : nil)
        let result = evaluator.evaluateFeature("checkout")
        store.save(evaluator.takeChangedStickyDocuments())
        return result
    }

    /// 1,000 users at 50/50, then the weights go to 10/90: every user stays
    /// in their arm; without sticky bucketing about 40% would move.
    @Test func usersKeepTheirArmWhenWeightsChange() {
        var store = InMemoryStickyBucketStore()
        let before = Self.payload(weights: [0.5, 0.5])
        let arms = (0..<1_000).map { Self.evaluate(before, user: $0, store: &store).value }
        #expect(store.documents.count == 1_000)
        let treated = arms.filter { $0 == "new" }.count
        #expect(treated > 400 && treated < 600, "50/50: \(treated) of 1,000 treated")

        // The store as the engine would reload it after a restart: documents only.
        var reloaded = InMemoryStickyBucketStore(Array(store.documents.values))
        let after = Self.payload(weights: [0.1, 0.9])
        var kept = 0
        var moved = 0
        for user in 0..<1_000 {
            let result = Self.evaluate(after, user: user, store: &reloaded)
            if result.value == arms[user] { kept += 1 }
            #expect(result.experimentResult?.stickyBucketUsed == true)
            var unused = InMemoryStickyBucketStore()
            if Self.evaluate(after, user: user, store: &unused, sticky: false).value != arms[user] { moved += 1 }
        }
        #expect(kept == 1_000)
        #expect(moved > 250, "without sticky bucketing \(moved) of 1,000 change arms")
        #expect(reloaded.documents == store.documents, "nothing new to save")
    }

    @Test func aNewBucketVersionRebucketsAndMinBucketVersionExcludes() {
        var store = InMemoryStickyBucketStore()
        let first = Self.payload(weights: [0.5, 0.5])
        for user in 0..<200 { _ = Self.evaluate(first, user: user, store: &store) }
        // Version 1 at 0/100: everyone re-bucketed into treatment, both versions remembered.
        let second = Self.payload(weights: [0, 1], bucketVersion: 1)
        for user in 0..<200 {
            let result = Self.evaluate(second, user: user, store: &store)
            #expect(result.value == "new")
            #expect(result.experimentResult?.stickyBucketUsed == false)
        }
        let document = store.document(attributeName: "id", attributeValue: "user-7")
        #expect(document?.variationKey(for: "checkout-test__1") == "treatment")
        #expect(document?.variationKey(for: "checkout-test__0") != nil)
        // minBucketVersion 1: users with a version-0 assignment are out.
        let third = Self.payload(weights: [0.5, 0.5], bucketVersion: 1, minBucketVersion: 1)
        let excluded = Self.evaluate(third, user: 7, store: &store)
        #expect(excluded.source == .defaultValue)
        var fresh = InMemoryStickyBucketStore()
        #expect(Self.evaluate(third, user: 7, store: &fresh).source == .experiment)
    }

    /// An anonymous user is bucketed by device; once logged in, the device's
    /// assignment still holds and is saved under the user id.
    @Test func theFallbackAttributeCarriesAnAssignmentToTheHashAttribute() {
        let payload = Self.payload(weights: [0.5, 0.5])
        var store = InMemoryStickyBucketStore()
        let anonymous: JSON = ["deviceId": "device-1"]
        var evaluator = GrowthBookEvaluator(
            payload: payload, context: EvaluationContext(attributes: anonymous),
            stickyDocuments: store.documents(for: payload, attributes: anonymous))
        let first = evaluator.evaluateFeature("checkout")
        #expect(first.experimentResult?.hashAttribute == "deviceId")
        store.save(evaluator.takeChangedStickyDocuments())

        let loggedIn: JSON = ["id": "user-1", "deviceId": "device-1"]
        let docs = store.documents(for: payload, attributes: loggedIn)
        evaluator = GrowthBookEvaluator(
            payload: payload, context: EvaluationContext(attributes: loggedIn), stickyDocuments: docs)
        let second = evaluator.evaluateFeature("checkout")
        #expect(second.value == first.value)
        #expect(second.experimentResult?.hashAttribute == "id")
        #expect(second.experimentResult?.stickyBucketUsed == true)
        let saved = evaluator.takeChangedStickyDocuments()
        #expect(saved.map(\.key) == ["id||user-1"])
    }

    @Test func disableStickyBucketingIgnoresDocuments() {
        let payload = GrowthBookPayload(features: [
            "f": [
                "rules": [
                    [
                        "key": "e", "variations": [0, 1], "meta": [["key": "a"], ["key": "b"]], "weights": [0, 1],
                        "disableStickyBucketing": true,
                    ]
                ]
            ]
        ])
        let store = InMemoryStickyBucketStore([
            StickyAssignmentsDocument(attributeName: "id", attributeValue: "u", assignments: ["e__0": "a"])
        ])
        var evaluator = GrowthBookEvaluator(
            payload: payload, context: EvaluationContext(attributes: ["id": "u"]),
            stickyDocuments: store.documents(for: payload, attributes: ["id": "u"]))
        #expect(evaluator.evaluateFeature("f").value == 1)
        #expect(evaluator.takeChangedStickyDocuments().isEmpty)
    }
}
