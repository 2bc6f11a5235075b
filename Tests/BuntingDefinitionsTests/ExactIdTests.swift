import BuntingCore
import BuntingJSON
import Testing
@testable import BuntingDefinitions

/// Ids are the bytes they are written with, as in JSON, flagd, GrowthBook and
/// Braze: `café` written precomposed (NFC) and decomposed (NFD) is two ids.
/// Swift's `String` calls the two equal, and keyed by it, `evaluateFlag`
/// answered with the other flag, a variant resolved to the other one, and a
/// card was dropped as "used twice".
struct ExactIdTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test func flagsVariantsCardsAndBannersWithCanonicallyEquivalentIdsAreTwo() throws {
        #expect(Self.composed == Self.decomposed, "the premise: Swift calls them equal")
        var variants = JSONObject()
        // More than eight variants: the names are hashed, not scanned.
        for index in 0..<9 { variants["v\(index)"] = .string("v\(index)") }
        variants[Self.composed] = "composed"
        variants[Self.decomposed] = "decomposed"
        let document: JSON = [
            "flags": [
                .init(stringLiteral: Self.composed): [
                    "state": "ENABLED", "variants": .object(variants), "defaultVariant": .string(Self.composed),
                ],
                .init(stringLiteral: Self.decomposed): [
                    "state": "ENABLED", "variants": .object(variants), "defaultVariant": .string(Self.decomposed),
                ],
            ],
            "contentCards": [
                ["id": .string(Self.composed), "type": "classic", "title": "one", "created": 1, "extras": [:]],
                ["id": .string(Self.decomposed), "type": "classic", "title": "two", "created": 2, "extras": [:]],
            ],
            "banners": [
                ["id": "b1", "placementId": .string(Self.composed), "html": "one", "priority": 1, "properties": [:]],
                ["id": "b2", "placementId": .string(Self.decomposed), "html": "two", "priority": 1, "properties": [:]],
            ],
        ]
        let definitions = try Definitions.load(document.encoded()).get()
        #expect(definitions.problems.isEmpty, "\(definitions.problems)")
        #expect(definitions.evaluateFlag(Self.composed, context: [:], type: nil, at: 0)["value"] == "composed")
        #expect(definitions.evaluateFlag(Self.decomposed, context: [:], type: nil, at: 0)["value"] == "decomposed")
        let subject = EvaluationSubject(targetingKey: "ada", attributes: [:])
        #expect(definitions.contentCards(for: subject, at: 10).count == 2)
        let banners = definitions.banners(for: subject, at: 10)
        #expect(banners.count == 2)
        #expect(banners[ExactString(Self.decomposed)]?.html == "two")
        #expect(definitions.placementIds.count == 2)
    }
}
