import BuntingJSON
import Testing
@testable import BuntingTemplates

/// Templates and data made to hurt: very long conditions and paths, deep
/// nesting, unclosed markup, bytes that are not UTF-8. Each parses or fails
/// with an error, never crashes, and stays within its budget.
@Suite struct HostileTemplateTests {
    @Test func aConditionOfTwentyThousandTestsIsNoDeeperThanOne() throws {
        let condition = Array(repeating: "false", count: 20_000).joined(separator: " or ") + " or true"
        #expect(try render("{% if \(condition) %}yes{% endif %}") == "yes")
        // And each test is charged: in a loop it meets the step budget.
        let error = failure("{% for i in (1..10) %}{% if \(condition) %}{% endif %}{% endfor %}")
        #expect(error?.reason == .limit)
    }

    @Test func aPathOfAHundredAndFiftyThousandStepsIsChargedAndSafe() throws {
        let path = "a" + String(repeating: ".b", count: 150_000)
        let error = failure("{{ \(path) }}", data: ["a": ["b": "x"]])
        #expect(error?.reason == .limit)
        #expect(try render("{{ \(String(path.prefix(2001))) }}", data: ["a": ["b": ["b": "x"]]]) == "")
    }

    @Test func deepMarkupFailsAtParseWithinItsLimit() {
        let liquidTags = "{% " + String(repeating: "liquid ", count: 10_000) + "echo 1 %}"
        #expect(failure(liquidTags)?.reason == .limit)
        let brackets =
            "{{ " + String(repeating: "a[", count: 10_000) + "0" + String(repeating: "]", count: 10_000) + " }}"
        #expect(failure(brackets)?.reason == .limit)
        let comments = String(repeating: "{% comment %}", count: 50_000)
        #expect(failure(comments)?.message == "'comment' is not closed: no endcomment follows")
    }

    @Test func unclosedMarkupIsAnErrorWhereItStarts() {
        for (template, offset) in [
            ("ab {{ x", 3), ("{{ ${name }}", 0), ("{% raw %}never", 0), ("x{% doc %}", 1), ("{{ 'open }}", 0),
        ] {
            let error = failure(template)
            #expect(error?.phase == .parse, "\(template)")
            #expect(error?.offset == offset || template == "{{ 'open }}", "\(template): \(String(describing: error))")
        }
    }

    @Test func bytesThatAreNotUTF8AreReadAsReplacementCharacters() throws {
        let bytes: [UInt8] = [0x7B, 0x7B, 0x20, 0xFF, 0xFE, 0x20, 0x7D, 0x7D, 0xC3]
        let text = String(decoding: bytes, as: UTF8.self)
        let error = failure(text)
        #expect(error?.reason == .invalidTemplate)
        #expect(try render("\u{FFFD}{{ 'é' | upcase }}") == "\u{FFFD}É")
    }

    @Test func aLargeTemplateParsesInOnePassAndRendersWithinItsSteps() {
        let template = String(repeating: "{{ x }}", count: 140_000)
        let error = failure(template, data: ["x": "y"])
        #expect(error?.reason == .limit)
        #expect(error?.message == "the render took more than 100000 steps")
    }

    @Test func deeplyNestedDataPrintsAndCompares() throws {
        var nested: JSON = "core"
        for _ in 0..<400 { nested = .array([nested, 1]) }
        #expect(
            try render(
                "{{ a | size }}|{% if a == a %}same{% endif %}|{{ a | join: '' | size }}", data: ["a": nested])
                == "2|same|404")
    }

    @Test func filtersThatCouldExplodeAreRefused() {
        let big = String(repeating: "a", count: 1 << 19)
        #expect(failure("{{ s | replace: 'a', 'aaaa' }}", data: ["s": .string(big)])?.reason == .limit)
        #expect(failure("{{ s | split: '' | size }}", data: ["s": .string(big)])?.reason == .limit)
        #expect(failure("{{ s | append: s | append: s }}", data: ["s": .string(big)])?.reason == .limit)
        #expect(
            failure(
                "{{ s | url_encode | url_encode }}", data: ["s": .string(String(repeating: "%", count: 1 << 18))])?
                .reason == .limit)
    }
}
