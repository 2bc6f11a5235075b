import BuntingJSON
import Foundation
import Testing
@testable import BuntingTemplates

/// Renders the same generated templates and data with BuntingTemplates and
/// with python-liquid 2.3.6 (`Tests/python/liquid_oracle.py`, in the
/// environment `scripts/setup --test` makes), and requires the same text,
/// or an error on both sides, for every case. The generator stays out of
/// the known divergences, each of which `knownDivergencesAreReal` shows on
/// an input of its own, with golden-liquid's (Ruby's) answer on Bunting's side.
@Suite(.serialized)
struct LiquidDifferentialTests {
    static let caseCount = 5_000
    static let venv = ".build/venv/python-liquid"

    static var python: URL? {
        let url = TestPaths.packageRoot.appendingPathComponent("\(venv)/bin/python")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    struct Answer: Equatable {
        var text: String?
        var error: String?
    }

    /// python-liquid's answers, one per case.
    static func oracle(_ cases: [(template: String, data: JSON)]) throws -> [Answer] {
        guard let python else {
            Issue.record("python-liquid is missing: run scripts/setup --test (it makes \(venv))")
            return []
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("liquid-cases-\(getpid()).ndjson")
        var lines: [UInt8] = []
        for (template, data) in cases {
            JSON.object(["template": .string(template), "data": data]).encode(appendingTo: &lines)
            lines.append(UInt8(ascii: "\n"))
        }
        try Data(lines).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = try OracleProcess(
            python: python, script: TestPaths.packageRoot.appendingPathComponent("Tests/python/liquid_oracle.py"),
            input: input,
            environment: ["TZ": "UTC"])
        return try process.finish().map { line in
            let answer = json(String(line))
            return Answer(text: answer["text"]?.stringValue, error: answer["error"]?.stringValue)
        }
    }

    static func bunting(_ template: String, _ data: JSON) -> Answer {
        do {
            return Answer(text: try render(template, data: data), error: nil)
        } catch {
            return Answer(text: nil, error: error.description)
        }
    }

    @Test func generatedTemplatesMatchPythonLiquid() throws {
        var generator = LiquidCaseGenerator(seed: 0x119_01D)
        let cases = (0..<Self.caseCount).map { _ in (template: generator.template(), data: generator.data()) }
        let answers = try Self.oracle(cases)
        guard answers.count == cases.count else {
            Issue.record("the oracle answered \(answers.count) of \(cases.count) cases")
            return
        }
        var mismatches: [String] = []
        var errors = 0
        for (index, (test, expected)) in zip(cases, answers).enumerated() {
            let ours = Self.bunting(test.template, test.data)
            if expected.error != nil { errors += 1 }
            let same = expected.error != nil ? ours.error != nil : ours.text == expected.text
            if !same {
                mismatches.append(
                    "case \(index): \(test.template.debugDescription)\n    data \(test.data.encodedString())\n "
                        + "   python-liquid \(expected.text?.debugDescription ?? expected.error!)\n "
                        + "   bunting       \(ours.text?.debugDescription ?? ours.error!)"
                )
            }
        }
        print(
            "liquid differential: \(cases.count) cases, "
                + "\(mismatches.count) mismatches, \(errors) errors on both sides")
        for mismatch in mismatches.prefix(25) { print("  MISMATCH \(mismatch)") }
        #expect(mismatches.count == 0)
        // The cases must mostly render, or the comparison says little.
        #expect(errors < cases.count / 5)
    }
}

/// Where python-liquid 2.3.6 and Shopify's Liquid (Ruby, the reference of
/// golden-liquid) answer differently, and Bunting answers as Ruby does; or,
/// for the last ones, where Bunting itself departs from both. The generator
/// of the differential test stays out of each.
struct KnownDivergence: Sendable {
    let name: String
    let template: String
    let data: JSON
    /// Bunting's answer (Ruby's), or nil for an error.
    let bunting: String?
    let reason: String

    static let all: [KnownDivergence] = [
        KnownDivergence(
            name: "limitZero", template: "{% for i in (1..3) limit: 0 %}{{ i }}{% endfor %}", data: [:],
            bunting: "",
            reason: "`limit: 0` takes no items in Ruby; python-liquid reads 0 as no limit"),
        KnownDivergence(
            name: "booleanText", template: "{{ true | append: '!' }}", data: [:], bunting: "true!",
            reason: "string filters see Ruby's `true.to_s`; python-liquid's str(True)"),
        KnownDivergence(
            name: "booleanArithmetic", template: "{{ true | plus: 1 }}", data: [:], bunting: "1",
            reason: "Ruby's to_number reads true as 0; Python's True is 1"),
        KnownDivergence(
            name: "emptyRangeText", template: "{{ (3..1) }}", data: [:], bunting: "3..1",
            reason: "Ruby prints a range as written; python-liquid prints an empty one as 0..-1"),
        KnownDivergence(
            name: "nilThroughStringFilters",
            template: "{% assign x = nosuch | escape %}{% if x == nil %}nil{% endif %}", data: [:], bunting: "nil",
            reason: "Ruby's escape, url_encode, truncate and truncatewords "
                + "give nil for nil; python-liquid gives ''"),
        KnownDivergence(
            name: "nilFromFirst", template: "{{ a | first | slice: -4 }}", data: ["a": []], bunting: "",
            reason: "the first of an empty array is nil, an empty string "
                + "to slice; python-liquid slices the text 'None'"),
        KnownDivergence(
            name: "floatModulo", template: "{{ -3.6 | modulo: 2 }}", data: [:], bunting: "0.4",
            reason: "BigDecimal's % is floored (the divisor's sign); python-liquid's Decimal % truncates"),
        KnownDivergence(
            name: "floatDivision", template: "{{ 9.4 | divided_by: 2.5 }}", data: [:], bunting: "3.76",
            reason: "Ruby divides the decimals (BigDecimal); python-liquid divides binary floats"),
        KnownDivergence(
            name: "blankBranchWhitespace",
            template: "{% if false %}{{ 'x' }}{% elsif true %}{% unless true %}{% endunless %} {% endif %}|",
            data: [:], bunting: " |",
            reason: "Ruby drops whitespace only when every branch of the block is blank (golden-liquid: "
                + "\"don't suppress whitespace only blocks containing output in "
                + "unreachable blocks\"); python-liquid drops it from this branch"
        ),
        KnownDivergence(
            name: "truncateExactLength", template: "{{ 'abcde' | truncate: 5 }}", data: [:], bunting: "abcde",
            reason: "Ruby truncates only a longer text; python-liquid one of exactly the length too"),
        KnownDivergence(
            name: "truncateShorterThanEllipsis", template: "{{ 'x-y-z' | truncate: 0 }}", data: [:], bunting: "...",
            reason: "Ruby keeps at least nothing of the text before "
                + "the ellipsis; python-liquid slices from the end"),
        KnownDivergence(
            name: "truncatewordsExactCount", template: "{{ 'one two' | truncatewords: 2 }}", data: [:],
            bunting: "one two",
            reason: "Ruby adds the ellipsis only when words were dropped"),
        KnownDivergence(
            name: "leadingDigits", template: "{{ '35 pts' | minus: 3 }}", data: [:], bunting: "32",
            reason: "Ruby's to_i reads leading digits; python-liquid reads 0"),
        KnownDivergence(
            name: "sliceBeforeTheStart", template: "{{ 'v' | slice: -2, 2 }}", data: [:], bunting: "",
            reason: "Ruby's slice gives nil for a start before the beginning; Python's slicing clamps"),
        KnownDivergence(
            name: "sortNaturalFoldsASCII", template: "{{ 'é café,ÉCOLE' | split: ',' | sort_natural | first }}",
            data: [:], bunting: "ÉCOLE",
            reason: "Ruby's casecmp folds ASCII letters only; Python lower-cases every letter"),
        KnownDivergence(
            name: "finalNewlineAfterTrim", template: "{{ 1 -}}(\n", data: [:], bunting: "1(\n",
            reason: "`-}}` strips the whitespace after it, not a final newline further on"),
        KnownDivergence(
            name: "escapeApostrophe", template: "{{ \"'\" | escape }}", data: [:], bunting: "&#39;",
            reason: "CGI.escapeHTML writes &#39;, Python's html.escape &#x27;"),
        KnownDivergence(
            name: "roundHalfUp", template: "{{ 2.5 | round }} {{ 1.005 | round: 2 }}", data: [:], bunting: "3 1.01",
            reason: "BigDecimal rounds the decimal half away from "
                + "zero; Python rounds the binary float half to even"),
        KnownDivergence(
            name: "floatExponent", template: "{{ 100000000000000000000.0 }}", data: [:], bunting: "1.0e+20",
            reason: "Ruby's Float#to_s"),
        KnownDivergence(
            name: "nestedArrayOutput", template: "{{ a }}", data: ["a": [1, [2, 3], nil, "s"]], bunting: "123s",
            reason: "Ruby flattens arrays when it prints them, and prints nil as nothing"),
        KnownDivergence(
            name: "objectOutput", template: "{{ h }}", data: ["h": ["a": 1]], bunting: "{\"a\"=>1}",
            reason: "Liquid's own Hash#inspect"),
        KnownDivergence(
            name: "integerSize", template: "{{ 5 | size }}", data: [:], bunting: "8",
            reason: "Ruby's Integer#size is its size in bytes"),
        KnownDivergence(
            name: "blankNil", template: "{% if nil == blank %}T{% else %}F{% endif %}", data: [:], bunting: "T",
            reason: "golden-liquid: nil is equal to blank"),
        KnownDivergence(
            name: "emptyOutput", template: "{{ }}", data: [:], bunting: "",
            reason: "Ruby prints nothing for an empty output; python-liquid refuses it"),
        // Bunting's own choices.
        KnownDivergence(
            name: "filterCheckedAtParse", template: "{% if false %}{{ x | nope }}{{ 'a' | append }}{% endif %}",
            data: [:], bunting: nil,
            reason: "an unknown filter or a wrong number of arguments is refused when the document "
                + "loads, even in a branch no user reaches; Ruby and python-liquid fail "
                + "only when it runs (Ruby passes an unknown filter's input through)"
        ),
        KnownDivergence(
            name: "bigIntegers", template: "{{ 9223372036854775807 | plus: 1 }}", data: [:], bunting: nil,
            reason: "Bunting's integers are 64-bit: past them is TEMPLATE_LIMIT, never a wrong number"),
    ]
}

extension LiquidDifferentialTests {
    @Test func knownDivergencesAreReal() throws {
        let cases = KnownDivergence.all.map { (template: $0.template, data: $0.data) }
        let answers = try Self.oracle(cases)
        guard answers.count == cases.count else {
            Issue.record("the oracle answered \(answers.count) of \(cases.count) cases")
            return
        }
        for (divergence, python) in zip(KnownDivergence.all, answers) {
            let ours = Self.bunting(divergence.template, divergence.data)
            #expect(ours.text == divergence.bunting, "\(divergence.name): Bunting gave \(ours.text ?? ours.error!)")
            if divergence.bunting == nil { #expect(ours.error != nil, "\(divergence.name): Bunting rendered it") }
            #expect(python != ours, "\(divergence.name): python-liquid now agrees; the divergence is gone")
        }
    }
}
