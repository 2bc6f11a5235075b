import BuntingCrypto
import BuntingJSON
import Testing
@testable import BuntingExperiments

/// Each bound of `PayloadLimits` and of the regular expression compiler, at
/// its limit and one past it: past it the payload (for its size) or the
/// feature at fault is refused with the pointer of the value, or (for the
/// evaluation budget) the undecided conditions fail.
@Suite struct LimitsTests {
    static func load(_ features: JSON, limits: PayloadLimits = .default) -> GrowthBookPayload {
        GrowthBookPayload(features: features, limits: limits)
    }

    @Test func payloadSize() throws {
        let text = Array(#"{"features": {"f": {"defaultValue": 1}}}"#.utf8)
        let atLimit = PayloadLimits(maxPayloadBytes: text.count)
        #expect(try GrowthBookPayload(text: text, limits: atLimit).featureKeys == ["f"])
        let pastLimit = PayloadLimits(maxPayloadBytes: text.count - 1)
        #expect(throws: PayloadProblem.self) { try GrowthBookPayload(text: text, limits: pastLimit) }
        #expect(PayloadLimits.default.maxPayloadBytes == 64 << 20)
    }

    @Test func decryptedPayloadSize() throws {
        let plaintext = #"{"f": {"defaultValue": 1}}"#
        let key = Base64.encode(Array(repeating: 7, count: 16))
        let iv = [UInt8](repeating: 1, count: 16)
        let sealed = try AESCBC.encrypt(plaintext: Array(plaintext.utf8), key: try Base64.decode(key), iv: iv)
        let document: JSON = ["encryptedFeatures": .string(Base64.encode(iv) + "." + Base64.encode(sealed))]
        let atLimit = PayloadLimits(maxPayloadBytes: plaintext.utf8.count)
        #expect(try GrowthBookPayload(document: document, decryptionKey: key, limits: atLimit).featureKeys == ["f"])
        let pastLimit = PayloadLimits(maxPayloadBytes: plaintext.utf8.count - 1)
        do {
            _ = try GrowthBookPayload(document: document, decryptionKey: key, limits: pastLimit)
            Issue.record("a decrypted payload past the limit loaded")
        } catch {
            #expect(error.pointer.description == "/encryptedFeatures")
        }
    }

    /// A condition nested `depth` levels: `{"$not": {"$not": … {"a": 1}}}`.
    static func nested(_ depth: Int) -> JSON {
        var condition: JSON = ["a": 1]
        for _ in 1..<depth { condition = ["$not": condition] }
        return condition
    }

    @Test func conditionNesting() {
        let limit = PayloadLimits.default.maxConditionDepth
        #expect(limit == 64)
        // `{"a": 1}` is two levels (the condition, its value); each `$not` one more.
        let atLimit = Self.load(["f": ["rules": [["condition": Self.nested(limit - 1), "force": true]]]])
        #expect(atLimit.problems.isEmpty)
        var evaluator = GrowthBookEvaluator(payload: atLimit, context: EvaluationContext(attributes: ["a": 1]))
        #expect(evaluator.evaluateFeature("f").source == ((limit - 2) % 2 == 0 ? .force : .defaultValue))
        let pastLimit = Self.load(["f": ["rules": [["condition": Self.nested(limit), "force": true]]]])
        #expect(pastLimit.brokenFeatureKeys == ["f"])
        let pointer = "/features/f/rules/0/condition" + String(repeating: "/$not", count: limit - 1) + "/a"
        #expect(pastLimit.problems.map(\.pointer.description) == [pointer])
    }

    @Test func variationsWeightsRangesAndMeta() {
        let limit = PayloadLimits.default.maxVariations
        #expect(limit == 1_000)
        for field in ["variations", "weights", "ranges", "meta"] {
            func rule(_ count: Int) -> JSON {
                let entries: [JSON]
                switch field {
                case "ranges": entries = Array(repeating: [0, 0.001], count: count)
                case "meta": entries = (0..<count).map { ["key": .string(String($0))] }
                default: entries = Array(repeating: .real(1 / Double(count)), count: count)
                }
                var object: JSONObject = [
                    "variations": .array(Array(repeating: 0, count: field == "variations" ? count : 2))
                ]
                if field != "variations" { object[field] = .array(entries) }
                return ["f": ["rules": [.object(object)]]]
            }
            #expect(Self.load(rule(limit)).problems.isEmpty, "\(field) at the limit")
            let past = Self.load(rule(limit + 1))
            #expect(
                past.problems.map(\.pointer.description) == ["/features/f/rules/0/\(field)"],
                "\(field) past the limit")
        }
    }

    @Test func patternLength() {
        let limit = PayloadLimits.default.maxPatternLength
        #expect(limit == 1_024)
        func feature(_ length: Int) -> JSON {
            [
                "f": [
                    "rules": [
                        ["condition": ["name": ["$regex": .string(String(repeating: "a", count: length))]], "force": 1]
                    ]
                ]
            ]
        }
        #expect(Self.load(feature(limit)).problems.isEmpty)
        #expect(
            Self.load(feature(limit + 1)).problems.map(\.pointer.description) == [
                "/features/f/rules/0/condition/name/$regex"
            ])
    }

    @Test func patternComplexityAndUnsupportedSyntax() {
        for pattern in ["(a{1000}){1000}", "(?<=a)b"] {
            let payload = Self.load([
                "f": ["rules": [["condition": ["name": ["$regexi": .string(pattern)]], "force": 1]]]
            ])
            #expect(
                payload.problems.map(\.pointer.description) == ["/features/f/rules/0/condition/name/$regexi"],
                "\(pattern)")
        }
        // An invalid pattern is no problem: it evaluates false, as in JavaScript.
        let invalid = Self.load(["f": ["rules": [["condition": ["name": ["$regex": "("]], "force": 1]]]])
        #expect(invalid.problems.isEmpty)
    }

    /// One step for the feature, one for the rule, one for the condition
    /// and one for its value test: four decide `{"a": 1}`.
    @Test func evaluationSteps() {
        #expect(PayloadLimits.default.maxEvaluationSteps == 1_000_000)
        let features: JSON = ["f": ["defaultValue": "default", "rules": [["condition": ["a": 1], "force": "forced"]]]]
        let atLimit = Self.load(features, limits: PayloadLimits(maxEvaluationSteps: 4))
        var evaluator = GrowthBookEvaluator(payload: atLimit, context: EvaluationContext(attributes: ["a": 1]))
        let decided = evaluator.evaluateFeature("f")
        #expect(decided.value == "forced")
        #expect(!decided.exhaustedBudget)
        let pastLimit = Self.load(features, limits: PayloadLimits(maxEvaluationSteps: 3))
        evaluator = GrowthBookEvaluator(payload: pastLimit, context: EvaluationContext(attributes: ["a": 1]))
        let cut = evaluator.evaluateFeature("f")
        #expect(cut.value == "default")
        #expect(cut.exhaustedBudget)
    }

    /// A hostile payload: prerequisites that fan out (each feature has two
    /// rules naming the next twice: 2^30 evaluations unbounded) and a
    /// backtracking pattern against a long attribute. The budget stops both.
    @Test func hostilePayloadsStopAtTheBudget() {
        var features = JSONObject()
        for level in 0..<30 {
            let parent: JSON = ["id": .string("f\(level + 1)"), "condition": ["value": ["$exists": false]]]
            features["f\(level)"] = [
                "rules": [
                    ["parentConditions": [parent, parent], "force": 1], ["parentConditions": [parent], "force": 2],
                ]
            ]
        }
        features["f30"] = ["defaultValue": 0, "rules": [["condition": ["s": ["$regex": "^(a|aa)+$"]], "force": 1]]]
        let payload = Self.load(.object(features))
        #expect(payload.problems.isEmpty)
        var evaluator = GrowthBookEvaluator(
            payload: payload,
            context: EvaluationContext(attributes: ["s": .string(String(repeating: "a", count: 5_000) + "b")]))
        let result = evaluator.evaluateFeature("f0")
        #expect(result.exhaustedBudget)
    }

    /// All of a payload's patterns together compile to a bounded number of
    /// instructions: `a{9}` is six characters and a dozen instructions.
    @Test func patternInstructionsOfAPayload() throws {
        #expect(PayloadLimits.default.maxPatternInstructions == 2_000_000)
        let each = try RegexTests.compile("a{9}").instructionCount
        func features(_ count: Int) -> JSON {
            var features = JSONObject()
            for index in 0..<count {
                features["f\(index)"] = ["rules": [["condition": ["name": ["$regex": "a{9}"]], "force": 1]]]
            }
            return .object(features)
        }
        let limits = PayloadLimits(maxPatternInstructions: each * 2)
        #expect(Self.load(features(2), limits: limits).problems.isEmpty)
        let past = Self.load(features(3), limits: limits)
        #expect(past.problems.map(\.pointer.description) == ["/features/f2/rules/0/condition/name/$regex"])
        #expect(past.brokenFeatureKeys == ["f2"])
    }

    /// A chain of features, each gated on the next, `length` long.
    static func chain(_ length: Int) -> JSON {
        var features = JSONObject()
        for index in 0..<length - 1 {
            features["f\(index)"] = [
                "defaultValue": false,
                "rules": [
                    [
                        "parentConditions": [["id": .string("f\(index + 1)"), "condition": ["value": true]]],
                        "force": true,
                    ]
                ],
            ]
        }
        features["f\(length - 1)"] = ["defaultValue": true]
        return .object(features)
    }

    @Test func prerequisiteDepth() {
        let limit = PayloadLimits.default.maxPrerequisiteDepth
        #expect(limit == 64)
        var evaluator = GrowthBookEvaluator(payload: Self.load(Self.chain(limit)), context: EvaluationContext())
        let atLimit = evaluator.evaluateFeature("f0")
        #expect(atLimit.value == true && atLimit.source == .force && !atLimit.exhaustedBudget)
        evaluator = GrowthBookEvaluator(payload: Self.load(Self.chain(limit + 1)), context: EvaluationContext())
        let pastLimit = evaluator.evaluateFeature("f0")
        #expect(pastLimit.value == false && pastLimit.exhaustedBudget)
    }

    /// A string where a condition list belongs is its characters, as in
    /// JavaScript, without a compiled entry per character: a megabyte of it
    /// compiles and evaluates within its budget.
    @Test func stringsReadAsConditionsStayStrings() throws {
        let pair = try Condition(["$or": "ab"])
        #expect(pair.evaluate(["0": "b"]))
        #expect(!pair.evaluate(["0": "c"]))
        #expect(try Condition(["$and": "ab"]).evaluate(["0": "a"]) == false)
        #expect(try Condition(["$or": ""]).evaluate([:]))
        #expect(try Condition(["$not": "xy"]).evaluate(["0": "x", "1": "z"]))
        let huge = String(repeating: "ab", count: 200_000)
        let condition = try Condition(["$or": .string(huge)])
        let found = condition.evaluate(["0": "b"])
        #expect(found)
        let notFound = condition.evaluate(["0": "c"])
        #expect(!notFound, "400,000 characters tried within the budget")
        let cut = condition.evaluate(["0": "b"], limits: PayloadLimits(maxEvaluationSteps: 1))
        #expect(!cut, "out of steps before the second character: false")
    }
}
