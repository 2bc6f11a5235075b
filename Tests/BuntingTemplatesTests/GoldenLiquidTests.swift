import BuntingJSON
import Foundation
import Testing
@testable import BuntingTemplates

/// Runs golden-liquid (Tests/BuntingTemplatesTests/Fixtures/golden-liquid),
/// whose expected outputs are Shopify's Liquid's, and requires every case
/// inside Bunting's subset to pass. The cases left out are listed, each
/// group with its reason, in `GoldenLiquidTests.leftOut`.
@Suite struct GoldenLiquidTests {
    struct Case {
        let name: String
        let template: String
        let data: JSON
        let results: [String]
        let invalid: Bool
    }

    /// Groups of golden-liquid outside Bunting's Liquid, by name prefix.
    static let leftOutGroups: [(prefix: String, reason: String)] = [
        ("tags, include", "no file system: a card or banner has no templates to include"),
        ("tags, render", "no file system: a card or banner has no templates to render"),
        ("tags, tablerow", "HTML tables are not part of Braze's personalisation; not in the subset"),
        ("tags, ifchanged", "not in the subset (Braze's documentation does not use it)"),
    ]

    /// Single cases whose expectation holds only for Ruby's lax parser:
    /// Bunting parses strictly, as golden-liquid's `strict2` twin expects.
    static let leftOutCases: [(name: String, reason: String)] = [
        (
            "tags, case, unexpected when token",
            "lax parsing; Bunting refuses the tag, as the strict2 twin of this case expects"
        )
    ]

    static func loadCases() throws -> [Case] {
        let url = TestPaths.fixtures.appendingPathComponent("golden-liquid/golden_liquid.json")
        let document = try JSON.parse(Array(try Data(contentsOf: url)))
        return (document["tests"]?.arrayValue ?? []).map { test in
            var results: [String] = []
            if let result = test["result"]?.stringValue { results = [result] }
            if let many = test["results"]?.arrayValue { results = many.compactMap(\.stringValue) }
            return Case(
                name: test["name"]?.stringValue ?? "", template: test["template"]?.stringValue ?? "",
                data: test["data"] ?? [:], results: results, invalid: test["invalid"]?.boolValue ?? false)
        }
    }

    static func isLeftOut(_ name: String) -> Bool {
        leftOutGroups.contains { name.hasPrefix($0.prefix + ",") } || leftOutCases.contains { $0.name == name }
    }

    /// What Bunting gives for a case: the text, or nil for an error.
    static func outcome(_ test: Case) -> (text: String?, error: TemplateError?) {
        do {
            return (try render(test.template, data: test.data), nil)
        } catch {
            return (nil, error)
        }
    }

    @Test func everyCaseInTheSubsetPasses() throws {
        let cases = try Self.loadCases()
        #expect(cases.count == 1054)
        var passed = 0
        var failed: [String] = []
        var skipped = 0
        for test in cases {
            if Self.isLeftOut(test.name) {
                skipped += 1
                continue
            }
            let (text, error) = Self.outcome(test)
            let ok = test.invalid ? error != nil : text.map(test.results.contains) ?? false
            if ok {
                passed += 1
            } else {
                let got = text.map { "\($0.debugDescription)" } ?? "error \(error!)"
                failed.append(
                    "\(test.name): \(test.template.debugDescription) gave \(got), expected "
                        + "\(test.invalid ? "an error" : test.results.debugDescription)")
            }
        }
        print("golden-liquid: \(passed) passed, \(failed.count) failed, \(skipped) skipped")
        for line in failed.prefix(80) { print("  FAILED \(line)") }
        #expect(failed.isEmpty, "\(failed.count) golden-liquid cases inside the subset failed")
        #expect(passed >= 850)
    }

    /// The groups left out are really out: each still names cases.
    @Test func theLeftOutListIsCurrent() throws {
        let names = try Self.loadCases().map(\.name)
        for group in Self.leftOutGroups {
            #expect(names.contains { $0.hasPrefix(group.prefix + ",") }, "\(group.prefix) names no case")
        }
        for single in Self.leftOutCases {
            #expect(names.contains(single.name), "\(single.name) is no case")
        }
    }
}
