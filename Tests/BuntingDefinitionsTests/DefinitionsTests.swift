import BuntingCore
import BuntingDefinitions
import BuntingJSON
import Foundation
import Testing

func load(_ text: String) throws -> Definitions {
    try Definitions.load(Array(text.utf8)).get()
}

/// A document's problems: why it was refused, or what is wrong in it though it loaded.
func problems(_ text: String) -> [DefinitionsProblem] {
    switch Definitions.load(Array(text.utf8)) {
    case .failure(let failure): failure.problems
    case .success(let definitions): definitions.problems
    }
}

func user(_ key: String, _ attributes: JSONObject = [:]) -> EvaluationSubject {
    EvaluationSubject(targetingKey: key, attributes: attributes)
}

let now = 1_800_000_000.0

@Suite struct DefinitionsLoadingTests {
    @Test func theExampleLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let bytes = try Data(contentsOf: root.appendingPathComponent("examples/definitions/bunting.json"))
        let definitions = try Definitions.load(Array(bytes)).get()
        #expect(definitions.placementIds == ["home-top", "cart-footer"])
        let gold = user("ada", ["tier": "gold", "cartValue": 30, "openOrders": 1])
        let banners = definitions.banners(for: gold, at: 1_764_600_000)
        #expect(banners["home-top"]?.id == "home-gold-upsell")
        #expect(banners["cart-footer"]?.id == "cart-free-shipping")
        let cards = definitions.contentCards(for: gold, at: 1_764_600_000).map(\.id)
        #expect(cards.contains("promo-gold-image") && cards.contains("inbox-order-shipped"))
        let flags = definitions.featureFlags(for: gold, at: 1_764_600_000)
        #expect(flags.first { $0.id == "new-checkout" }?.enabled == true)
        #expect(flags.first { $0.id == "new-checkout" }?.trackingString == "checkout-2026-on")
        #expect(!flags.contains { $0.id == "legacy-export" }) // disabled
        #expect(!flags.contains { $0.id == "welcome-copy" }) // a string flag is for evaluateFlag only
    }

    @Test func aDocumentWithoutFlagsIsValid() throws {
        let definitions = try load(
            #"{"banners": [{"id": "b", "placementId": "p", "html": "x", "priority": 1, "properties": {}}]}"#)
        #expect(definitions.featureFlags(for: user("u"), at: now).isEmpty)
        #expect(definitions.banners(for: user("u"), at: now)["p"]?.id == "b")
    }

    @Test func problemsNamePointerLineAndColumn() {
        let text = """
            {
              "flags": {
                "a": {"state": "ON", "variants": {"on": true}, "defaultVariant": "on"}
              },
              "contentCards": [
                {"id": "c", "type": "classic", "title": "T", "extras": {}, "created": 1, "colour": "red"}
              ]
            }
            """
        let found = problems(text)
        #expect(found.map(\.pointer) == ["/flags/a/state", "/contentCards/0/colour"])
        #expect(found.first?.line == 3)
        #expect(found.first?.column == 20)
        #expect(found.last?.line == 6)
    }

    @Test func rulesThatDoNotCompileAndDuplicateIdsAreProblems() {
        let found = problems(
            """
            {"$evaluators": {"gold": {"==": [{"var": "tier"}, "gold"]}},
             "banners": [
               {"id": "b", "placementId": "p", "html": "x", "priority": 1, "properties": {}, "targeting": {"$ref": "silver"}},
               {"id": "b", "placementId": "q", "html": "y", "priority": 1, "properties": {}}
             ]}
            """)
        #expect(found.map(\.pointer).sorted() == ["/banners/0/targeting/$ref", "/banners/1/id"])
    }

    @Test func notJSONIsAProblemWithItsPosition() {
        let found = problems("{\n  \"flags\": {,}\n}")
        #expect(found.count == 1)
        #expect(found.first?.line == 2)
        #expect(found.first?.pointer == "")
    }

    @Test func channelsDefaultToOn() throws {
        let definitions = try load(#"{"channels": {"banners": false, "contentCards": {"enabled": false}}}"#)
        #expect(definitions.isEnabled(.featureFlags))
        #expect(!definitions.isEnabled(.banners))
        #expect(!definitions.isEnabled(.contentCards))
    }
}

@Suite struct BannerAndCardEvaluationTests {
    static let document = """
        {
          "banners": [
            {"id": "low", "placementId": "home", "html": "low", "priority": 1, "properties": {}},
            {"id": "high", "placementId": "home", "html": "high", "priority": 5, "properties": {}, "targeting": {"==": [{"var": "tier"}, "gold"]}},
            {"id": "tie", "placementId": "home", "html": "tie", "priority": 5, "properties": {}},
            {"id": "later", "placementId": "side", "html": "later", "priority": 1, "properties": {}, "schedule": {"start": 1800000100}},
            {"id": "gone", "placementId": "top", "html": "gone", "priority": 1, "properties": {}, "expiresAt": 1800000000},
            {"id": "split", "placementId": "split", "html": "<p>split</p>", "priority": 1, "properties": {"a": {"type": "number", "value": 1}}, "controlShare": 0.5}
          ],
          "contentCards": [
            {"id": "window", "type": "classic", "title": "W", "extras": {}, "created": 1, "schedule": {"start": 1799999990, "end": 1800000010}},
            {"id": "young", "type": "classic", "title": "Y", "extras": {}, "created": 2, "targeting": {"<": [{"var": "age"}, 30]}},
            {"id": "half", "type": "imageOnly", "imageUrl": "https://x/y.png", "extras": {"k": "v"}, "created": 3, "controlShare": 0.5}
          ]
        }
        """

    @Test func theEligibleBannerOfHighestPriorityFillsItsPlacementAndTheEarlierWinsATie() throws {
        let definitions = try load(Self.document)
        #expect(definitions.banners(for: user("u", ["tier": "gold"]), at: now)["home"]?.id == "high")
        #expect(definitions.banners(for: user("u", ["tier": "basic"]), at: now)["home"]?.id == "tie")
    }

    @Test func aDismissedBannerLeavesItsPlacementToTheNextEligibleOne() throws {
        let definitions = try load(Self.document)
        let gold = user("u", ["tier": "gold"])
        #expect(definitions.banners(for: gold, at: now, excluding: ["high"])["home"]?.id == "tie")
        #expect(definitions.banners(for: gold, at: now, excluding: ["high", "tie"])["home"]?.id == "low")
        #expect(definitions.banners(for: gold, at: now, excluding: ["high", "tie", "low"])["home"] == nil)
    }

    @Test func schedulesAndExpiryDecideWhenABannerShows() throws {
        let definitions = try load(Self.document)
        #expect(definitions.banners(for: user("u"), at: now)["side"] == nil)
        #expect(definitions.banners(for: user("u"), at: now + 100)["side"]?.id == "later")
        #expect(definitions.banners(for: user("u"), at: now - 1)["top"]?.id == "gone")
        #expect(definitions.banners(for: user("u"), at: now)["top"] == nil)
        #expect(definitions.placementIds == ["home", "side", "top", "split"])
    }

    @Test func cardsFollowTheirScheduleAndTargeting() throws {
        let definitions = try load(Self.document)
        #expect(
            definitions.contentCards(for: user("u", ["age": 20]), at: now).map(\.id).sorted() == [
                "half", "window", "young",
            ])
        #expect(definitions.contentCards(for: user("u", ["age": 40]), at: now + 10).map(\.id) == ["half"])
    }

    @Test func aControlShareSplitsUsersStablyAndAboutInProportion() throws {
        let definitions = try load(Self.document)
        var controlBanners = 0
        var controlCards = 0
        for index in 0..<2000 {
            let subject = user("user-\(index)")
            let banner = try #require(definitions.banners(for: subject, at: now)["split"])
            let again = try #require(definitions.banners(for: subject, at: now + 5)["split"])
            #expect(banner == again)
            if banner.isControl {
                controlBanners += 1
                #expect(banner.html == "" && banner.properties.isEmpty)
            }
            let card = try #require(definitions.contentCards(for: subject, at: now).first { $0.id == "half" })
            if card.isControl {
                controlCards += 1
                #expect(card.type == .control && !card.dismissible && card.imageUrl == nil)
            }
        }
        #expect((850...1150).contains(controlBanners))
        #expect((850...1150).contains(controlCards))
    }

    @Test func evaluateFlagResolvesAsFlagdDoes() throws {
        let definitions = try load(
            """
            {"flags": {"f": {"state": "ENABLED", "variants": {"a": "A", "b": "B"}, "defaultVariant": "a",
                             "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "b", null]}}}}
            """)
        #expect(
            definitions.evaluateFlag("f", context: ["targetingKey": "u", "tier": "gold"], at: now) == [
                "value": "B", "variant": "b", "reason": "TARGETING_MATCH",
            ])
        #expect(
            definitions.evaluateFlag("f", context: ["targetingKey": "u"], at: now) == [
                "value": "A", "variant": "a", "reason": "DEFAULT",
            ])
        #expect(
            definitions.evaluateFlag("nope", context: [:], at: now) == [
                "value": .null, "variant": .null, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND",
                "errorMessage": "flag \"nope\" not found",
            ])
    }
}
