import Glibc
import BuntingJSON
import BuntingRules

/// Rules built to spend the work budget as slowly as possible, each in its
/// own way (see `EvaluationLimits.maxSteps`): the time each takes to be
/// stopped is the time the costliest rule of its kind that fits the budget
/// can take. `bunting-rules-bench hostile [BUDGET]` prints them; the default
/// budget is chosen so that the slowest stays within about 20–50 ms here.
enum Hostile {
    struct Case {
        let name: String
        let rule: JSON
        let data: JSON
        var flagd: FlagdProperties? = nil
        var hashing: FractionalHashing = .default
    }

    static func cases() -> [Case] {
        let thousand = JSON.array((0..<1_000).map { .int($0) })
        let million = JSON.array((0..<1_000_000).map { .int($0 % 1000) })
        let bigInts = JSON.array((0..<99_999).map { .int($0) })
        let bigStrings = JSON.array((0..<10_000).map { .string(String(repeating: "x", count: 99) + "\($0 % 10)") })
        let megabyte = String(repeating: "a", count: 1_000_000)
        let needle = String(repeating: "a", count: 20_000) + "b"
        let accented = String(repeating: "é", count: 500_000)
        let spaces = String(repeating: " ", count: 1_000_000) + "1"
        let dots = Array(repeating: "a", count: 250_000).joined(separator: ".")
        let longVersion = "1.0.0-" + Array(repeating: "a", count: 250_000).joined(separator: ".")
        var wide = JSONObject()
        for index in 0..<50_000 { wide["key-\(index)"] = .int(index) }
        let keys = JSON.array((0..<100_000).map { .string("k\($0)") })
        func each(_ body: String) -> JSON { json(#"{"map": [{"var": "xs"}, \#(body)]}"#) }

        return [
            Case(name: "reduce over a million numbers", rule: json(
                #"{"reduce": [{"var": "xs"}, {"+": [{"var": "accumulator"}, {"var": "current"}]}, 0]}"#),
                data: ["xs": million]),
            Case(name: "in: 20,001-byte needle, 1 MB haystack (the worst case of a naive search)",
                 rule: json(#"{"in": [{"var": "n"}, {"var": "h"}]}"#),
                 data: ["n": .string(needle), "h": .string(megabyte)]),
            Case(name: "in: the same, 1,000 times", rule: each(#"{"in": [{"val": [[2], "n"]}, {"val": [[2], "h"]}]}"#),
                 data: ["xs": thousand, "n": .string(needle), "h": .string(megabyte)]),
            Case(name: "in: 1,000 × a 99,999-element array", rule: each(#"{"in": [-1, {"val": [[2], "big"]}]}"#),
                 data: ["xs": thousand, "big": bigInts]),
            Case(name: "in: 1,000 × 10,000 equal-length 100-byte strings",
                 rule: each(#"{"in": [{"val": [[2], "probe"]}, {"val": [[2], "strings"]}]}"#),
                 data: ["xs": thousand, "strings": bigStrings, "probe": .string(String(repeating: "x", count: 99) + "z")]),
            Case(name: "==: 1,000 × a 99,999-element array against a string",
                 rule: each(#"{"==": [{"val": [[2], "big"]}, "x"]}"#), data: ["xs": thousand, "big": bigInts]),
            Case(name: "<: 1,000 × two 99,999-element arrays", rule: each(#"{"<": [{"val": [[2], "big"]}, {"val": [[2], "big"]}]}"#),
                 data: ["xs": thousand, "big": bigInts]),
            Case(name: "<: 1,000 × two 1 MB strings", rule: each(#"{"<": [{"val": [[2], "h"]}, {"val": [[2], "h"]}]}"#),
                 data: ["xs": thousand, "h": .string(megabyte)]),
            Case(name: "merge: 1,000 × a 99,999-element array", rule: each(#"{"merge": [{"val": [[2], "big"]}]}"#),
                 data: ["xs": thousand, "big": bigInts]),
            Case(name: "merge: 1,000 × 10,000 strings", rule: each(#"{"merge": [{"val": [[2], "strings"]}]}"#),
                 data: ["xs": thousand, "strings": bigStrings]),
            Case(name: "cat: 1,000 × 1 MB", rule: each(#"{"cat": [{"val": [[2], "h"]}]}"#),
                 data: ["xs": thousand, "h": .string(megabyte)]),
            Case(name: "cat: 1,000 × a 99,999-element array", rule: each(#"{"cat": [{"val": [[2], "big"]}]}"#),
                 data: ["xs": thousand, "big": bigInts]),
            Case(name: "substr: 1,000 × 1 MB of é", rule: each(#"{"substr": [{"val": [[2], "s"]}, 1, 1]}"#),
                 data: ["xs": thousand, "s": .string(accented)]),
            Case(name: "+: 1,000 × a 1 MB string of spaces", rule: each(#"{"+": [{"val": [[2], "s"]}, 1]}"#),
                 data: ["xs": thousand, "s": .string(spaces)]),
            Case(name: "+: spread of a million numbers", rule: json(#"{"+": {"var": "xs"}}"#), data: ["xs": million]),
            Case(name: "max: 1,000 × spread of 99,999 numbers", rule: each(#"{"max": {"val": [[2], "big"]}}"#),
                 data: ["xs": thousand, "big": bigInts]),
            Case(name: "var: 1,000 × a computed 500 KB path", rule: each(#"{"var": {"val": [[2], "p"]}}"#),
                 data: ["xs": thousand, "p": .string(dots)]),
            Case(name: "missing: 100,000 keys, 1,000 times", rule: each(#"{"missing": {"val": [[2], "keys"]}}"#),
                 data: ["xs": thousand, "keys": keys]),
            Case(name: "val: 1,000 × the root of a 50,000-member context with $flagd", rule: each(#"{"val": [[4]]}"#),
                 data: JSON.object(wide).merging(["xs": thousand]), flagd: FlagdProperties(flagKey: "f", timestamp: 0)),
            Case(name: "sem_ver: 1,000 × a 500 KB version", rule: each(#"{"sem_ver": [{"val": [[2], "v"]}, "=", "1.0.0"]}"#),
                 data: ["xs": thousand, "v": .string(longVersion)]),
            Case(name: "fractional (CBOR): 1,000 × a 50,000-member bucketing value",
                 rule: each(#"{"fractional": [{"val": [[2], "wide"]}, ["a", 1], ["b", 1]]}"#),
                 data: ["xs": thousand, "wide": .object(wide)], hashing: .murmur3CBOR),
            Case(name: "fractional: 1,000 × 10,000 computed fractions",
                 rule: each(#"{"fractional": ["key", \#((0..<10_000).map { _ in #"["a", {"var": ""}]"# }.joined(separator: ","))]}"#),
                 data: ["xs": thousand]),
            Case(name: "array literal: 1,000 × 100,000 elements",
                 rule: each("[\((0..<100_000).map(String.init).joined(separator: ",")), {\"var\": \"\"}]"),
                 data: ["xs": thousand]),
            Case(name: "starts_with: 1,000 × a 500 KB affix", rule: each(#"{"starts_with": [{"val": [[2], "h"]}, {"val": [[2], "h"]}]}"#),
                 data: ["xs": thousand, "h": .string(String(megabyte.prefix(500_000)))]),
        ]
    }

    /// Times every case (best of 3), or runs case `only` once, untimed but
    /// for callgrind: `valgrind --tool=callgrind --toggle-collect='*Hostile*evaluateOnce*'`.
    static func run(budget: Int, only: Int? = nil) throws {
        let limits = EvaluationLimits(maxSteps: budget)
        let all = cases()
        if let only {
            let testCase = all[only]
            let rule = try JSONLogicRule(testCase.rule, fractionalHashing: testCase.hashing)
            print("\(testCase.name): \(evaluateOnce(rule, testCase, limits))")
            return
        }
        print("budget \(budget) work units; each case until it is stopped (best of 3)")
        var slowest = 0.0
        for testCase in all {
            let rule = try JSONLogicRule(testCase.rule, fractionalHashing: testCase.hashing)
            var best = Double.infinity
            var outcome = ""
            for _ in 0..<3 {
                let start = ContinuousClock.now
                do {
                    let result = try rule.evaluate(testCase.data, flagd: testCase.flagd, limits: limits)
                    outcome = "finished: \(result.encodedString().prefix(40))"
                } catch {
                    outcome = "\(error)"
                }
                let (seconds, attoseconds) = (ContinuousClock.now - start).components
                best = min(best, Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
            }
            slowest = max(slowest, best)
            print(pad(testCase.name, 78) + pad("\(format(best, 1)) ms", 12) + outcome)
        }
        print("slowest: \(format(slowest, 1)) ms")
    }

    @inline(never)
    static func evaluateOnce(_ rule: JSONLogicRule, _ testCase: Case, _ limits: EvaluationLimits) -> String {
        do {
            return "finished: \(try rule.evaluate(testCase.data, flagd: testCase.flagd, limits: limits).encodedString().prefix(40))"
        } catch {
            return "\(error)"
        }
    }

    static func json(_ text: String) -> JSON {
        do { return try JSON.parse(text) } catch { fatalError("bad JSON: \(error)") }
    }
}

private extension JSON {
    func merging(_ members: JSONObject) -> JSON {
        guard case .object(var object) = self else { return self }
        for (key, value) in members { object[key] = value }
        return .object(object)
    }
}
