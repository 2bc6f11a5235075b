import BuntingCore
import BuntingJSON
import BuntingRules
import Testing
@testable import BuntingDefinitions

/// Documents built to crash or stall whoever loads them: each must load (or
/// be refused) in time and memory proportional to its size, and evaluating
/// it for a user must stay within the round's work budget.
struct HostileDocumentTests {
    static func document(evaluators: JSONObject, flags count: Int, targeting: JSON) -> [UInt8] {
        var flags = JSONObject()
        for index in 0..<count {
            flags["f\(index)"] = [
                "state": "ENABLED", "variants": ["on": true, "off": false], "defaultVariant": "off",
                "targeting": targeting,
            ]
        }
        return JSON.object(["$evaluators": .object(evaluators), "flags": .object(flags)]).encoded()
    }

    /// The report's document: 5,000 `$evaluators`, `e_i = {"$ref": e_{i-1}}`,
    /// listed last-first (134 KB); `serve` and `validate` died of a stack overflow.
    @Test func fiveThousandChainedAliasesLoadWithTheirProblems() throws {
        var evaluators = JSONObject()
        for index in stride(from: 4_999, through: 1, by: -1) {
            evaluators["e_\(index)"] = ["$ref": .string("e_\(index - 1)")]
        }
        evaluators["e_0"] = ["==": [["var": "tier"], "gold"]]
        let bytes = Self.document(
            evaluators: evaluators, flags: 1, targeting: ["if": [["$ref": "e_4999"], "on", "off"]])
        #expect(bytes.count > 100_000)
        let definitions = try Definitions.load(bytes).get()
        #expect(definitions.problems.count > 4_900)
        #expect(definitions.problems.allSatisfy { $0.line == 1 && $0.message.utf8.count < 400 })
        // The flag that goes through the whole chain is unusable, and says why.
        let resolution = definitions.flagSet.resolve(flagKey: "f0", context: ["tier": "gold"], timestamp: 0)
        #expect(resolution.errorCode == .parseError)
    }

    /// `e_i = {"or": [e_{i-1}, e_{i-1}]}` to 16 levels (65,535 operations,
    /// under the limit) and 200 flags over it: each flag spends up to its own
    /// budget, and a user change took seconds before the round had one.
    @Test func twoHundredFlagsOverADoublingChainStayWithinTheRoundsBudget() throws {
        var evaluators = JSONObject()
        evaluators["e_0"] = ["==": [["var": "tier"], "gold"]]
        for index in 1..<16 {
            evaluators["e_\(index)"] = [
                "or": [["$ref": .string("e_\(index - 1)")], ["$ref": .string("e_\(index - 1)")]]
            ]
        }
        let bytes = Self.document(
            evaluators: evaluators, flags: 200, targeting: ["if": [["$ref": "e_15"], "on", "off"]])
        #expect(bytes.count < 40_000)
        let definitions = try Definitions.load(bytes).get()
        let subject = EvaluationSubject(targetingKey: "ada", attributes: ["tier": "silver"])
        let listed = definitions.featureFlags(for: subject, at: 0)
        let budget = WorkBudget.forRound(of: 200)
        // Each flag walks all 65,535 operations (no "or" operand is true).
        let perFlag = (1 << 16) - 1
        #expect(listed.count <= budget.units / perFlag + 1)
        #expect(listed.count < 200)
        #expect(listed.allSatisfy { !$0.enabled })
    }

    /// A doubling chain past the operations limit is refused where it crosses it.
    @Test func aDoublingChainPastTheLimitIsAProblemAtItsPointer() throws {
        var evaluators = JSONObject()
        evaluators["e_0"] = ["==": [["var": "tier"], "gold"]]
        for index in 1..<40 {
            evaluators["e_\(index)"] = [
                "or": [["$ref": .string("e_\(index - 1)")], ["$ref": .string("e_\(index - 1)")]]
            ]
        }
        let definitions = try Definitions.load(
            Self.document(evaluators: evaluators, flags: 1, targeting: ["$ref": "e_39"])
        ).get()
        #expect(
            definitions.problems.contains {
                $0.pointer == "/$evaluators/e_16/or/1/$ref" && $0.message.contains("operations")
            })
    }
}
