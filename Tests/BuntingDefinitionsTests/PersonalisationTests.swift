import BuntingCore
import BuntingDefinitions
import BuntingJSON
import Testing

/// Liquid in the document's items, rendered per user: cards, banners, flag
/// properties and GrowthBook values; checked at load as targeting is.
@Suite struct PersonalisationTests {
    static let ada = user("ada", ["first_name": "Ada", "tier": "gold", "points": 1200])
    static let bo = user("bo", ["tier": "bronze", "points": 40])

    static func card(_ id: String, _ fields: String) -> String {
        let extras = fields.contains(#""extras""#) ? "" : #""extras": {}, "#
        return #"{"id": "\#(id)", "type": "classic", \#(extras)"created": 1700000000, \#(fields)}"#
    }

    static func cards(_ entries: String...) -> String {
        #"{"contentCards": [\#(entries.joined(separator: ", "))]}"#
    }

    func cards(_ definitions: Definitions, for subject: EvaluationSubject) -> (
        cards: [JSON], unrendered: [UnrenderedItem]
    ) {
        var unrendered: [UnrenderedItem] = []
        let cards = definitions.contentCards(for: subject, at: now, unrendered: &unrendered).map(\.json)
        return (cards, unrendered)
    }

    // MARK: - Cards

    @Test func everyTextOfACardIsRenderedForItsUser() throws {
        let definitions = try load(
            Self.cards(
                Self.card(
                    "welcome",
                    #"""
                    "title": "Hi {{${first_name} | default: 'there'}}", "description": "{{custom_attribute.${tier}}} member",
                    "url": "https://example.com/u/{{${user_id}}}", "imageUrl": "https://example.com/{{${tier}}}.png",
                    "linkText": "Open, {{${first_name} | default: 'you'}}", "aspectRatio": 1.5,
                    "extras": {"feed": "inbox", "greeting": "Hello {{${first_name}}}", "plain": "as is"}
                    """#)))
        let forAda = try #require(cards(definitions, for: Self.ada).cards.first)
        #expect(forAda["title"] == "Hi Ada")
        #expect(forAda["description"] == "gold member")
        #expect(forAda["url"] == "https://example.com/u/ada")
        #expect(forAda["imageUrl"] == "https://example.com/gold.png")
        #expect(forAda["linkText"] == "Open, Ada")
        #expect(forAda["extras"] == ["feed": "inbox", "greeting": "Hello Ada", "plain": "as is"])
        #expect(forAda["aspectRatio"] == 1.5 && forAda["created"] == 1_700_000_000 && forAda["dismissible"] == true)
        let forBo = try #require(cards(definitions, for: Self.bo).cards.first)
        #expect(
            forBo["title"] == "Hi there" && forBo["linkText"] == "Open, you" && forBo["extras"]?["greeting"] == "Hello "
        )
        // The card a user gets reads as the same card written out for them.
        let written = try #require(
            ContentCard(
                json: .object([
                    "id": "welcome", "type": "classic", "title": "Hi Ada", "description": "gold member",
                    "url": "https://example.com/u/ada", "imageUrl": "https://example.com/gold.png",
                    "linkText": "Open, Ada",
                    "aspectRatio": 1.5, "extras": ["feed": "inbox", "greeting": "Hello Ada", "plain": "as is"],
                    "created": 1_700_000_000,
                ])))
        #expect(definitions.contentCards(for: Self.ada, at: now) == [written])
    }

    @Test func textsThatNeedEscapingInJSONAreWrittenAsJansonWritesThem() throws {
        let definitions = try load(
            Self.cards(Self.card("c", #""title": "{{${quote}}}", "extras": {"k": "{{${quote}}}"}"#)))
        let quote = "say \"hi\"\\\n\t\u{1}é😀"
        let made = try #require(definitions.contentCards(for: user("u", ["quote": .string(quote)]), at: now).first)
        #expect(made.json["title"] == .string(quote) && made.extras["k"] == .string(quote))
        #expect(
            made
                == ContentCard(
                    json: .object([
                        "id": "c", "type": "classic", "title": .string(quote), "extras": ["k": .string(quote)],
                        "created": 1_700_000_000,
                    ])))
    }

    /// A card's text is cut where each user's text goes by marks it cannot
    /// hold by chance; one that holds a mark all the same is made field by
    /// field instead, with the same text.
    @Test func aCardThatHoldsAMarkIsMadeFieldByField() throws {
        let mark = #"\u0000bunting-template-0\u0000"#
        let definitions = try load(
            Self.cards(Self.card("odd", #""title": "Hi {{${first_name}}}", "linkText": "\#(mark)""#)))
        let made = try #require(definitions.contentCards(for: Self.ada, at: now).first)
        #expect(made.title == "Hi Ada" && made.linkText == "\u{0}bunting-template-0\u{0}")
        let (shown, unrendered) = cards(definitions, for: Self.bo)
        #expect(shown.first?["title"] == "Hi " && unrendered.isEmpty)
    }

    @Test func aCardWithoutMarkupIsTheDocumentsOwn() throws {
        let plain = try load(Self.cards(Self.card("plain", #""title": "Hi {there}, 100% off""#)))
        let one = plain.contentCards(for: Self.ada, at: now)
        let other = plain.contentCards(for: Self.bo, at: now)
        #expect(one == other && one.first?.title == "Hi {there}, 100% off")
    }

    @Test func abortMessageLeavesTheCardOutForThatUserOnly() throws {
        let definitions = try load(
            Self.cards(
                Self.card(
                    "gold",
                    #""title": "{% if ${tier} != 'gold' %}{% abort_message('gold members only') %}{% endif %}Gold perks""#
                ),
                Self.card("all", #""title": "For all""#)))
        #expect(cards(definitions, for: Self.ada).cards.map(\.["id"]) == ["gold", "all"])
        let (shown, unrendered) = cards(definitions, for: Self.bo)
        #expect(shown.map(\.["id"]) == ["all"])
        let item = try #require(unrendered.first)
        #expect(unrendered.count == 1)
        #expect(item.channel == .contentCards && item.id == "gold" && item.pointer == "/contentCards/0/title")
        #expect(item.fault.reason == .aborted && item.fault.abortMessage == "gold members only")
        #expect(item.fault.line == 1 && item.fault.column == 27)
    }

    @Test func aRenderErrorOrALimitLeavesTheCardOutForThatUser() throws {
        let definitions = try load(
            Self.cards(
                Self.card("ratio", #""title": "{{ 100 | divided_by: ${points} }} each""#),
                Self.card("long", #""title": "{% for i in (1..${repeats}) %}0123456789abcdef{% endfor %}""#),
                Self.card("range", #""description": "{% for i in (1..${repeats}) %}{% endfor %}x", "title": "t""#)))
        let ok = cards(definitions, for: user("u", ["points": 4, "repeats": 10]))
        #expect(
            ok.cards.map(\.["title"]) == ["25 each", .string(String(repeating: "0123456789abcdef", count: 10)), "t"])
        let (shown, unrendered) = cards(definitions, for: user("v", ["points": 0, "repeats": 5000]))
        #expect(shown.map(\.["id"]) == ["range"], "5,000 × 16 bytes is past an item's 64 KiB; a range of 5,000 is not")
        #expect(unrendered.map(\.fault.reason) == [.invalidTemplate, .limit])
        #expect(unrendered.map(\.pointer) == ["/contentCards/0/title", "/contentCards/1/title"])
        let huge = cards(definitions, for: user("w", ["points": 1, "repeats": 10_000_000]))
        #expect(huge.cards.map(\.["id"]) == ["ratio"])
        #expect(huge.unrendered.allSatisfy { $0.fault.reason == .limit })
    }

    @Test func aFeedFilterReadsTheRenderedExtras() throws {
        let definitions = try load(Self.cards(Self.card("c", #""title": "t", "extras": {"feed": "{{${tier}}}-news"}"#)))
        #expect(definitions.contentCards(for: Self.ada, at: now).first?.extras["feed"] == "gold-news")
    }

    @Test func aControlUserGetsTheControlCardWithNothingRendered() throws {
        let definitions = try load(
            Self.cards(Self.card("c", #""title": "{% abort_message('no') %}", "controlShare": 1"#)))
        let (shown, unrendered) = cards(definitions, for: Self.ada)
        #expect(shown.first?["type"] == "control" && unrendered.isEmpty)
    }

    // MARK: - Checked at load

    @Test func aTemplateThatDoesNotParseIsAProblemAtItsPlaceInTheDocument() throws {
        // The title's text holds escapes before the error: the column counts the document's characters.
        let text = """
            {"contentCards": [
              {"id": "broken", "type": "classic", "extras": {}, "created": 1,
               "title": "L1 \\"é\\u00e9\\ud83d\\ude00\\n{% bogus %}"},
              {"id": "fine", "type": "classic", "extras": {}, "created": 1, "title": "{{${first_name}}}"}
            ]}
            """
        let definitions = try load(text)
        let problem = try #require(definitions.problems.first)
        #expect(definitions.problems.count == 1)
        #expect(problem.pointer == "/contentCards/0/title")
        #expect(
            problem.message.contains("INVALID_TEMPLATE at 2:1 of the template")
                && problem.message.contains("unknown tag 'bogus'"))
        #expect(problem.message.hasSuffix("the card is left out"))
        // Line 3 of the document, where `{% bogus %}` starts.
        let line = text.split(separator: "\n", omittingEmptySubsequences: false)[2]
        let column = line.unicodeScalars.count - line.unicodeScalars.split(separator: "{").last!.count
        #expect(problem.line == 3 && problem.column == column)
        #expect(definitions.contentCards(for: Self.ada, at: now).map(\.id) == ["fine"])
    }

    @Test(arguments: [
        "{% connected_content https://example.com/api :save profile %}{{profile.name}}",
        "{% promotion('spring-codes') %}",
        "{% catalog_items shoes sku-1 %}{{ items[0].name }}",
        "{{ 'x' | connected_content }}",
    ])
    func whatWouldReachTheNetworkIsRefusedAtLoad(template: String) throws {
        let definitions = try load(Self.cards(Self.card("c", #""title": \#(JSON.string(template).encodedString())"#)))
        let problem = try #require(definitions.problems.first)
        #expect(problem.pointer == "/contentCards/0/title")
        #expect(problem.message.contains("network") || problem.message.contains("unknown"), "\(problem.message)")
        #expect(definitions.contentCards(for: Self.ada, at: now).isEmpty)
    }

    @Test func aTemplateTooLargeToParseIsALimitProblem() throws {
        let deep = String(repeating: "{% if true %}", count: 40) + String(repeating: "{% endif %}", count: 40)
        let definitions = try load(Self.cards(Self.card("c", #""title": "\#(deep)""#)))
        #expect(definitions.problems.first?.message.contains("TEMPLATE_LIMIT") == true)
        #expect(definitions.contentCards(for: Self.ada, at: now).isEmpty)
    }

    @Test func strictRefusesADocumentWithATemplateThatDoesNotParse() {
        let text = Self.cards(Self.card("c", #""title": "{% bogus %}""#))
        guard case .failure(let refusal) = Definitions.load(Array(text.utf8), strict: true) else {
            Issue.record("a strict load took a broken template")
            return
        }
        #expect(refusal.problems.first?.pointer == "/contentCards/0/title")
    }

    // MARK: - Content blocks

    /// A block that does not parse, or includes one that is not there, is a
    /// problem; so is every template that includes a block that is not there,
    /// found at load: it would fail for every user.
    @Test func contentBlocksAreIncludedAndAMissingOneIsAProblemAtLoad() throws {
        let definitions = try load(
            """
            {"contentBlocks": {"footer": "Bye, {{${first_name} | default: 'friend'}}", "broken": "{% if %}",
                               "outer": "[{{content_blocks.${broken}}}]", "raw": "{% raw %}{{content_blocks.${nowhere}}}{% endraw %}"},
             "contentCards": [
               {"id": "a", "type": "classic", "extras": {}, "created": 1, "title": "Hi. {{content_blocks.${footer}}} {{content_blocks.${raw}}}"},
               {"id": "b", "type": "classic", "extras": {}, "created": 1, "title": "{{content_blocks.${outer}}}"},
               {"id": "c", "type": "classic", "extras": {}, "created": 1, "title": "{% if true %}{{ content_blocks.${missing} | upcase }}{% endif %}"}
             ]}
            """)
        #expect(
            definitions.problems.map(\.pointer) == [
                "/contentBlocks/broken", "/contentBlocks/outer", "/contentCards/1/title", "/contentCards/2/title",
            ])
        #expect(definitions.problems.last?.message.contains("no content block named 'missing'") == true)
        #expect(
            definitions.problems.last?.message.hasPrefix(
                "the template includes a content block the document does not have (INVALID_TEMPLATE at 1:17 of the template)"
            ) == true)
        let (shown, unrendered) = cards(definitions, for: Self.ada)
        #expect(shown.map(\.["title"]) == ["Hi. Bye, Ada {{content_blocks.${nowhere}}}"])
        #expect(unrendered.isEmpty)
        #expect(
            definitions.renderTemplate(TemplateRequest(template: "{{content_blocks.${footer}}}", now: now))
                == .success("Bye, friend"))
    }

    // MARK: - Banners

    @Test func aBannerWhoseTemplateGivesNoTextLeavesItsPlacementToTheNext() throws {
        let definitions = try load(
            """
            {"banners": [
              {"id": "gold", "placementId": "top", "priority": 10, "properties": {},
               "html": "<p>{{${first_name}}}, gold</p>{% unless ${tier} == 'gold' %}{% abort_message %}{% endunless %}"},
              {"id": "fallback", "placementId": "top", "priority": 1, "properties": {}, "html": "<p>Welcome</p>"},
              {"id": "side", "placementId": "side", "priority": 1, "properties": {}, "html": "{{ 1 | divided_by: ${points} }}"}
            ]}
            """)
        var unrendered: [UnrenderedItem] = []
        let forAda = definitions.banners(for: Self.ada, at: now, excluding: [], unrendered: &unrendered)
        #expect(forAda["top"]?.html == "<p>Ada, gold</p>" && forAda["side"]?.html == "0" && unrendered.isEmpty)
        let forBo = definitions.banners(
            for: user("bo", ["tier": "bronze", "points": 0]), at: now, excluding: [], unrendered: &unrendered)
        #expect(forBo["top"]?.id == "fallback" && forBo["side"] == nil)
        #expect(Set(unrendered.map(\.pointer)) == ["/banners/0/html", "/banners/2/html"])
    }

    /// `explain` (getSnapshot's, `bunting eval --explain`) tells what the
    /// refresh does: an item its template leaves out for the user is
    /// NOT_RENDERED with the template's place and reason, and a banner that
    /// takes over a placement is the one shown.
    @Test func explanationsNameWhatTheTemplatesLeaveOut() throws {
        let definitions = try load(
            """
            {"banners": [
              {"id": "gold", "placementId": "top", "priority": 10, "properties": {},
               "html": "{% unless ${tier} == 'gold' %}{% abort_message('gold only') %}{% endunless %}Gold"},
              {"id": "fallback", "placementId": "top", "priority": 1, "properties": {}, "html": "<p>Welcome</p>"}],
             "contentCards": [\(Self.card("lounge", #""title": "{% if ${tier} != 'gold' %}{% abort_message('gold only') %}{% endif %}Lounge""#))],
             "flags": {"gated": {"state": "ENABLED", "defaultVariant": "on", "variants": {
               "on": {"enabled": true, "properties": {"text": {"type": "string", "value": "{% if ${tier} == 'bronze' %}{% abort_message %}{% endif %}ok"}}}}}}}
            """)
        func entry(_ channel: Channel, _ id: String, _ subject: EvaluationSubject) -> JSONObject? {
            definitions.explainChannel(channel, for: subject, at: now, dismissed: []).first { $0["id"] == .string(id) }
        }
        #expect(
            entry(.banners, "gold", Self.ada)?["outcome"] == "SHOWN"
                && entry(.banners, "fallback", Self.ada)?["outcome"] == "OUTRANKED")
        #expect(
            entry(.contentCards, "lounge", Self.ada)?["outcome"] == "SHOWN"
                && entry(.featureFlags, "gated", Self.ada)?["in"] == true)
        let gold = try #require(entry(.banners, "gold", Self.bo))
        #expect(gold["in"] == false && gold["outcome"] == "NOT_RENDERED")
        #expect(
            gold["why"]?.stringValue?.contains("/banners/0/html") == true
                && gold["why"]?.stringValue?.contains("gold only") == true)
        #expect(entry(.banners, "fallback", Self.bo)?["outcome"] == "SHOWN", "the next banner fills the placement")
        let lounge = try #require(entry(.contentCards, "lounge", Self.bo))
        #expect(lounge["in"] == false && lounge["outcome"] == "NOT_RENDERED")
        #expect(lounge["why"]?.stringValue?.contains("TEMPLATE_ABORTED") == true)
        let gated = try #require(entry(.featureFlags, "gated", Self.bo))
        #expect(gated["in"] == false && gated["outcome"] == "STATIC")
        #expect(gated["why"]?.stringValue?.contains("/flags/gated/variants/on/properties/text/value") == true)
    }

    // MARK: - Flags

    static let flags = """
        {"flags": {
          "greeting": {"state": "ENABLED", "defaultVariant": "on", "variants": {
            "on": {"enabled": true, "properties": {
              "text": {"type": "string", "value": "Hi {{${first_name} | default: 'there'}}"},
              "count": {"type": "number", "value": 3},
              "image": {"type": "image", "value": "https://example.com/{{${tier}}}.png"}}}}},
          "gated": {"state": "ENABLED", "defaultVariant": "on", "variants": {
            "on": {"enabled": true, "properties": {"text": {"type": "string", "value": "{% if ${tier} == 'bronze' %}{% abort_message %}{% endif %}ok"}}}}},
          "broken": {"state": "ENABLED", "defaultVariant": "on", "variants": {
            "on": {"enabled": true, "properties": {"text": {"type": "string", "value": "{% nope %}"}}}}},
          "plain": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": {"enabled": true, "properties": {}}}}
        }}
        """

    @Test func aFlagsStringPropertiesAreRenderedAndItsOtherPropertiesKept() throws {
        let definitions = try load(Self.flags)
        #expect(definitions.problems.map(\.pointer) == ["/flags/broken/variants/on/properties/text/value"])
        var unrendered: [UnrenderedItem] = []
        let forAda = definitions.featureFlags(for: Self.ada, at: now, unrendered: &unrendered)
        #expect(
            forAda.map(\.id) == ["greeting", "gated", "plain"], "a variant whose template does not parse is not listed")
        #expect(forAda[0].properties["text"] == ["type": "string", "value": "Hi Ada"])
        #expect(forAda[0].properties["count"] == ["type": "number", "value": 3])
        #expect(forAda[0].properties["image"]?["value"] == "https://example.com/gold.png")
        #expect(forAda[1].properties["text"]?["value"] == "ok" && unrendered.isEmpty)
        let forBo = definitions.featureFlags(for: Self.bo, at: now, unrendered: &unrendered)
        #expect(forBo.map(\.id) == ["greeting", "plain"] && forBo[0].properties["text"]?["value"] == "Hi there")
        #expect(unrendered.map(\.pointer) == ["/flags/gated/variants/on/properties/text/value"])
        // flagd's resolution answers the variant as written.
        let resolved = definitions.evaluateFlag(
            "greeting", context: ["targetingKey": "ada", "first_name": "Ada"], at: now)
        #expect(resolved["value"]?["properties"]?["text"]?["value"] == "Hi {{${first_name} | default: 'there'}}")
    }

    // MARK: - GrowthBook

    @Test func aGrowthBookObjectValuesStringMembersAreRendered() throws {
        let definitions = try load(
            """
            {"features": {
              "banner-text": {"defaultValue": {"text": "Welcome, {{${first_name} | default: 'friend'}}", "size": 2}},
              "gated": {"defaultValue": {"text": "{% if ${tier} == 'bronze' %}{% abort_message %}{% endif %}hi"}},
              "broken": {"defaultValue": {"text": "{% nope %}"}}}}
            """)
        #expect(definitions.problems.map(\.pointer) == ["/features/broken/defaultValue/text"])
        let forAda = definitions.evaluateFeatures(
            attributes: ["id": "ada", "first_name": "Ada", "tier": "gold"], keys: nil, sticky: nil, listing: true,
            tracking: true, at: now)
        #expect(forAda.flags.map(\.id) == ["banner-text", "gated"])
        #expect(forAda.flags.first?.properties["text"]?["value"] == "Welcome, Ada")
        #expect(forAda.flags.first?.properties["size"]?["value"] == 2)
        // GrowthBook's own result is the value as written.
        #expect(
            forAda.results.first?.result.value["value"]?["text"] == "Welcome, {{${first_name} | default: 'friend'}}")
        let forBo = definitions.evaluateFeatures(
            attributes: ["id": "bo", "tier": "bronze"], keys: nil, sticky: nil, listing: true, tracking: true, at: now)
        #expect(forBo.flags.map(\.id) == ["banner-text"])
        #expect(forBo.unrendered.map(\.id) == ["gated", "broken"])
    }

    // MARK: - Bounds

    /// A document of many templates that each take nearly all of a render's
    /// steps cannot hold a refresh: the refresh's budget runs out, the items
    /// left are left out with a limit, and it says why.
    @Test func aRefreshsTemplatesShareOneBudget() throws {
        let costly = "{% for i in (1..99990) %}{% endfor %}"
        let entries = (0..<100).map { Self.card("c\($0)", #""title": "\#(costly) \#($0)""#) }
        let definitions = try load(#"{"contentCards": [\#(entries.joined(separator: ", "))]}"#)
        let (shown, unrendered) = cards(definitions, for: Self.ada)
        #expect(shown.count + unrendered.count == 100)
        #expect(shown.count <= 21 && shown.count >= 19, "2,000,000 steps at about 100,000 each")
        #expect(unrendered.allSatisfy { $0.fault.reason == .limit && $0.fault.message.contains("budget") })
        #expect(
            unrendered.filter {
                $0.fault.message.hasPrefix("not rendered: the templates of this refresh spent its budget")
            }.count >= unrendered.count - 1,
            "those after the one that spent the budget were not begun, and say so")
    }

    // MARK: - renderTemplate

    @Test func renderTemplateRendersWithDataAttributesAndTheDocumentsBlocks() throws {
        let definitions = try load(#"{"contentBlocks": {"sig": "-- {{ team }}"}}"#)
        let rendered = definitions.renderTemplate(
            TemplateRequest(
                template: "{{ greeting }}, {{${first_name}}} {{content_blocks.${sig}}} {{ 'now' | date: '%Y' }}",
                data: ["greeting": "Hello", "team": "Bunting"], attributes: ["first_name": "Ada"], now: 1_773_480_413))
        #expect(rendered == .success("Hello, Ada -- Bunting 2026"))
        guard
            case .failure(let fault) = definitions.renderTemplate(TemplateRequest(template: "ok\n {% if %}", now: now))
        else {
            Issue.record("a broken template rendered")
            return
        }
        #expect(fault.reason == .invalidTemplate && fault.line == 2 && fault.column == 2)
    }
}
