import BuntingJSON
import Testing
@testable import BuntingRules

/// Shared evaluators that refer to each other in hostile shapes: long
/// chains, chains that nest, chains that double, cycles. Each must compile
/// in time and memory proportional to the document, never recurse once per
/// link, and refuse what it must with a message of bounded length.
struct EvaluatorGraphTests {
    /// `e0` is a rule; `e_i` is `link(e_{i-1})`; listed last-first, as the
    /// report's document was (the last evaluator is compiled first).
    static func chain(_ count: Int, link: (String) -> JSON) -> JSONObject {
        var evaluators = JSONObject()
        for index in stride(from: count - 1, through: 1, by: -1) { evaluators["e\(index)"] = link("e\(index - 1)") }
        evaluators["e0"] = ["==": [["var": "x"], 1]]
        return evaluators
    }

    static func reference(_ name: String) -> JSON { ["$ref": .string(name)] }

    /// 5,000 aliases in a row overflowed the stack (a recursion per link).
    @Test func aChainOfFiveThousandAliasesCompilesWithoutRecursionAndIsRefusedPastItsLimit() {
        let evaluators = RuleEvaluators(Self.chain(5_000, link: Self.reference))
        #expect(evaluators.names.count == EvaluatorOrder.maxChain + 1)
        #expect(evaluators.problems.count == 5_000 - EvaluatorOrder.maxChain - 1)
        let first = evaluators.problems.first { $0.pointer == "/$evaluators/e\(EvaluatorOrder.maxChain + 1)" }
        #expect(first?.message.contains("more than \(EvaluatorOrder.maxChain) $refs in a row") == true)
        // Within the limit, a rule through the chain evaluates as the root does.
        let rule = try? JSONLogicRule(Self.reference("e\(EvaluatorOrder.maxChain)"), evaluators: evaluators)
        #expect((try? rule?.evaluate(["x": 1])) == .bool(true))
    }

    /// `{"!": {"$ref": previous}}` chains: each refusal quoted the one before,
    /// 2.4 GB of messages at 5,000 links.
    @Test func refusalsAlongAChainDoNotQuoteEachOther() {
        let evaluators = RuleEvaluators(Self.chain(5_000, link: { ["!": Self.reference($0)] }))
        #expect(!evaluators.problems.isEmpty)
        let longest = evaluators.problems.map(\.message.utf8.count).max() ?? 0
        #expect(longest < 400, "a refusal's message grew with the chain: \(longest) bytes")
        let total = evaluators.problems.reduce(0) { $0 + $1.message.utf8.count + $1.pointer.utf8.count }
        #expect(total < 5_000 * 400)
    }

    /// `e_i = [e_{i-1}, e_{i-1}]`: a few kilobytes that stand for 2^i operations.
    @Test func aDoublingChainIsRefusedOnceItStandsForTooManyOperations() throws {
        let evaluators = RuleEvaluators(Self.chain(40, link: { ["or": [Self.reference($0), Self.reference($0)]] }))
        let limit = JSONLogicRule.maxOperations
        // e_i stands for 2^(i+1) - 1 operations.
        let lastAllowed = (0..<40).last { (1 << ($0 + 1)) - 1 <= limit }!
        #expect(evaluators.names.contains("e\(lastAllowed)"))
        #expect(!evaluators.names.contains("e\(lastAllowed + 1)"))
        let refusal = evaluators.problems.first { $0.pointer.hasPrefix("/$evaluators/e\(lastAllowed + 1)") }
        #expect(refusal?.message.contains("more than \(limit) operations") == true)
        // A flag's rule that doubles once more than allowed is refused, at its own pointer.
        #expect(throws: RuleCompileError.self) {
            _ = try JSONLogicRule(
                ["and": [Self.reference("e\(lastAllowed)"), Self.reference("e\(lastAllowed)")]], evaluators: evaluators)
        }
    }

    @Test func aCycleOfThousandsIsRefusedWithAShortMessageForEachMember() {
        var evaluators = JSONObject()
        for index in 0..<3_000 { evaluators["c\(index)"] = Self.reference("c\((index + 1) % 3_000)") }
        evaluators["outside"] = Self.reference("c0")
        let compiled = RuleEvaluators(evaluators)
        #expect(compiled.names.isEmpty)
        #expect(compiled.problems.count == 3_001)
        #expect(compiled.problems.allSatisfy { $0.message.utf8.count < 400 })
        #expect(
            compiled.problems.first?.message.contains(
                "refers to itself (c0 → c1 → c2 → c3 → c4 → c5 → … (3000 evaluators))") == true)
        #expect(compiled.problems.first?.pointer == "/$evaluators/c0/$ref")
        #expect(compiled.problems.last?.message.contains("is invalid") == true)
    }

    /// Evaluators whose names are canonically equivalent are two evaluators.
    @Test func evaluatorsAreNamedByTheirBytes() throws {
        let evaluators = RuleEvaluators(["caf\u{E9}": true, "cafe\u{301}": false])
        #expect(evaluators.problems.isEmpty)
        #expect(try JSONLogicRule(Self.reference("caf\u{E9}"), evaluators: evaluators).evaluate(.null) == true)
        #expect(try JSONLogicRule(Self.reference("cafe\u{301}"), evaluators: evaluators).evaluate(.null) == false)
    }

    /// The flags of one round share a budget: 200 flags that each spend most
    /// of their own held a user change for seconds.
    @Test func flagsOfOneRoundShareAWorkBudget() throws {
        // About 300,000 units a flag: under each flag's own budget.
        var flags = JSONObject()
        for index in 0..<200 {
            flags["f\(index)"] = [
                "state": "ENABLED", "variants": ["on": true, "off": false], "defaultVariant": "off",
                "targeting": ["if": [["some": [["var": "xs"], ["==": [["var": ""], -1]]]], "on", "off"]],
            ]
        }
        let set = try FlagSet(document: ["flags": .object(flags)])
        let context: JSON = ["xs": .array(Array(repeating: 1, count: 100_000))]
        let results = set.resolveAll(context: context, timestamp: 0)
        let spent = results.filter { $0.errorMessage?.contains("work budget of this round") == true }
        let answered = results.filter { $0.reason == .targetingMatch }
        #expect(!answered.isEmpty && !spent.isEmpty)
        #expect(answered.count + spent.count == 200)
        #expect(answered.count * 300_000 <= WorkBudget.forRound(of: 200).units + 300_000)
        // One flag on its own has the whole of its own budget.
        #expect(set.resolve(flagKey: "f199", context: context, timestamp: 0).reason == .targetingMatch)
    }
}
