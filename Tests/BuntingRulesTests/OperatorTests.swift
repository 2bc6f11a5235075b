import BuntingJSON
import Testing
@testable import BuntingRules

/// Operator semantics beyond the shared suites: the choices where engines
/// differ, the proposals, and flagd's context.
struct OperatorTests {
    static func check(_ rule: String, _ expected: JSON, sourceLocation: SourceLocation = #_sourceLocation) {
        check(rule, .null, expected, sourceLocation: sourceLocation)
    }

    static func check(_ rule: String, _ data: JSON, _ expected: JSON, sourceLocation: SourceLocation = #_sourceLocation)
    {
        do {
            let result = try evaluate(json(rule), data)
            #expect(sameJSON(result, expected), "\(rule) → \(result.encodedString())", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(rule): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func varFollowsJavaScriptPropertyAccess() {
        Self.check(#"{"var": ["a", "dflt"]}"#, ["a": nil], nil) // a null value is not "undefined"
        Self.check(#"{"var": ["a.b", "dflt"]}"#, ["a": nil], "dflt")
        Self.check(#"{"var": "xs.length"}"#, ["xs": [1, 2, 3]], 3)
        Self.check(#"{"var": "s.length"}"#, ["s": "h🙂"], 3) // UTF-16 code units
        Self.check(#"{"var": "s.1"}"#, ["s": "abc"], "b")
        Self.check(#"{"var": "xs.01"}"#, ["xs": [1, 2]], nil) // not a canonical index
        Self.check(#"{"var": "n.x"}"#, ["n": 5], nil)
        Self.check(#"{"var": 1.5}"#, ["1": ["x", "y"]], nil) // "1.5" is the path 1 → 5
        Self.check(#"{"var": {"cat": ["a", ".b"]}}"#, ["a": ["b": 7]], 7)
    }

    @Test func comparisonsChainAndStopEarly() {
        Self.check(#"{"<": [1, 2, 3, 4]}"#, true)
        Self.check(#"{">": [3, 2, 3]}"#, false)
        Self.check(#"{"==": [1, 1, "1"]}"#, true)
        Self.check(#"{"!==": [1, 2, 1]}"#, true)
        Self.check(#"{"<": [2, 1, {"throw": "not evaluated"}]}"#, false)
        Self.check(#"{"<": ["10", "9"]}"#, true) // two strings compare as strings
        Self.check(#"{"<": ["10", 9]}"#, false)
        Self.check(#"{"==": [null, 0]}"#, false)
        Self.check(#"{"==": [[1], "1"]}"#, true)
        Self.check(#"{"===": [1, 1.0]}"#, true)
    }

    @Test func arithmeticCoercesLikeJavaScript() throws {
        Self.check(#"{"+": [1, "2", true, null, ""]}"#, 4)
        Self.check(#"{"+": ["0x10", " 1e1 "]}"#, 26)
        Self.check(#"{"-": [10, 2, 3]}"#, 5)
        Self.check(#"{"/": [2]}"#, 0.5)
        Self.check(#"{"%": [-7, 3]}"#, -1) // the dividend's sign
        Self.check(#"{"*": []}"#, 1)
        Self.check(#"{"+": {"var": "xs"}}"#, ["xs": [1, 2, 3]], 6) // one operation: its array spreads
        Self.check(#"{"max": {"var": "xs"}}"#, ["xs": [4, 9, 2]], 9)
        Self.check(#"{"+": ["abc", 1]}"#, nil) // NaN is written as null
        Self.check(#"{"/": [1, 0]}"#, nil)
        Self.check(#"{"map": [[1, 0], {"/": [1, {"var": ""}]}]}"#, [1, nil])
        Self.check(#"{"<": [{"+": ["abc"]}, 5]}"#, false) // NaN compares false
        Self.check(#"{"+": [0.1, 0.2]}"#, 0.30000000000000004)
        #expect(try evaluate(json(#"{"+": [1, 1]}"#)) == .integer(2)) // whole results are integers
        #expect(throws: RuleEvaluationError.self) { try evaluate(json(#"{"-": {"var": "xs"}}"#), ["xs": []]) }
    }

    @Test func stringsWorkOnCodeUnits() {
        Self.check(#"{"substr": ["h🙂llo", 1, 2]}"#, "🙂")
        Self.check(#"{"substr": ["héllo", -4, -1]}"#, "éll")
        Self.check(#"{"cat": [1.5, null, true, [1, [2, null]], {}]}"#, "1.5true1,2,[object Object]")
        Self.check(#"{"cat": [1e21, 1e-7, 100]}"#, "1e+211e-7100")
        Self.check(#"{"in": ["é", "cafe\u0301"]}"#, false) // é is not e + ◌́ here
        Self.check(#"{"in": ["e", "cafe\u0301"]}"#, true)
        Self.check(#"{"in": [1, "a1"]}"#, true)
        Self.check(#"{"in": [1, ["1"]]}"#, false) // strict equality in arrays
        Self.check(#"{"in": ["x", ["a", "b", "c", "d", "x"]]}"#, true) // the hashed form of a literal list
        Self.check(#"{"in": ["e\u0301", ["a", "b", "c", "d", "é"]]}"#, false)
        Self.check(#"{"in": ["a", 5]}"#, false)
        // The hashed form: many strings (probing), "", duplicates, a needle from the data.
        let many = (0..<100).map { "\"s\($0)\"" }.joined(separator: ", ")
        Self.check(#"{"in": ["s57", [\#(many)]]}"#, true)
        Self.check(#"{"in": ["s100", [\#(many)]]}"#, false)
        Self.check(#"{"in": ["", ["a", "", "b", "c"]]}"#, true)
        Self.check(#"{"in": ["", ["a", "b", "c", "d"]]}"#, false)
        Self.check(#"{"in": ["é", ["a", "a", "b", "c", "é"]]}"#, true)
        Self.check(#"{"in": [{"var": "x"}, ["a", "b", "c", "d"]]}"#, ["x": "c"], true)
        Self.check(#"{"in": [{"var": "x"}, ["a", "b", "c", "1"]]}"#, ["x": 1], false)
    }

    @Test func iteratorsAndScopes() {
        Self.check(
            #"{"reduce": [{"var": "xs"}, {"+": [{"var": "accumulator"}, {"var": "current.n"}]}, {"var": "start"}]}"#,
            ["xs": [["n": 1], ["n": 2]], "start": 10], 13)
        Self.check(
            #"{"reduce": [[1, 2], {"var": ""}, 0]}"#, ["current": 2, "accumulator": ["current": 1, "accumulator": 0]])
        Self.check(#"{"map": [[10, 20], {"+": [{"val": [[1], "index"]}, {"val": []}]}]}"#, [10, 21])
        Self.check(#"{"map": [[1], {"val": [[2], "k"]}]}"#, ["k": "outer"], ["outer"])
        Self.check(#"{"filter": [[0, 1, "", "a", [], [0]], {"var": ""}]}"#, [1, "a", [0]])
        Self.check(#"{"all": [[], true]}"#, false)
        Self.check(#"{"none": [[], true]}"#, true)
        Self.check(#"{"map": [{"var": "missing"}, 1]}"#, [])
        Self.check(#"{"missing_some": [1, ["a", "b"]]}"#, ["b": ""], ["a", "b"])
        Self.check(#"{"missing": [["a", "b"], "c"]}"#, ["a": 1], ["b"])
    }

    @Test func proposals() throws {
        Self.check(#"{"??": [null, {"var": "x"}, 3]}"#, ["x": false], false)
        Self.check(#"{"exists": ["a", "b"]}"#, ["a": ["b": nil]], true)
        Self.check(#"{"exists": "c"}"#, ["a": 1], false)
        Self.check(#"{"val": ["a", 1]}"#, ["a": [5, 6]], 6)
        Self.check(#"{"val": ["a", -1]}"#, ["a": [5, 6]], 6)
        Self.check(#"{"preserve": {"var": "x"}}"#, ["var": "x"])
        Self.check(#"{"try": [{"throw": {"preserve": {"type": "Bad", "detail": 1}}}, {"val": "detail"}]}"#, 1)
        Self.check(#"{"log": {"+": [1, 2]}}"#, 3)
        #expect(throws: RuleEvaluationError.thrown(["type": "Nope"])) { try evaluate(json(#"{"throw": "Nope"}"#)) }
    }

    @Test func flagdPropertiesAreReadWithoutCopyingTheContext() throws {
        let rule = try JSONLogicRule(
            json(
                #"[{"var": "$flagd.flagKey"}, {"var": "$flagd.timestamp"}, {"var": "$flagd"}, {"val": ["$flagd", "flagKey"]}, {"var": "$flagd.other"}, {"var": "user"}]"#
            ))
        let flagd = FlagdProperties(flagKey: "checkout", timestamp: 1_700_000_000)
        let result = try rule.evaluate(["user": "u1", "$flagd": "shadowed"], flagd: flagd)
        #expect(
            result == [
                "checkout", 1_700_000_000, ["flagKey": "checkout", "timestamp": 1_700_000_000], "checkout", nil, "u1",
            ])
        let whole = try JSONLogicRule(json(#"{"var": ""}"#)).evaluate(["user": "u1"], flagd: flagd)
        #expect(whole == ["user": "u1", "$flagd": ["flagKey": "checkout", "timestamp": 1_700_000_000]])
        #expect(try JSONLogicRule(json(#"{"var": "$flagd.flagKey"}"#)).evaluate(["user": "u1"]) == nil)
    }

    @Test func satisfactionUsesTruthiness() throws {
        let rule = try JSONLogicRule(json(#"{"var": "tags"}"#))
        #expect(try rule.isSatisfied(by: ["tags": ["a"]]))
        #expect(try !rule.isSatisfied(by: ["tags": []]))
        #expect(try !rule.isSatisfied(by: .null))
    }
}
