import BuntingCrypto
import BuntingJSON
import Testing
@testable import BuntingExperiments

/// Loading payloads: recognising one, a broken feature costing that feature
/// only (with its pointer), encrypted sections, Bunting's own `features` section.
@Suite struct PayloadTests {
    @Test func aPayloadIsRecognisedByItsTopLevelKeys() {
        #expect(GrowthBookPayload.isPayload(topLevelKeys: ["features", "dateUpdated"]))
        #expect(
            GrowthBookPayload.isPayload(topLevelKeys: [
                "status", "features", "experiments", "savedGroups", "contextualBandits",
            ]))
        #expect(GrowthBookPayload.isPayload(topLevelKeys: ["encryptedFeatures", "features"]))
        #expect(
            !GrowthBookPayload.isPayload(topLevelKeys: ["flags", "features"]),
            "Bunting's document with a features section")
        #expect(!GrowthBookPayload.isPayload(topLevelKeys: ["channels", "banners"]))
        #expect(!GrowthBookPayload.isPayload(topLevelKeys: ["dateUpdated"]))
    }

    @Test func aBrokenFeatureCostsThatFeatureOnly() throws {
        let payload = try GrowthBookPayload(
            document: json(
                """
                {"features": {
                  "good": {"defaultValue": 1, "rules": [{"condition": {"tier": "gold"}, "force": 2}]},
                  "bad-rules": {"defaultValue": 1, "rules": {"force": 2}},
                  "bad-weights": {"rules": [{"variations": [1, 2], "weights": [0.5, "half"]}]},
                  "bad-parent": {"rules": [{"parentConditions": [{"condition": {}}], "force": 1}]},
                  "not-an-object": 5
                },
                "savedGroups": {"g": "not a list"}}
                """))
        #expect(payload.featureKeys == ["good", "bad-rules", "bad-weights", "bad-parent", "not-an-object"])
        #expect(payload.brokenFeatureKeys == ["bad-rules", "bad-weights", "bad-parent", "not-an-object"])
        let pointers = payload.problems.map(\.pointer.description)
        #expect(
            pointers == [
                "/savedGroups/g", "/features/bad-rules/rules", "/features/bad-weights/rules/0/weights/1",
                "/features/bad-parent/rules/0/parentConditions/0/id", "/features/not-an-object",
            ])
        var evaluator = GrowthBookEvaluator(payload: payload, context: EvaluationContext(attributes: ["tier": "gold"]))
        #expect(evaluator.evaluateFeature("good").value == 2)
        #expect(evaluator.evaluateFeature("bad-rules").source == .unknownFeature)
    }

    @Test func whatCannotBeReadAtAllRefusesThePayload() {
        #expect(throws: PayloadProblem.self) { try GrowthBookPayload(document: json("[1]")) }
        #expect(throws: PayloadProblem.self) { try GrowthBookPayload(document: json(#"{"features": [1]}"#)) }
        #expect(throws: PayloadProblem.self) { try GrowthBookPayload(text: Array("{\"features\":".utf8)) }
    }

    /// Bunting's own document may hold a `features` section: the same
    /// semantics, pointers below the document's root.
    @Test func aFeaturesSectionHasPayloadSemantics() {
        let document = json(
            """
            {"flags": {}, "features": {"f": {"defaultValue": "x", "rules": [{"force": "y", "coverage": "all"}]}, "g": {"defaultValue": true}}}
            """)
        let section = GrowthBookPayload(features: document["features"], at: .root)
        #expect(section.problems.map(\.pointer.description) == ["/features/f/rules/0/coverage"])
        var evaluator = GrowthBookEvaluator(payload: section, context: EvaluationContext())
        #expect(evaluator.evaluateFeature("g").on)
        #expect(evaluator.evaluateFeature("f").source == .unknownFeature)
    }

    static let key = Base64.encode(Array(0..<16))

    static func encrypted(_ plaintext: String, key: String = key) throws -> String {
        let iv: [UInt8] = (0..<16).map { UInt8(200 - $0) }
        let cipherText = try AESCBC.encrypt(plaintext: Array(plaintext.utf8), key: try Base64.decode(key), iv: iv)
        return Base64.encode(iv) + "." + Base64.encode(cipherText)
    }

    @Test func encryptedSectionsDecryptIntoThePlainOnes() throws {
        let document: JSON = [
            "features": [:],
            "encryptedFeatures": .string(
                try Self.encrypted(
                    #"{"f": {"defaultValue": 7}, "g": {"rules": [{"condition": {"id": {"$inGroup": "vip"}}, "force": 1}]}}"#
                )),
            "encryptedSavedGroups": .string(try Self.encrypted(#"{"vip": ["ada"]}"#)),
        ]
        let payload = try GrowthBookPayload(document: document, decryptionKey: Self.key)
        #expect(payload.problems.isEmpty)
        var evaluator = GrowthBookEvaluator(payload: payload, context: EvaluationContext(attributes: ["id": "ada"]))
        #expect(evaluator.evaluateFeature("f").value == 7)
        #expect(evaluator.evaluateFeature("g").value == 1)

        let wrongKey = Base64.encode(Array(repeating: 9, count: 16))
        let refused = try GrowthBookPayload(document: document, decryptionKey: wrongKey)
        #expect(refused.featureKeys.isEmpty)
        #expect(refused.problems.map(\.pointer.description) == ["/encryptedFeatures", "/encryptedSavedGroups"])
        let keyless = try GrowthBookPayload(document: document)
        #expect(
            keyless.problems.map(\.message)
                == Array(repeating: "encrypted, and no decryption key was given", count: 2))
    }
}
