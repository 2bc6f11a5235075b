import Testing
@testable import BuntingTemplates

/// The content blocks a template names are known once it is parsed, so that
/// a document can refuse, at load, a template that includes one it lacks.
@Suite struct ContentBlockMentionTests {
    @Test func everyMentionInOutputsAndTagsIsFound() throws {
        let template = try Template(
            """
            {{content_blocks.${header}}}{% if x %}{{ content_blocks.${body} | upcase }}{% endif %}\
            {% assign f = content_blocks.${footer} %}{% liquid
            echo content_blocks.${in liquid}
            %}{% if {{content_blocks.${braced}}} == 'x' %}{% endif %}
            """)
        #expect(template.contentBlockNames == ["header", "body", "footer", "in liquid", "braced"])
    }

    @Test func textThatIsNoMarkupNamesNothing() throws {
        let template = try Template(
            """
            {% raw %}{{content_blocks.${raw}}}{% endraw %}{% comment %}{{content_blocks.${comment}}}{% endcomment %}\
            {{ 'content_blocks.${quoted}' }}
            """)
        #expect(template.contentBlockNames.isEmpty)
        #expect(try Template("plain content_blocks.${name}").contentBlockNames.isEmpty)
    }

    @Test func theFirstMissingBlockIsAnErrorAtItsFirstMention() throws {
        let template = try Template(
            "a {{content_blocks.${there}}}\n  {{content_blocks.${gone}}} {{content_blocks.${gone}}}")
        let blocks = ContentBlocks(["there": try Template("x")])
        let error = try #require(template.missingContentBlock(in: blocks))
        #expect(error.reason == .invalidTemplate && error.phase == .parse)
        #expect(error.message == "no content block named 'gone'" && error.line == 2 && error.column == 5)
        #expect(
            template.missingContentBlock(in: ContentBlocks(["there": try Template("x"), "gone": try Template("y")]))
                == nil)
    }
}
