import BuntingJSON
import Testing
@testable import BuntingRules

/// Each bound stops a hostile rule with a typed error, never a crash.
struct EvaluationLimitsTests {
    static let thousand: JSON = .array((0..<1000).map { JSON.int($0) })

    @Test func stepsAreCounted() throws {
        let rule = try JSONLogicRule(json(#"{"map": [{"var": "xs"}, {"+": [{"var": ""}, 1]}]}"#))
        #expect(try rule.evaluate(["xs": Self.thousand]).arrayValue?.count == 1000)
        #expect(throws: RuleEvaluationError.tooManySteps(limit: 2000)) {
            try rule.evaluate(["xs": Self.thousand], limits: EvaluationLimits(maxSteps: 2000))
        }
    }

    @Test func nestedIterationCannotRunAway() throws {
        // A million inner iterations: stopped at the default bound.
        let nested = try JSONLogicRule(json(#"{"map": [{"var": "xs"}, {"map": [{"val": [[2], "xs"]}, {"var": ""}]}]}"#))
        #expect(throws: RuleEvaluationError.tooManySteps(limit: EvaluationLimits.default.maxSteps)) {
            try nested.evaluate(["xs": Self.thousand])
        }
    }

    @Test func doublingArraysStopAtTheLengthBound() throws {
        let rule = try JSONLogicRule(
            json(
                #"{"reduce": [{"var": "xs"}, {"merge": [{"var": "accumulator"}, {"var": "accumulator"}]}, [1]]}"#))
        #expect(throws: RuleEvaluationError.arrayTooLong(limit: 100_000)) {
            try rule.evaluate(["xs": Self.thousand])
        }
        #expect(throws: RuleEvaluationError.arrayTooLong(limit: 10)) {
            try JSONLogicRule(json(#"{"merge": [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]}"#))
                .evaluate(.null, limits: EvaluationLimits(maxArrayLength: 10))
        }
        #expect(throws: RuleEvaluationError.arrayTooLong(limit: 10)) {
            try JSONLogicRule(json(#"{"map": [{"var": "xs"}, 1]}"#))
                .evaluate(["xs": Self.thousand], limits: EvaluationLimits(maxArrayLength: 10))
        }
    }

    @Test func doublingStringsStopAtTheLengthBound() throws {
        let rule = try JSONLogicRule(
            json(
                #"{"reduce": [{"var": "xs"}, {"cat": [{"var": "accumulator"}, {"var": "accumulator"}]}, "ab"]}"#))
        #expect(throws: RuleEvaluationError.stringTooLong(limit: 1 << 20)) {
            try rule.evaluate(["xs": Self.thousand])
        }
        // The bound is on the string built, not on the text cut from.
        #expect(throws: RuleEvaluationError.stringTooLong(limit: 4)) {
            try JSONLogicRule(json(#"{"substr": ["abcdefgh", 1, 5]}"#)).evaluate(
                .null, limits: EvaluationLimits(maxStringLength: 4))
        }
        #expect(
            try JSONLogicRule(json(#"{"substr": ["abcdefgh", 1, 2]}"#)).evaluate(
                .null, limits: EvaluationLimits(maxStringLength: 4)) == "bc")
        #expect(
            try JSONLogicRule(json(#"{"substr": ["abcd", 1, 2]}"#)).evaluate(
                .null, limits: EvaluationLimits(maxStringLength: 4)) == "bc")
    }

    @Test func boundsCannotBeCaughtByTry() throws {
        let rule = try JSONLogicRule(json(#"{"try": [{"map": [{"var": "xs"}, {"var": ""}]}, "caught"]}"#))
        #expect(throws: RuleEvaluationError.tooManySteps(limit: 100)) {
            try rule.evaluate(["xs": Self.thousand], limits: EvaluationLimits(maxSteps: 100))
        }
        #expect(try JSONLogicRule(json(#"{"try": [{"throw": "x"}, "caught"]}"#)).evaluate(.null) == "caught")
    }

    @Test func deepDataIsHandledWithoutRecursingWithoutBound() throws {
        var deep: JSON = [1.5]
        for _ in 0..<5_000 { deep = [deep] }
        let rule = try JSONLogicRule(json(#"{"cat": [{"var": "deep"}, "!"]}"#))
        #expect(try rule.evaluate(["deep": deep]).stringValue?.hasSuffix("!") == true)
        #expect(try JSONLogicRule(json(#"{"var": "deep"}"#)).evaluate(["deep": deep]) == deep)
        let fractional = try JSONLogicRule(
            json(#"{"fractional": [{"var": "deep"}, ["a", 1]]}"#), fractionalHashing: .murmur3CBOR)
        #expect(try fractional.evaluate(["deep": deep]) == .null)
    }
}
