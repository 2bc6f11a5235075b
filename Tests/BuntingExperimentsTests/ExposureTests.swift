import BuntingJSON
import Testing
@testable import BuntingExperiments

/// Exposures follow GrowthBook's tracking rules: hash assignments only,
/// passthrough arms and prerequisite experiments included, each once.
@Suite struct ExposureTests {
    static let payload = GrowthBookPayload(features: [
        "button": [
            "defaultValue": "grey",
            "rules": [
                [
                    "key": "button-test", "variations": ["grey", "green"],
                    "meta": [["key": "control"], ["key": "green"]],
                    "hashAttribute": "id", "hashVersion": 2,
                ]
            ],
        ],
        "passthrough": [
            "defaultValue": "default",
            "rules": [
                [
                    "key": "holdout", "variations": ["held", "released"], "weights": [1, 0],
                    "meta": [["key": "held", "passthrough": true], ["key": "released"]],
                ],
                ["force": "after-passthrough"],
            ],
        ],
        "child": [
            "defaultValue": false,
            "rules": [
                [
                    "parentConditions": [["id": "button", "condition": ["value": ["$exists": true]]]], "force": true,
                ]
            ],
        ],
        "remote": [
            "rules": [
                [
                    "force": "from-proxy",
                    "tracks": [
                        [
                            "experiment": ["key": "remote-test"],
                            "result": ["variationId": 1, "key": "b", "hashAttribute": "id", "hashValue": "u1"],
                        ]
                    ],
                ]
            ]
        ],
    ])

    static func evaluator(_ context: EvaluationContext = EvaluationContext(attributes: ["id": "u1"]))
        -> GrowthBookEvaluator
    {
        GrowthBookEvaluator(payload: payload, context: context)
    }

    @Test func aHashAssignmentIsExposedOnce() {
        var evaluator = Self.evaluator()
        let result = evaluator.evaluateFeature("button")
        _ = evaluator.evaluateFeature("button")
        let exposures = evaluator.takeExposures()
        #expect(exposures.count == 1)
        let exposure = exposures[0]
        #expect(exposure.experimentKey == "button-test")
        #expect(exposure.variationId == result.experimentResult?.variationId)
        #expect(exposure.variationKey == result.experimentResult?.key)
        #expect(exposure.hashAttribute == "id")
        #expect(exposure.hashValue == "u1")
        #expect(exposure.featureId == "button")
        #expect(evaluator.takeExposures().isEmpty)
    }

    @Test func forcedAndOverriddenResultsAreNotExposed() {
        var forced = Self.evaluator(EvaluationContext(attributes: ["id": "u1"], forcedVariations: ["button-test": 1]))
        #expect(forced.evaluateFeature("button").value == "green")
        #expect(forced.takeExposures().isEmpty)
        var queried = Self.evaluator(
            EvaluationContext(attributes: ["id": "u1"], url: "https://shop.example/?button-test=0"))
        #expect(queried.evaluateFeature("button").value == "grey")
        #expect(queried.takeExposures().isEmpty)
        var overridden = Self.evaluator(EvaluationContext(attributes: ["id": "u1"], forcedFeatures: ["button": "red"]))
        #expect(overridden.evaluateFeature("button").source == .override)
        #expect(overridden.takeExposures().isEmpty)
    }

    @Test func passthroughArmsAndPrerequisiteExperimentsAreExposed() {
        var evaluator = Self.evaluator()
        #expect(evaluator.evaluateFeature("passthrough").value == "after-passthrough")
        #expect(evaluator.takeExposures().map(\.experimentKey) == ["holdout"])
        #expect(evaluator.evaluateFeature("child").value == true)
        #expect(evaluator.takeExposures().map(\.experimentKey) == ["button-test"])
    }

    @Test func aRemoteEvaluationsTracksAreExposed() {
        var evaluator = Self.evaluator()
        #expect(evaluator.evaluateFeature("remote").value == "from-proxy")
        let exposures = evaluator.takeExposures()
        #expect(exposures.map(\.experimentKey) == ["remote-test"])
        #expect(exposures.first?.variationKey == "b")
    }

    @Test func theDeduplicationKeyTellsExposuresApart() {
        let a = Exposure(
            experimentKey: "e", variationId: 1, variationKey: "1", hashAttribute: "id", hashValue: "u", featureId: nil)
        let b = Exposure(
            experimentKey: "e", variationId: 0, variationKey: "0", hashAttribute: "id", hashValue: "u", featureId: nil)
        let c = Exposure(
            experimentKey: "e", variationId: 1, variationKey: "1", hashAttribute: "id", hashValue: 5, featureId: nil)
        let d = Exposure(
            experimentKey: "e", variationId: 1, variationKey: "1", hashAttribute: "id", hashValue: "5", featureId: "f")
        #expect(Set([a, b, c].map(\.deduplicationKey)).count == 3)
        #expect(c.json["hashValue"] == 5)
        #expect(d.json["featureId"] == "f")
    }
}
