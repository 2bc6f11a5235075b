import BuntingJSON
import Foundation
import Testing
@testable import BuntingExperiments

/// The `$regex` matcher: JavaScript's answers (from node, the engine of
/// GrowthBook's JavaScript SDK, on generated patterns), its bounds, and
/// what it refuses.
@Suite struct RegexTests {
    static func compile(_ pattern: String, ignoreCase: Bool = false) throws(RegexCompileError) -> JavaScriptRegex {
        try JavaScriptRegex(pattern: pattern, ignoreCase: ignoreCase, maxLength: PayloadLimits.default.maxPatternLength)
    }

    static func test(_ pattern: String, _ text: String, ignoreCase: Bool = false) -> Bool? {
        guard let regex = try? compile(pattern, ignoreCase: ignoreCase) else { return nil }
        var steps = 1_000_000
        return regex.test(text, steps: &steps)
    }

    @Test func commonPatternsMatchAsInJavaScript() {
        let cases: [(String, String, Bool, Bool)] = [
            ("^ping", "pingpong", false, true), ("-12-25$", "1980-12-25", false, true),
            ("-12-25$", "1980-12-25x", false, false),
            ("(Mobile|Tablet)", "Android Mobile", false, true), ("(mobile|tablet)", "Android Mobile", true, true),
            ("^\\d{3}-\\d{4}$", "555-1234", false, true), ("^[a-z]+@[a-z]+\\.com$", "ada@example.com", false, true),
            ("colou?r", "color", false, true), ("a.c", "a\nc", false, false), ("\\bcat\\b", "a cat!", false, true),
            ("\\bcat\\b", "concat", false, false), ("(a)\\1", "aa", false, true),
            ("(?<x>ab)\\k<x>", "abab", false, true),
            ("a(?=b)", "ab", false, true), ("a(?!b)", "ab", false, false), ("[^abc]", "abc", false, false),
            ("x*", "", false, true), ("(a*)*b", "aaab", false, true), ("\\u00e9", "é", false, true),
            ("É", "é", true, true),
            ("]", "]", false, true), ("a{,2}", "a{,2}", false, true), ("\\8", "8", false, true),
            ("\\cJ", "\n", false, true),
        ]
        for (pattern, text, ignoreCase, expected) in cases {
            #expect(
                Self.test(pattern, text, ignoreCase: ignoreCase) == expected,
                "/\(pattern)/\(ignoreCase ? "i" : "") on \(text)")
        }
    }

    @Test func invalidPatternsAreRefusedAsJavaScriptRefusesThem() {
        for pattern in ["/???***[)", "(", "a)", "[b-a]", "*a", "a**", "\\", "(?<n>a)(?<n>b)", "x{2,1}", "(?x)"] {
            #expect(throws: RegexCompileError.self, "\(pattern)") { try Self.compile(pattern) }
            if case .invalid? = Self.compileError(pattern) {} else { Issue.record("\(pattern) should be invalid") }
        }
    }

    @Test func lookbehindIsUnsupportedNotInvalid() {
        #expect(Self.compileError("(?<=a)b") == .unsupported("a lookbehind assertion"))
        #expect(Self.compileError("(?<!a)b") == .unsupported("a lookbehind assertion"))
    }

    static func compileError(_ pattern: String) -> RegexCompileError? {
        do {
            _ = try compile(pattern)
            return nil
        } catch {
            return error
        }
    }

    /// Catastrophic backtracking stops at its budget instead of running for
    /// seconds, and a budget that suffices gives the answer.
    @Test func backtrackingStopsAtTheBudget() throws {
        let regex = try Self.compile("^(a+)+$")
        let text = String(repeating: "a", count: 40) + "!"
        var steps = 100_000
        #expect(regex.test(text, steps: &steps) == nil)
        #expect(steps == 0)
        var enough = 1_000_000
        #expect(regex.test("aaaa", steps: &enough) == true)
        #expect(enough < 1_000_000)
    }

    /// Patterns compile to a bounded program: counted repetitions are
    /// copied out, and past the instruction limit the pattern is refused.
    @Test func repetitionIsBounded() {
        #expect(Self.compileError("a{1000}") == nil)
        #expect(Self.compileError("(a{1000}){1000}") == .tooComplex(limit: RegexProgram.maxInstructions))
        #expect(Self.compileError("(?:(?:){9999}){9999}") == .tooComplex(limit: RegexProgram.maxInstructions))
        #expect(Self.test("^a{3}$", "aaa") == true)
        #expect(Self.test("^a{2,3}$", "aaaa") == false)
    }

    @Test func groupNestingIsBounded() {
        let deep =
            String(repeating: "(", count: RegexParser.maxDepth) + "a"
            + String(repeating: ")", count: RegexParser.maxDepth)
        #expect(Self.compileError(deep) == nil)
        let tooDeep = "(" + deep + ")"
        #expect(Self.compileError(tooDeep) == .tooDeep(limit: RegexParser.maxDepth))
    }

    /// A long text is matched without recursion: no stack overflow however
    /// many iterations a loop takes.
    @Test func longTextsNeedNoStack() {
        let text = String(repeating: "ab", count: 50_000)
        #expect(Self.test("^(ab)*$", text) == true)
        #expect(Self.test("^(?:a|b)*c", text) == false)
    }

    // MARK: - Against JavaScript

    static let atoms = [
        "a", "b", "c", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "[ab]", "[^a]", "[a-c]", "[\\d_]", "\\b", "\\B", "^",
        "$",
        "(a)", "(?:ab)", "(a|b)", "(?=a)", "(?!b)", "\\1", "A", "\\.", "-", "é", "\\x41", "\\u0062", "[", "]", "{", "}",
        "(",
        ")", "|", "\\", "\\0", "\\2", "\\c", "(?<n>a)", "\\k<n>",
    ]
    static let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?", "{,1}", "{1"]

    static func pattern(_ generator: inout SeededGenerator) -> String {
        var pattern = ""
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            pattern += generator.pick(atoms) + generator.pick(quantifiers)
        }
        return pattern
    }

    static func text(_ generator: inout SeededGenerator) -> String {
        let alphabet = ["a", "b", "c", "A", "B", "1", "_", " ", ".", "-", "\n", "é", "É", "{", "}"]
        return (0..<Int.random(in: 0...8, using: &generator)).map { _ in generator.pick(alphabet) }.joined()
    }

    /// Generated patterns and texts, matched by node's RegExp and here: the
    /// same answer, or both refusing the pattern. Lookbehind is not
    /// generated; patterns this matcher calls unsupported would be counted.
    @Test func generatedPatternsMatchNode() throws {
        guard
            let node = ["/usr/bin/node", "/usr/bin/nodejs", "/usr/local/bin/node"].first(
                where: FileManager.default.isExecutableFile)
        else {
            Issue.record("node is not installed (scripts/setup --test installs it)")
            return
        }
        var generator = SeededGenerator(seed: 0x5EED_0F_2E6E)
        var cases: [(String, Bool, String)] = []
        for _ in 0..<6_000 {
            cases.append((Self.pattern(&generator), generator.chance(0.3), Self.text(&generator)))
        }
        let lines = cases.map { JSON.array([.string($0.0), .string($0.1 ? "i" : ""), .string($0.2)]).encodedString() }
        let input = try OracleProcess.inputFile(lines)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/js/regex_oracle.mjs")
        let answers = try OracleProcess(executable: URL(fileURLWithPath: node), arguments: [script.path], input: input)
            .finish()
        #expect(answers.count == cases.count)
        var mismatches: [String] = []
        var invalid = 0
        for ((pattern, ignoreCase, text), answer) in zip(cases, answers) {
            let mine: String
            do {
                let regex = try Self.compile(pattern, ignoreCase: ignoreCase)
                var steps = 1_000_000
                mine = regex.test(text, steps: &steps).map { $0 ? "true" : "false" } ?? "out of steps"
            } catch .invalid {
                mine = "\"invalid\""
                invalid += 1
            } catch {
                mine = "\(error)"
            }
            if mine != answer {
                mismatches.append(
                    "/\(pattern)/\(ignoreCase ? "i" : "") on "
                        + "\(JSON.string(text).encodedString()): node \(answer), here \(mine)")
            }
        }
        print("regex vs node: \(cases.count) cases (\(invalid) invalid patterns), \(mismatches.count) mismatches")
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) differ; first: \(mismatches.prefix(10).joined(separator: "\n"))")
    }
}
