import BuntingJSON
import Testing
@testable import BuntingTemplates

/// Errors carry a reason, a phase, a message, and the line and column of
/// the tag, output or filter concerned.
@Suite struct TemplateErrorTests {
    @Test func parseErrorsPointAtTheirPlace() {
        let unknownFilter = failure("Hello\n  {{ name | shout }}")
        #expect(unknownFilter?.phase == .parse)
        #expect(unknownFilter?.reason == .invalidTemplate)
        #expect(unknownFilter?.message == "unknown filter 'shout'")
        #expect(unknownFilter?.line == 2 && unknownFilter?.column == 13)
        #expect(unknownFilter?.description == "2:13: unknown filter 'shout'")

        let unclosed = failure("é{% if x %}never closed")
        #expect(unclosed?.message == "'if' is not closed: no endif follows")
        #expect(unclosed?.line == 1 && unclosed?.column == 2)
        #expect(unclosed?.offset == 2)

        #expect(failure("{{ x ")?.message == "output not closed: no }} follows")
        #expect(failure("{% if x }")?.message == "tag not closed: no %} follows")
        #expect(failure("{% endif %}")?.message == "unexpected 'endif': no open block it belongs to")
        #expect(failure("{% frobnicate %}")?.message == "unknown tag 'frobnicate'")
        #expect(failure("{{ 'a' | append }}")?.message == "the filter 'append' takes 1 argument, not 0")
        #expect(
            failure("{{ x | default: 1, fallback: 2 }}")?.message == "the filter 'default' takes "
                + "no argument 'fallback'")
        #expect(failure("{% assign 1x? = 2 %}")?.message == "'1x?' is not a variable name")
        #expect(failure("{{ a b }}")?.message == "expected the end of the markup, found 'b'")
    }

    @Test func renderErrorsPointAtTheFilterOrTag() {
        let division = failure("{% assign d = 0 %}\n{{ 10 | divided_by: d }}")
        #expect(division?.phase == .render)
        #expect(division?.reason == .invalidTemplate)
        #expect(division?.message == "divided by 0")
        #expect(division?.line == 2 && division?.column == 9)

        let comparison = failure("{% if '2' > 1 %}x{% endif %}")
        #expect(comparison?.message == "comparison of a string with an integer failed")
        #expect(comparison?.column == 11)
    }

    @Test func badInputChangesNothingAndTheTemplateRendersAgain() throws {
        let template = try Template("{{ 10 | divided_by: n }}")
        #expect(throws: TemplateError.self) { try template.render(RenderContext(data: ["n": 0], now: 0)) }
        #expect(try template.render(RenderContext(data: ["n": 5], now: 0)) == "2")
    }
}
