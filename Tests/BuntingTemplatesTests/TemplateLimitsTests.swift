import BuntingJSON
import Testing
@testable import BuntingTemplates

/// Each limit of `TemplateLimits`, at the limit (renders) and one past it
/// (a TEMPLATE_LIMIT error, never a crash or a partial text).
@Suite struct TemplateLimitsTests {
    func expectLimit(
        _ source: String, data: JSON = [:], blocks: [String: String] = [:], _ limits: TemplateLimits,
        saying words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = failure(source, data: data, blocks: blocks, limits: limits)
        #expect(
            error?.reason == .limit, "\(source.prefix(60)): \(String(describing: error))",
            sourceLocation: sourceLocation)
        #expect(
            error?.message.contains(words) == true, "\(String(describing: error?.message))",
            sourceLocation: sourceLocation)
    }

    @Test func steps() throws {
        let limits = TemplateLimits(maxSteps: 1000)
        // The loop node costs 1 and each iteration 1, though the body is empty.
        #expect(try render("{% for i in (1..999) %}{% endfor %}", limits: limits) == "")
        expectLimit("{% for i in (1..1000) %}{% endfor %}", limits, saying: "more than 1000 steps")
        // A body of one text node: 1 + 2 per iteration.
        #expect(try render("{% for i in (1..499) %}x{% endfor %}", limits: limits).count == 499)
        expectLimit("{% for i in (1..500) %}x{% endfor %}", limits, saying: "steps")
    }

    @Test func nestedEmptyLoopsStopAtTheStepBudget() {
        let error = failure("{% for i in (1..100000) %}{% for j in (1..100000) %}{% endfor %}{% endfor %}")
        #expect(error?.reason == .limit)
        #expect(error?.message == "the render took more than 100000 steps")
        #expect(error?.line == 1 && error?.column == 27)
    }

    @Test func outputBytes() throws {
        let limits = TemplateLimits(maxOutputBytes: 100)
        let hundred = String(repeating: "a", count: 100)
        #expect(try render("{{ x }}", data: ["x": .string(hundred)], limits: limits) == hundred)
        expectLimit("{{ x }}!", data: ["x": .string(hundred)], limits, saying: "more than 100 bytes")
        #expect(try render("{% for i in (1..10) %}0123456789{% endfor %}", limits: limits).utf8.count == 100)
        expectLimit("{% for i in (1..10) %}0123456789{% endfor %}é", limits, saying: "output")
    }

    @Test func capturedBytes() throws {
        let limits = TemplateLimits(maxCapturedBytes: 64)
        let body = String(repeating: "c", count: 60)
        #expect(
            try render("{% capture a %}\(body){% endcapture %}{% assign b = 'dddd' %}{{ a.size }}", limits: limits)
                == "60")
        expectLimit(
            "{% capture a %}\(body){% endcapture %}{% assign b = 'ddddd' %}", limits, saying: "more than 64 bytes")
        expectLimit("{% capture a %}\(body)12345{% endcapture %}", limits, saying: "more than 64 bytes")
    }

    @Test func doublingAStringStopsAtALimit() {
        let error = failure(
            "{% assign s = 'xx' %}{% for i in (1..64) %}{% assign s = s | append: s %}{% endfor %}{{ s.size }}")
        #expect(error?.reason == .limit)
    }

    @Test func stringBytes() throws {
        let limits = TemplateLimits(maxStringBytes: 10)
        #expect(try render("{{ 'abcde' | append: 'fghij' }}", limits: limits) == "abcdefghij")
        expectLimit("{{ 'abcde' | append: 'fghijk' }}", limits, saying: "more than 10 bytes")
        #expect(try render("{{ 'aaaaa' | replace: 'a', 'bb' }}", limits: limits) == "bbbbbbbbbb")
        expectLimit("{{ 'aaaaaa' | replace: 'a', 'bb' }}", limits, saying: "more than 10 bytes")
        #expect(try render("{{ s | split: '' | join: '--' }}", data: ["s": "abcd"], limits: limits) == "a--b--c--d")
        expectLimit("{{ s | split: '' | join: '--' }}", data: ["s": "abcde"], limits, saying: "more than 10 bytes")
    }

    @Test func arrayLength() throws {
        let limits = TemplateLimits(maxArrayLength: 10)
        #expect(try render("{{ 'a,b,c,d,e,f,g,h,i,j' | split: ',' | size }}", limits: limits) == "10")
        expectLimit("{{ 'a,b,c,d,e,f,g,h,i,j,k' | split: ',' | size }}", limits, saying: "more than 10 elements")
        #expect(try render("{{ (1..10) | join: '' }}", limits: limits) == "12345678910")
        expectLimit("{{ (1..11) | join: '' }}", limits, saying: "more than 10 elements")
        expectLimit("{% for i in (0..10) %}{% endfor %}", limits, saying: "more than 10 elements")
    }

    @Test func hugeRangesAreRefusedBeforeAnyWork() {
        let error = failure("{% for i in (1..9223372036854775807) limit: 2 %}{{ i }}{% endfor %}")
        #expect(error?.reason == .limit)
        #expect(error?.message == "an array would have more than 100000 elements")
        #expect(failure("{{ (-9223372036854775808..9223372036854775807) | size }}")?.reason == .limit)
    }

    @Test func strftimeWidth() throws {
        let limits = TemplateLimits(maxStrftimeWidth: 256)
        #expect(try render("{{ 'now' | date: '%256d' }}", limits: limits).count == 256)
        expectLimit("{{ 'now' | date: '%257d' }}", limits, saying: "a width of 257 is more than 256")
        expectLimit("{{ 'now' | date: '%5000000000000000000000000d' }}", limits, saying: "more than 256")
        expectLimit("{{ 'now' | date: '%-_^#0300A' }}", limits, saying: "more than 256")
    }

    @Test func nesting() throws {
        let limits = TemplateLimits(maxNesting: 3)
        #expect(
            try render("{% if 1 %}{% if 2 %}{% if 3 %}deep{% endif %}{% endif %}{% endif %}", limits: limits) == "deep")
        expectLimit(
            "{% if 1 %}{% if 2 %}{% if 3 %}{% if 4 %}{% endif %}{% endif %}{% endif %}{% endif %}", limits,
            saying: "nested deeper than 3")
        #expect(try render("{{ a[b[c[0]]] }}", data: ["a": ["x"], "b": [0], "c": [0]], limits: limits) == "x")
        expectLimit("{{ a[b[c[d[0]]]] }}", limits, saying: "brackets nested deeper than 3")
        expectLimit("{% liquid liquid liquid liquid echo 1 %}", limits, saying: "nested deeper than 3")
        let deep = String(repeating: "{% if true %}", count: 100_000) + String(repeating: "{% endif %}", count: 100_000)
        #expect(failure(deep)?.reason == .limit)
    }

    @Test func contentBlockDepth() throws {
        let limits = TemplateLimits(maxContentBlockDepth: 3)
        let blocks = [
            "b1": "1{{content_blocks.${b2}}}", "b2": "2{{content_blocks.${b3}}}", "b3": "3{{content_blocks.${b4}}}",
            "b4": "4",
        ]
        #expect(try render("{{content_blocks.${b2}}}", blocks: blocks, limits: limits) == "234")
        expectLimit("{{content_blocks.${b1}}}", blocks: blocks, limits, saying: "content blocks nested deeper than 3")
    }

    @Test func templateBytes() throws {
        let limits = TemplateLimits(maxTemplateBytes: 20)
        #expect(try Template("{{ 'abcdefghijkl' }}", limits: limits).source.utf8.count == 20)
        let error = Result { try Template("{{ 'abcdefghijklm' }}", limits: limits) }
        guard case .failure(let failure as TemplateError) = error else {
            Issue.record("a 21-byte template parsed")
            return
        }
        #expect(failure.reason == .limit && failure.phase == .parse)
    }

    @Test func integersOutgrowing64BitsAreReportedNotTrapped() throws {
        #expect(try render("{{ 9223372036854775806 | plus: 1 }}") == "9223372036854775807")
        for template in [
            "{{ 9223372036854775807 | plus: 1 }}", "{{ -9223372036854775808 | minus: 1 }}",
            "{{ 4611686018427387904 | times: 2 }}",
            "{{ -9223372036854775808 | abs }}", "{{ -9223372036854775808 | divided_by: -1 }}", "{{ a | sum }}",
            "{{ '99999999999999999999' | plus: 1 }}", "{{ 1e300 | ceil }}",
        ] {
            let error = failure(template, data: ["a": [9223372036854775807, 1]])
            #expect(
                error?.reason == .limit || template.contains("1e300") && error != nil,
                "\(template): \(String(describing: error))")
        }
        #expect(failure("{{ 9223372036854775808 }}")?.phase == .parse)
        #expect(try render("{{ -9223372036854775808 | modulo: -1 }}") == "0")
        #expect(failure("{{ 12345678901234567890.5 | floor }}")?.reason == .limit)
    }
}
