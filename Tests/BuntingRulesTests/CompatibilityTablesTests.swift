import BuntingJSON
import Foundation
import Testing
@testable import BuntingRules

/// The cross-engine suites of json-logic/compat-tables (and the extra suites
/// of json-logic-engine), case by case: every case must pass except those
/// named in `Fixtures/expectations/compat-tables-failures.txt`, and every case
/// named there must still fail. A fix therefore cannot hide a regression
/// elsewhere: when a listed case starts to pass, the list is shortened in the
/// same change, deliberately. The README (JSONLogic compatibility) explains
/// the deliberate differences; the test prints the score table it shows.
struct CompatibilityTablesTests {
    /// One case of a suite. `id` names it in the expectations file: the
    /// suite, the case's position among the suite's cases (descriptions are
    /// not unique) and its description.
    struct Case {
        var id: String
        var passed: Bool
        /// What went wrong, for a failing case.
        var detail: String
    }

    struct Score {
        var suite: String
        var cases: [Case] = []
        var passed: Int { cases.filter(\.passed).count }
    }

    static let expectationsFile = TestPaths.fixture("expectations/compat-tables-failures.txt")

    static func run(suite: String, at url: URL) throws -> Score {
        var score = Score(suite: suite)
        guard case .array(let entries) = try loadJSON(url) else { return score }
        for entry in entries {
            guard case .object(let test) = entry, let rule = test["rule"] else { continue }
            let position = score.cases.count + 1
            let description = test["description"]?.stringValue ?? rule.encodedString()
            let data = test["data"] ?? .null
            let outcome: Result<JSON, any Error> = Result { try evaluate(rule, data) }
            let passed: Bool
            switch (outcome, test["error"]) {
            case (.success(let result), nil): passed = sameJSON(result, test["result"] ?? .null)
            case (.failure, _?): passed = true
            default: passed = false
            }
            let got: String
            switch outcome {
            case .success(let result): got = result.encodedString()
            case .failure(let error): got = "error \(error)"
            }
            let expected =
                test["error"].map { "error \($0.encodedString())" } ?? (test["result"] ?? .null).encodedString()
            score.cases.append(
                Case(
                    id: "\(suite) #\(position): \(description)", passed: passed,
                    detail: "\(rule.encodedString()) | \(data.encodedString()) → \(got), expected \(expected)"))
        }
        return score
    }

    static func allScores() throws -> [Score] {
        let compat = TestPaths.fixture("compat-tables/suites")
        guard case .array(let index) = try loadJSON(compat.appendingPathComponent("index.json")) else { return [] }
        var scores: [Score] = []
        for case .string(let name) in index {
            scores.append(try run(suite: name, at: compat.appendingPathComponent(name)))
        }
        let engine = TestPaths.fixture("json-logic-engine/suites")
        for name in [
            "arithmetic/max.json", "arithmetic/min.json", "empty-objects.json", "length.json",
            "preserve.json", "unknown-operators.json",
        ] {
            scores.append(try run(suite: "json-logic-engine/" + name, at: engine.appendingPathComponent(name)))
        }
        return scores
    }

    /// The case ids of the expectations file: one per line; blank lines and
    /// lines starting with `#` are comments.
    static func expectedFailures() throws -> [String] {
        let text = try String(contentsOf: expectationsFile, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { String($0) }
            .filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
    }

    @Test func everyCasePassesExceptTheNamedFailures() throws {
        let scores = try Self.allScores()
        var table = "| suite | passed |\n|---|---|\n"
        for score in scores { table += "| \(score.suite) | \(score.passed)/\(score.cases.count) |\n" }
        let passed = scores.reduce(0) { $0 + $1.passed }
        let total = scores.reduce(0) { $0 + $1.cases.count }
        table += "| **all** | \(passed)/\(total) |\n"
        print(table)

        let expected = try Self.expectedFailures()
        let expectedSet = Set(expected)
        #expect(expected.count == expectedSet.count, "the expectations file lists a case twice")
        let cases = scores.flatMap(\.cases)
        let known = Set(cases.map(\.id))
        let stale = expected.filter { !known.contains($0) }
        #expect(
            stale.isEmpty,
            "listed as failing but no such case (fix the id or remove the line):\n\(stale.joined(separator: "\n"))"
        )

        let regressions = cases.filter { !$0.passed && !expectedSet.contains($0.id) }
        let fixed = cases.filter { $0.passed && expectedSet.contains($0.id) }
        let currentList = cases.filter { !$0.passed }.map(\.id).joined(separator: "\n")
        #expect(
            regressions.isEmpty,
            """
            \(regressions.count) case(s) fail that are expected to pass:
            \(regressions.map { "\($0.id)\n    \($0.detail)" }.joined(separator: "\n"))
            """)
        #expect(
            fixed.isEmpty,
            """
            \(fixed.count) case(s) listed as failing now pass; remove them from \(Self.expectationsFile.lastPathComponent):
            \(fixed.map(\.id).joined(separator: "\n"))
            """)
        if !regressions.isEmpty || !fixed.isEmpty {
            print("== the failing cases now (the expectations file's lines):\n\(currentList)")
        }
        // jsonlogic.com's own suite has no excuses.
        #expect(!expected.contains { $0.hasPrefix("compatible.json ") }, "compatible.json must pass in full")
    }
}
