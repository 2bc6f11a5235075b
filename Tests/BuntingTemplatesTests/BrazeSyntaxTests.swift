import BuntingJSON
import Testing
@testable import BuntingTemplates

/// Braze's additions to Liquid: `${…}` attributes, braces inside tags,
/// `abort_message`, content blocks, and tags refused because they would
/// reach the network.
@Suite struct BrazeSyntaxTests {
    let ada: JSON = [
        "first_name": "Ada", "tier": "gold", "zip code": "EC1", "points": 1200, "user_id": "from-attributes",
    ]

    @Test func attributesInBraces() throws {
        #expect(try render("Hi {{${first_name}}}!", attributes: ada) == "Hi Ada!")
        #expect(try render("Hi {{ ${first_name} | upcase }}", attributes: ada) == "Hi ADA")
        #expect(try render("{{custom_attribute.${tier}}}", attributes: ada) == "gold")
        #expect(try render("{{ custom_attribute.${zip code} }}", attributes: ada) == "EC1")
        #expect(try render("{{${zip code}}}", attributes: ada) == "EC1")
    }

    @Test func aMissingAttributeIsEmptyAndTakesADefault() throws {
        #expect(try render("Hi {{${first_name}}}!", attributes: [:]) == "Hi !")
        #expect(try render("Hi {{${first_name} | default: 'there'}}!", attributes: [:]) == "Hi there!")
        #expect(try render("Hi {{${first_name} | default: 'there'}}!", attributes: ["first_name": ""]) == "Hi there!")
        // Whitespace is not empty: Shopify's `default` keeps it.
        #expect(try render("[{{${first_name} | default: 'there'}}]", attributes: ["first_name": " "]) == "[ ]")
    }

    @Test func attributesAreNotPlainVariables() throws {
        #expect(
            try render("{{ first_name }}|{{ ${first_name} }}", data: ["first_name": "data"], attributes: ada)
                == "data|Ada")
    }

    @Test func userIdComesFromTheContext() throws {
        #expect(try render("{{${user_id}}}", attributes: ada, userId: "ada-1") == "ada-1")
        #expect(try render("{{${user_id}}}", attributes: ada) == "from-attributes")
    }

    @Test func bracesInsideTags() throws {
        let template = "{% if {{custom_attribute.${tier}}} == 'gold' %}VIP{% else %}regular{% endif %}"
        #expect(try render(template, attributes: ada) == "VIP")
        #expect(try render(template, attributes: ["tier": "silver"]) == "regular")
        #expect(try render("{% if {{${points}}} > 1000 %}many{% endif %}", attributes: ada) == "many")
        #expect(try render("{% assign p = {{${points}}} | plus: 1 %}{{ p }}", attributes: ada) == "1201")
    }

    @Test func otherNamespacesReadAsNil() throws {
        #expect(try render("[{{campaign.${name}}}][{{event_properties.${amount} | default: 0}}]") == "[][0]")
    }

    @Test func abortMessageStopsTheRenderWithItsReason() {
        let error = failure(
            "Hello {% if ${tier} != 'gold' %}{% abort_message('not eligible') %}{% endif %}",
            attributes: ["tier": "tin"])
        #expect(error?.reason == .aborted)
        #expect(error?.abortMessage == "not eligible")
        #expect(error?.phase == .render)
        #expect(error?.line == 1 && error?.column == 33)
        #expect(failure("{% abort_message() %}")?.abortMessage == "")
        #expect(failure("{% abort_message \"why\" %}")?.abortMessage == "why")
        #expect(failure("{% abort_message(reason) %}", data: ["reason": "computed"])?.abortMessage == "computed")
        // Not reached: no abort.
        #expect(failure("{% if false %}{% abort_message('x') %}{% endif %}") == nil)
    }

    @Test func contentBlocks() throws {
        let blocks = ["footer": "— {{ ${first_name} | default: 'friend' }}", "outer": "[{{content_blocks.${footer}}}]"]
        #expect(try render("Bye {{content_blocks.${footer}}}", attributes: ada, blocks: blocks) == "Bye — Ada")
        #expect(try render("{{content_blocks.${outer}}}", attributes: [:], blocks: blocks) == "[— friend]")
        // Variables are shared, as if the block's text stood in the template.
        #expect(
            try render("{{content_blocks.${set}}}{{ x }}", blocks: ["set": "{% assign x = 'from block' %}"])
                == "from block")
    }

    @Test func contentBlockErrorsSayWhere() {
        let missing = failure("ok {{content_blocks.${nope}}}")
        #expect(missing?.reason == .invalidTemplate)
        #expect(missing?.message.contains("no content block named 'nope'") == true)
        #expect(missing?.column == 6)
        let inner = failure("{{content_blocks.${bad}}}", blocks: ["bad": "line one\n{{ 1 | divided_by: 0 }}"])
        #expect(inner?.message == "in content block 'bad' at 2:8: divided by 0")
        let aborted = failure("{{content_blocks.${stop}}}", blocks: ["stop": "{% abort_message('inside') %}"])
        #expect(aborted?.reason == .aborted)
        #expect(aborted?.abortMessage == "inside")
    }

    @Test func aContentBlockThatIncludesItselfStopsAtTheDepthLimit() {
        let error = failure("{{content_blocks.${loop}}}", blocks: ["loop": "a{{content_blocks.${loop}}}"])
        #expect(error?.reason == .limit)
        #expect(error?.message.contains("content blocks nested deeper than 4") == true)
    }

    @Test func networkTagsAreRefusedAtParse() {
        for template in [
            "{% connected_content https://example.com/x :save data %}",
            "{% promotion('spring') %}",
            "{% catalog_items games 1234 %}",
            "{% catalog_selection_items games picks %}",
        ] {
            let error = failure(template)
            #expect(error?.phase == .parse, "\(template)")
            #expect(error?.reason == .invalidTemplate)
            #expect(
                error?.message.contains("would reach the network") == true,
                "\(template): \(String(describing: error))")
        }
    }

    @Test func unsupportedStandardTagsAreParseErrors() {
        for name in ["include", "render", "tablerow", "ifchanged"] {
            let error = failure("{% \(name) 'x' %}")
            #expect(error?.message == "the tag '\(name)' is not supported")
        }
    }

    @Test func plainTextIsRecognisedAtParse() throws {
        let plain = try Template("Welcome { to } the %{ club }")
        #expect(plain.isPlainText)
        #expect(try plain.render(RenderContext(now: 0)) == "Welcome { to } the %{ club }")
        #expect(try !Template("a {{ b }}").isPlainText)
        #expect(try !Template("a {% if b %}{% endif %}").isPlainText)
        // `${x}` alone is text: Liquid starts only at `{{` or `{%`.
        #expect(try Template("costs ${price}").isPlainText)
    }
}
