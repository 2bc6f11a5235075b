import BuntingJSON
@testable import BuntingRules
import Testing

/// Rules compiled with the same `SharedRuleParts` share the nodes of parts
/// written exactly alike, and only those.
@Suite struct SharedRulePartsTests {
    private func rule(_ text: String, _ shared: SharedRuleParts, maxDepth: Int = JSONLogicRule.defaultMaxDepth) throws
        -> JSONLogicRule
    {
        try JSONLogicRule(try JSON.parse(text), sharing: shared, maxDepth: maxDepth)
    }

    @Test func partsWrittenAlikeAreOneNode() throws {
        let shared = SharedRuleParts()
        let first = try rule(#"{"if": [{"in": [{"var": "country"}, ["NO", "SE"]]}, "on", "off"]}"#, shared)
        let second = try rule(#"{"if": [{"in": [{"var": "country"}, ["NO", "SE"]]}, "on", "off"]}"#, shared)
        let third = try rule(#"{"and": [{"in": [{"var": "country"}, ["NO", "SE"]]}, {"var": "beta"}]}"#, shared)
        #expect(first.root === second.root)
        let condition = try #require((first.root as? Node.IfThenElse)?.test)
        #expect((third.root as? Node.And)?.operands.nodes.first === condition)
        #expect(try first.evaluate(["country": "SE"]) == "on")
        #expect(try third.evaluate(["country": "SE", "beta": true]) == true)
    }

    @Test func partsWrittenDifferentlyStayApart() throws {
        let shared = SharedRuleParts()
        // Canonically equivalent strings (Swift's == says equal), 1 and 1.0,
        // and members in another order are different rules.
        let composed = try rule(#"{"==": [{"var": "name"}, "é"]}"#, shared)
        let decomposed = try rule(#"{"==": [{"var": "name"}, "e\u0301"]}"#, shared)
        #expect(composed.root !== decomposed.root)
        #expect(try composed.evaluate(["name": "é"]) == true)
        #expect(try decomposed.evaluate(["name": "é"]) == false)
        let integer = try rule(#"{"cat": [1]}"#, shared)
        let real = try rule(#"{"cat": [1.0]}"#, shared)
        #expect(integer.root !== real.root)
        let ordered = try rule(#"{"preserve": {"a": 1, "b": 2}}"#, shared)
        let reordered = try rule(#"{"preserve": {"b": 2, "a": 1}}"#, shared)
        #expect(ordered.root !== reordered.root)
        #expect(try ordered.evaluate([:]).encodedString() != reordered.evaluate([:]).encodedString())
    }

    /// A part that compiled deep enough down may be too deep elsewhere: it is
    /// refused there, with the pointer and message it would get unshared.
    @Test func aSharedPartStillObeysTheDepthLimitWhereItIsUsed() throws {
        let shared = SharedRuleParts()
        let part = #"{"!": [{"!": [{"var": "x"}]}]}"#
        _ = try rule(part, shared, maxDepth: 6)
        let deeper = #"{"and": [{"or": [\#(part)]}]}"#
        let unshared = #expect(throws: RuleCompileError.self) {
            try JSONLogicRule(try JSON.parse(deeper), maxDepth: 6)
        }
        let sharedError = #expect(throws: RuleCompileError.self) { try rule(deeper, shared, maxDepth: 6) }
        #expect(sharedError?.pointer == unshared?.pointer)
        #expect(sharedError?.message == unshared?.message)
    }
}
