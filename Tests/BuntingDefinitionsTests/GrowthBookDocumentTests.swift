import BuntingCore
import BuntingJSON
import Testing
@testable import BuntingDefinitions

/// GrowthBook payloads as definitions documents, and `features` sections in
/// Bunting's own: recognised by their shape, encrypted ones decrypted, a
/// broken feature costing that feature only, and a key of both a problem.
struct GrowthBookDocumentTests {
    static let payload = """
        {"features": {
          "checkout-button": {"defaultValue": "blue", "rules": [{"key": "checkout-test", "variations": ["blue", "green"],
                              "weights": [0.5, 0.5], "meta": [{"key": "control"}, {"key": "treatment"}]}]},
          "banner-text": {"defaultValue": {"text": "Welcome", "size": 2}},
          "broken": {"rules": "not a list"}},
         "savedGroups": {"testers": ["ada"]}}
        """

    @Test func aPayloadIsADocumentAndABrokenFeatureCostsOnlyItself() throws {
        let definitions = try Definitions.load(Array(Self.payload.utf8)).get()
        #expect(definitions.featureKeys == ["checkout-button", "banner-text", "broken"])
        #expect(definitions.problems.map(\.pointer) == ["/features/broken/rules"])
        #expect(definitions.problems.first?.line == 5)
        let evaluation = definitions.evaluateFeatures(
            attributes: ["id": "ada"], keys: nil, sticky: nil, listing: true, tracking: true, at: 0)
        // The broken feature evaluates as an unknown one: not listed.
        #expect(evaluation.flags.map(\.id) == ["checkout-button", "banner-text"])
        // Without listing, the same results and exposures, and no flags made.
        let unlisted = definitions.evaluateFeatures(
            attributes: ["id": "ada"], keys: nil, sticky: nil, listing: false, tracking: true, at: 0)
        #expect(unlisted.flags.isEmpty && unlisted.exposures == evaluation.exposures)
        #expect(unlisted.results.map(\.result) == evaluation.results.map(\.result))
        let banner = try #require(evaluation.flags.first { $0.id == "banner-text" })
        #expect(
            banner.enabled
                && banner.properties == [
                    "text": ["type": "string", "value": "Welcome"], "size": ["type": "number", "value": 2],
                ])
        let checkout = try #require(evaluation.flags.first { $0.id == "checkout-button" })
        #expect(checkout.metadata["experiment"]?["experimentKey"] == "checkout-test")
        #expect(evaluation.exposures.count == 1 && evaluation.exposures[0].hashValue == "ada")
        // Strict: the broken feature refuses the payload.
        guard case .failure = Definitions.load(Array(Self.payload.utf8), strict: true) else {
            Issue.record("a strict load accepted a payload with a broken feature")
            return
        }
    }

    @Test func anEncryptedPayloadLoadsWithItsKeyAndIsRefusedWithoutIt() throws {
        let encrypted = """
            {"features": {}, "encryptedFeatures": "tDwPJBDcPEPF/NjfJ23Asw==.SSumD9SPzruyAJTkHCRAVkOLc0rW5EC78cOp8xpAePgzjvN0fHPEXrIEPHzxuf6sf6l0tLvEkB+DlSTQebEkPSYcH4iumgFPXFSTqq3DBvKQAXvg/T4gugnKEp0UxuTVbQjqBDCkVKpRRJUMAMJZRg=="}
            """
        let definitions = try Definitions.load(Array(encrypted.utf8), decryptionKey: "BouFvhNODCt2XtwVr5IV4w==").get()
        let french = definitions.evaluateFeatures(
            attributes: ["country": "FR"], keys: ["greeting"], sticky: nil, listing: false, tracking: true, at: 0)
        #expect(french.results.first?.result.value["value"] == "bonjour")
        let wrongKey = Definitions.load(Array(encrypted.utf8), decryptionKey: "AAAAAAAAAAAAAAAAAAAAAA==")
        let noKey = Definitions.load(Array(encrypted.utf8))
        // Without a usable key the document is refused, with the section's pointer: the previous one goes on serving.
        for refused in [wrongKey, noKey] {
            guard case .failure(let problems) = refused else {
                Issue.record("a payload whose features cannot be decrypted was accepted")
                continue
            }
            #expect(problems.problems.map(\.pointer) == ["/encryptedFeatures"])
        }
    }

    @Test func aFeaturesSectionServesBesideFlagsAndAKeyOfBothIsAProblem() throws {
        let document = """
            {"flags": {"shared": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}},
             "features": {"shared": {"defaultValue": false}, "new-nav": {"defaultValue": true}}}
            """
        let definitions = try Definitions.load(Array(document.utf8)).get()
        #expect(definitions.problems.map(\.pointer) == ["/features/shared"])
        let flags =
            definitions.featureFlags(for: EvaluationSubject(targetingKey: "ada", attributes: [:]), at: 0)
            + definitions.evaluateFeatures(
                attributes: ["id": "ada"], keys: nil, sticky: nil, listing: true, tracking: true, at: 0
            )
            .flags
        #expect(flags.map(\.id) == ["shared", "new-nav"])
        #expect(flags.first?.enabled == true, "the flag of the shared key is the one used")
        // evaluateFlag answers a feature's key as flagd would answer a flag's.
        #expect(
            definitions.evaluateFlag("new-nav", context: ["targetingKey": "ada"], type: .boolean, at: 0)["value"]
                == true)
        #expect(definitions.evaluateFlag("new-nav", context: [:], type: .string, at: 0)["errorCode"] == "TYPE_MISMATCH")
    }

    @Test func conditionsUseTheDocumentsSavedGroupsUnlessGivenTheirOwn() throws {
        let definitions = try Definitions.load(Array(Self.payload.utf8)).get()
        let inGroup: JSON = ["id": ["$inGroup": "testers"]]
        #expect(try definitions.evaluateCondition(inGroup, attributes: ["id": "ada"], savedGroups: nil).get())
        #expect(
            try !definitions.evaluateCondition(inGroup, attributes: ["id": "ada"], savedGroups: ["testers": ["bo"]])
                .get())
        // A pattern past the length limit is refused, not evaluated.
        let longPattern: JSON = ["name": ["$regex": .string(String(repeating: "a", count: 2_000))]]
        guard case .failure = definitions.evaluateCondition(longPattern, attributes: [:], savedGroups: nil) else {
            Issue.record("an unreadable condition was evaluated")
            return
        }
    }
}
