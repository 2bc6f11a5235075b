import BuntingJSON
import Testing
@testable import BuntingRules

/// jsonlogic.com's official test vectors: every case must pass.
struct OfficialTestsTests {
    @Test func everyOfficialCasePasses() throws {
        guard case .array(let entries) = try loadJSON(TestPaths.fixture("json-logic/tests.json")) else {
            Issue.record("tests.json is not an array")
            return
        }
        var cases = 0
        var failures: [String] = []
        for entry in entries {
            guard case .array(let parts) = entry, parts.count == 3 else { continue }
            cases += 1
            let (rule, data, expected) = (parts[0], parts[1], parts[2])
            do {
                let result = try evaluate(rule, data)
                if !sameJSON(result, expected) {
                    failures.append(
                        "\(rule.encodedString()) with \(data.encodedString()): got "
                            + "\(result.encodedString()), expected \(expected.encodedString())")
                }
            } catch {
                failures.append("\(rule.encodedString()) with \(data.encodedString()): \(error)")
            }
        }
        #expect(cases >= 270)
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(cases) failed:\n\(failures.prefix(30).joined(separator: "\n"))")
    }
}
