import BuntingJSON
import Testing
@testable import BuntingRules

/// What is refused at compile time, and the pointer each refusal names.
struct CompileErrorTests {
    static func compileError(_ rule: String, evaluators: RuleEvaluators = .none, prefix: String = "")
        -> RuleCompileError?
    {
        do {
            _ = try JSONLogicRule(json(rule), evaluators: evaluators, pointerPrefix: prefix)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"frobnicate": [1]}"#, "/frobnicate", "unknown operator \"frobnicate\""),
        (#"{"if": [{"frobnicate": 1}, 2, 3]}"#, "/if/0/frobnicate", "unknown operator"),
        (#"{"a": 1, "b": 2}"#, "", "exactly one key"),
        (#"{"and": [true, {"+": 1, "-": 2}]}"#, "/and/1", "exactly one key"),
        (#"{"if": [{"var": true}, 1, 2]}"#, "/if/0/var", "\"var\" takes a path"),
        (#"{"var": [["a"]]}"#, "/var/0", "\"var\" takes a path"),
        (#"{"var": ["a", 1, 2]}"#, "/var", "at most 2 arguments"),
        (#"{">": [1]}"#, "/>", "at least 2 arguments"),
        (#"{"==": 1}"#, "/==", "at least 2 arguments"),
        (#"{"map": [[1], {"+": [1]}, 3]}"#, "/map", "takes 2 arguments"),
        (#"{"filter": [null, true]}"#, "/filter/0", "iterates over an array"),
        (#"{"-": []}"#, "/-", "at least 1 argument"),
        (#"{"%": [1]}"#, "/%", "at least 2 arguments"),
        (#"{"max": []}"#, "/max", "at least 1 argument"),
        (#"{"substr": ["abc"]}"#, "/substr", "2 to 3 arguments"),
        (#"{"!": [1, 2]}"#, "/!", "at most 1 argument"),
        (#"{"in": ["a"]}"#, "/in", "takes 2 arguments"),
        (#"{"val": [true]}"#, "/val/0", "a path segment"),
        (#"{"$ref": "nowhere"}"#, "/$ref", "unknown evaluator \"nowhere\""),
        (#"{"$ref": 3}"#, "/$ref", "name of a shared evaluator"),
        (#"{"if": [{"a/b~": 1}]}"#, "/if/0/a~1b~0", "unknown operator"),
    ])
    func refusesWithPointer(rule: String, pointer: String, message: String) throws {
        let error = try #require(Self.compileError(rule), "\(rule) compiled")
        #expect(error.pointer == pointer, "\(rule): \(error)")
        #expect(error.message.contains(message), "\(rule): \(error)")
    }

    @Test func acceptsWhatJSONLogicAllows() throws {
        for rule in [
            #"{}"#, #"[]"#, #"{"if": []}"#, #"{"var": ""}"#, #"{"var": null}"#, #"{"var": []}"#, #"{"var": 1}"#,
            #"{"var": {"cat": ["a", "b"]}}"#, #"{"!": []}"#, #"{"and": []}"#, #"{"+": []}"#, #"{"*": []}"#,
            #"{"cat": "x"}"#, #"{"merge": 1}"#, #"{"missing": "a"}"#, #"{"preserve": {"a": 1, "b": 2}}"#,
            #"{"map": [{"var": "xs"}, null]}"#, #"{"fractional": ["constant-key", ["a", -5], ["b"]]}"#,
            #"{"sem_ver": [{"var": "v"}, {"var": "op"}, "2.0.0.0"]}"#, #"{"ends_with": [{"var": "id"}, 3]}"#,
            #"{"%": {"var": "pair"}}"#,
            // flagd's operators answer null for what they cannot work with.
            #"{"sem_ver": [{"var": "v"}, "*", "1.0.0"]}"#, #"{"sem_ver": [{"var": "v"}, ">="]}"#,
            #"{"sem_ver": [{"var": "v"}, 1, "1.0.0"]}"#, #"{"starts_with": [{"var": "id"}]}"#,
            #"{"fractional": [["a", 25.5], ["b", 1]]}"#, #"{"fractional": [["a", "25"], ["b", 1]]}"#,
            #"{"fractional": [["a", 1, 2]]}"#, #"{"fractional": [{"var": "k"}, "b"]}"#, #"{"fractional": []}"#,
        ] {
            #expect(Self.compileError(rule) == nil, "\(rule)")
        }
    }

    @Test func prefixMakesPointersAbsolute() throws {
        let error = try #require(Self.compileError(#"{"if": [{"var": false}]}"#, prefix: "/banners/0/targeting"))
        #expect(error.pointer == "/banners/0/targeting/if/0/var")
        #expect(error.description.hasPrefix("at /banners/0/targeting/if/0/var: "))
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let error = try #require(Self.compileError(deep))
        #expect(error.message.contains("deeper than 256"))
        #expect(error.pointer.split(separator: "/").count == 256)
        #expect(Self.compileError(String(repeating: "[", count: 256) + String(repeating: "]", count: 256)) == nil)
        #expect(throws: RuleCompileError.self) { try JSONLogicRule(json("[[[1]]]"), maxDepth: 2) }
        // An operation's argument list is a level too, as in the JSON text.
        func negations(_ count: Int) -> String {
            String(repeating: #"{"!": ["#, count: count) + "true" + String(repeating: "]}", count: count)
        }
        #expect(Self.compileError(negations(128)) == nil)
        #expect(Self.compileError(negations(129))?.message.contains("deeper than 256") == true)
    }

    @Test func evaluatorsAreInlinedAndChecked() throws {
        let evaluators = RuleEvaluators(
            json(
                #"""
                {"isGold": {"==": [{"var": "tier"}, "gold"]},
                 "goldAdult": {"and": [{"$ref": "isGold"}, {">=": [{"var": "age"}, 18]}]},
                 "broken": {"nope": 1},
                 "usesBroken": {"!": {"$ref": "broken"}},
                 "loopA": {"!": {"$ref": "loopB"}},
                 "loopB": {"!": {"$ref": "loopA"}},
                 "self": {"$ref": "self"}}
                """#
            ).objectValue!)
        let pointers = evaluators.problems.map(\.pointer)
        #expect(pointers.contains("/$evaluators/broken/nope"))
        #expect(pointers.contains("/$evaluators/usesBroken/!/$ref"))
        #expect(pointers.contains("/$evaluators/loopB/!/$ref"))
        #expect(pointers.contains("/$evaluators/loopA/!/$ref"))
        #expect(pointers.contains("/$evaluators/self/$ref"))
        #expect(evaluators.problems.contains { $0.message.contains("refers to itself (loopA → loopB → loopA)") })
        #expect(evaluators.names == ["goldAdult", "isGold"])

        let rule = try JSONLogicRule(json(#"{"if": [{"$ref": "goldAdult"}, "yes", "no"]}"#), evaluators: evaluators)
        #expect(try rule.evaluate(["tier": "gold", "age": 30]) == "yes")
        #expect(try rule.evaluate(["tier": "gold", "age": 3]) == "no")

        let error = try #require(Self.compileError(#"{"if": [{"$ref": "broken"}]}"#, evaluators: evaluators))
        #expect(error.pointer == "/if/0/$ref")
        #expect(error.message.contains("evaluator \"broken\" is invalid"))
    }

    @Test func inlinedEvaluatorsCountTowardsTheDepth() throws {
        let nested = String(repeating: "[", count: 200) + "1" + String(repeating: "]", count: 200)
        let evaluators = RuleEvaluators(JSONObject([("deep", json(nested))]))
        #expect(evaluators.problems.isEmpty)
        let shallow = String(repeating: "[", count: 50) + #"{"$ref": "deep"}"# + String(repeating: "]", count: 50)
        #expect(Self.compileError(shallow, evaluators: evaluators) == nil)
        let tooDeep = String(repeating: "[", count: 60) + #"{"$ref": "deep"}"# + String(repeating: "]", count: 60)
        let error = try #require(Self.compileError(tooDeep, evaluators: evaluators))
        #expect(error.message.contains("once evaluator \"deep\" is inlined"))
    }
}
