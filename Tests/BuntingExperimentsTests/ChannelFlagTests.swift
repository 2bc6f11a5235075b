import BuntingJSON
import Testing
@testable import BuntingExperiments

/// The featureFlags channel's view of a GrowthBook feature.
@Suite struct ChannelFlagTests {
    @Test func anObjectValueBecomesTypedPropertiesWithItsAssignment() {
        let payload = GrowthBookPayload(features: [
            "checkout": [
                "rules": [
                    [
                        "key": "checkout-test",
                        "variations": [
                            [
                                "color": "green", "size": 2, "rounded": true, "style": ["border": 1], "tags": ["a"],
                                "note": nil,
                            ],
                            ["color": "blue", "size": 3, "rounded": false, "style": [:], "tags": [], "note": nil],
                        ],
                        "meta": [["key": "green"], ["key": "blue"]],
                    ]
                ]
            ],
            "off": ["defaultValue": 0],
        ])
        var evaluator = GrowthBookEvaluator(payload: payload, context: EvaluationContext(attributes: ["id": "ada"]))
        let result = evaluator.evaluateFeature("checkout")
        let flag = ChannelFlag(result)
        #expect(flag.id == "checkout")
        #expect(flag.enabled)
        #expect(Array(flag.properties.keys) == ["color", "size", "rounded", "style"])
        #expect(flag.properties["color"]?["type"] == "string")
        #expect(flag.properties["size"]?["type"] == "number")
        #expect(flag.properties["rounded"]?["type"] == "boolean")
        #expect(flag.properties["style"]?["type"] == "jsonobject")
        #expect(flag.properties["color"]?["value"] == result.value["color"])
        #expect(flag.assignment?.experimentKey == "checkout-test")
        #expect(flag.assignment?.variationKey == result.experimentResult?.key)
        #expect(flag.assignment?.inExperiment == true)

        let off = ChannelFlag(evaluator.evaluateFeature("off"))
        #expect(!off.enabled)
        #expect(off.properties.isEmpty)
        #expect(off.assignment == nil)
        #expect(!ChannelFlag(evaluator.evaluateFeature("missing")).enabled)
    }
}
