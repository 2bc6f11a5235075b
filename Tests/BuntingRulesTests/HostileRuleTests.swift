import BuntingJSON
import Testing
@testable import BuntingRules

/// Rules and data that try to crash the evaluator or hold it up. Numbers at
/// the edges of 64 bits reach every integer path of the compiler and the
/// interpreter, where trapping arithmetic would end the process; work that
/// grows with the operands is charged, so that a rule doing too much of it
/// ends with `tooManySteps` (the RPC layer's INVALID_RULE) before it takes
/// long or much memory. The tests look at outcomes and work units, never at
/// the clock.
struct HostileRuleTests {
    static let max = "9223372036854775807"
    static let min = "-9223372036854775808"
    static let whole = #"[{"a":1,"xs":[10,20,30],"s":"héllo","edges":[9223372036854775807,-9223372036854775808]}]"#

    /// The outcome as text: the result, or the error.
    static func outcome(_ rule: String, _ data: JSON = .null, hashing: FractionalHashing = .default) -> String {
        do {
            return try JSONLogicRule(json(rule), fractionalHashing: hashing).evaluate(data).encodedString()
        } catch let error as RuleCompileError {
            return "compile error: \(error.message)"
        } catch {
            return "error: \(error)"
        }
    }

    // MARK: - Integers at the edges, on every path

    @Test(arguments: [
        // val/exists scope jumps: (levels + 1) / 2 overflowed at Int.max.
        (#"{"val": [[\#(max)], "a"]}"#, "1"),
        (#"{"val": [[\#(min)], "a"]}"#, "1"),
        (#"{"exists": [[\#(max)], "a"]}"#, "true"),
        (#"{"map": [[1], {"map": [[2], {"val": [[\#(max)], "a"]}]}]}"#, "[[1]]"),
        (#"{"map": [[1], {"val": [[\#(min)]]}]}"#, #"\#(whole)"#),
        (#"{"map": [[5], {"val": [[9223372036854775806]]}]}"#, #"\#(whole)"#),
        // val/exists indexes.
        (#"{"val": ["xs", \#(max)]}"#, "null"),
        (#"{"val": ["xs", \#(min)]}"#, "null"),
        (#"{"val": ["xs", -1]}"#, "30"),
        (#"{"val": ["xs", {"+": [\#(max), 1]}]}"#, "null"),
        (#"{"val": ["xs", {"-": [\#(min), 1]}]}"#, "null"),
        (#"{"val": ["xs", 9.2e18]}"#, "compile error"),
        // var paths: array and string indexes, number paths, computed paths.
        (#"{"var": "xs.\#(max)"}"#, "null"),
        (#"{"var": "xs.99999999999999999999"}"#, "null"),
        (#"{"var": "s.\#(max)"}"#, "null"),
        (#"{"var": "xs.-1"}"#, "null"),
        (#"{"var": \#(max)}"#, "null"),
        (#"{"var": \#(min)}"#, "null"),
        (#"{"var": {"cat": ["xs.", \#(max)]}}"#, "null"),
        // substr: starts and lengths far out of range, NaN and infinities.
        (#"{"substr": [{"var": "s"}, \#(max), \#(max)]}"#, #""""#),
        (#"{"substr": [{"var": "s"}, \#(min), \#(min)]}"#, #""""#),
        (#"{"substr": [{"var": "s"}, 1, \#(max)]}"#, #""éllo""#),
        (#"{"substr": [{"var": "s"}, \#(min), 2]}"#, #""hé""#),
        (#"{"substr": [{"var": "s"}, 1e300, -1e300]}"#, #""""#),
        (#"{"substr": [{"var": "s"}, {"/": [0, 0]}, {"/": [1, 0]}]}"#, #""héllo""#),
        (#"{"substr": [{"var": "s"}, {"/": [-1, 0]}, 2]}"#, #""hé""#),
        // Arithmetic on integers at the edges: JavaScript's doubles, never a trap.
        (#"{"+": [\#(max), 1]}"#, "9.223372036854776e18"),
        (#"{"*": [\#(max), \#(max)]}"#, "8.507059173023462e37"),
        (#"{"-": [\#(min), 1]}"#, "-9.223372036854776e18"),
        (#"{"-": [\#(min)]}"#, "9.223372036854776e18"),
        (#"{"%": [\#(min), -1]}"#, "0"),
        (#"{"/": [\#(min), -1]}"#, "9.223372036854776e18"),
        (#"{"max": [\#(max), \#(min)]}"#, "9.223372036854776e18"),
        (#"{"+": {"var": "edges"}}"#, "0"),
        (#"{"cat": [\#(min)]}"#, #""-9223372036854776000""#),
        (#"{"cat": [[\#(min), \#(max)]]}"#, #""-9223372036854776000,9223372036854776000""#),
        // missing_some with a need at the edges.
        (#"{"missing_some": [\#(max), ["a", "b"]]}"#, #"["b"]"#),
        (#"{"missing_some": [\#(min), ["a", "b"]]}"#, "[]"),
        // sem_ver numbers past 64 bits, and numbers as versions.
        (#"{"sem_ver": ["99999999999999999999999.0.0", ">", "18446744073709551615.0.0"]}"#, "true"),
        (#"{"sem_ver": ["18446744073709551616.0.0", ">", "18446744073709551615.0.0"]}"#, "true"),
        (#"{"sem_ver": [\#(max), "=", "\#(max).0.0"]}"#, "true"),
        (#"{"sem_ver": [\#(min), "=", "1.0.0"]}"#, "null"),
        (#"{"sem_ver": [1e308, "=", "1.0.0"]}"#, "null"),
        (#"{"sem_ver": ["1.0.0-\#(max)9", "<", "1.0.0-\#(max)99"]}"#, "true"),
        // fractional weights and their sums.
        (#"{"fractional": ["k", ["a", \#(max)], ["b", \#(max)]]}"#, "null"),
        (#"{"fractional": ["k", ["a", \#(min)], ["b", 1]]}"#, #""b""#),
        (#"{"fractional": ["k", ["a", 1e308], ["b", 1]]}"#, "null"),
        (#"{"fractional": ["k", ["a", -1e308], ["b", 1]]}"#, #""b""#),
        (#"{"fractional": ["k", ["a", 2147483647]]}"#, #""a""#),
        (#"{"fractional": ["k", ["a", 4294967296]]}"#, "null"),
        (#"{"fractional": ["k", ["a", {"+": [\#(max), 1]}]]}"#, "null"),
        (#"{"fractional": ["k", ["a", {"var": "xs.0"}], ["b", {"-": [\#(min)]}]]}"#, "null"),
    ])
    func integersAtTheEdgesNeverTrap(rule: String, expected: String) {
        let data: JSON = [
            "a": 1, "xs": [10, 20, 30], "s": "héllo", "edges": [.integer(Int64.max), .integer(Int64.min)],
        ]
        let got = Self.outcome(rule, data)
        #expect(got == expected || (expected.hasPrefix("compile error") && got.hasPrefix(expected)), "\(rule) → \(got)")
    }

    /// The sum of weights never overflows, however many there are.
    @Test func manyHugeWeightsSumWithoutOverflow() throws {
        let fractions = (0..<10_000).map { "[\"v\($0)\", \(Self.max)]" }.joined(separator: ",")
        #expect(Self.outcome(#"{"fractional": ["k", \#(fractions)]}"#) == "null")
        let table = try #require(FractionTable(Array(repeating: ["a", .integer(Int64.max)], count: 5_000)[...]))
        #expect(table.pick(UInt32.max) == nil)
    }

    /// The CBOR generation encodes integers at the edges and reals near 2⁶⁴.
    @Test func bucketingValuesAtTheEdges() {
        for value in [Self.max, Self.min, "1.8446744073709552e19", "1.8446744073709550e19", "-9.3e18", "1e308"] {
            let got = Self.outcome(#"{"fractional": [\#(value), ["a", 1], ["b", 1]]}"#, hashing: .murmur3CBOR)
            #expect(got == #""a""# || got == #""b""#, "\(value) → \(got)")
        }
    }

    /// A budget near Int.max is capped, so that charges cannot wrap it around.
    @Test func budgetsNearIntMaxAreCapped() throws {
        var limits = EvaluationLimits(maxSteps: .max)
        #expect(limits.maxSteps == Int.max / 2)
        limits.maxSteps = .max
        #expect(limits.maxSteps == Int.max / 2)
        let big = JSON.array((0..<50_000).map { .int($0) })
        let rule = try JSONLogicRule(json(#"{"map": [[1, 2], {"merge": [{"val": [[2], "big"]}]}]}"#))
        #expect(try rule.evaluate(["big": big], limits: limits).arrayValue?.count == 2)
    }

    // MARK: - Work that grows with the operands

    static let thousand = JSON.array((0..<1_000).map { .int($0) })
    static let bigArray = JSON.array((0..<99_999).map { .int($0) })
    static let megabyte = String(repeating: "a", count: 1_000_000)
    static let needle = String(repeating: "a", count: 20_000) + "b"

    static func work(
        _ rule: String, _ data: JSON, flagd: FlagdProperties? = nil,
        hashing: FractionalHashing = .default
    ) throws -> Int {
        try JSONLogicRule(json(rule), fractionalHashing: hashing).evaluateCountingWork(data, flagd: flagd).work
    }

    static func isStopped(
        _ rule: String, _ data: JSON, flagd: FlagdProperties? = nil,
        hashing: FractionalHashing = .default
    ) throws -> Bool {
        do {
            _ = try JSONLogicRule(json(rule), fractionalHashing: hashing).evaluate(data, flagd: flagd)
            return false
        } catch RuleEvaluationError.tooManySteps(let limit) {
            return limit == EvaluationLimits.default.maxSteps
        }
    }

    /// A 20,001-byte needle in a 1,000,000-byte haystack took 6.3 s with the
    /// naive search (haystack × needle). The search is linear now: it finishes
    /// at once, charged for what it reads; a thousand of them are stopped.
    @Test func substringSearchIsLinearAndCharged() throws {
        let data: JSON = ["n": .string(Self.needle), "h": .string(Self.megabyte), "xs": Self.thousand]
        let (result, work) = try JSONLogicRule(json(#"{"in": [{"var": "n"}, {"var": "h"}]}"#)).evaluateCountingWork(
            data)
        #expect(result == false)
        // The scan, then the linear search once the scan has compared too much.
        #expect(work >= (1_000_000 + 20_001) / 16 && work < 400_000, "\(work)")
        #expect(
            try JSONLogicRule(json(#"{"in": [{"var": "n"}, {"var": "h"}]}"#))
                .evaluate(["n": .string(Self.needle), "h": .string(Self.megabyte + "b")]) == true)
        #expect(
            try Self.isStopped(#"{"map": [{"var": "xs"}, {"in": [{"val": [[2], "n"]}, {"val": [[2], "h"]}]}]}"#, data))
    }

    /// `map` over 1,000 items comparing a 99,999-element array took 5 s.
    /// Each comparison is charged by the array's length now.
    @Test(arguments: [
        #"{"in": [-1, {"val": [[2], "big"]}]}"#,
        #"{"==": [{"val": [[2], "big"]}, "x"]}"#,
        #"{"<": [{"val": [[2], "big"]}, {"val": [[2], "big"]}]}"#,
        #"{"cat": [{"val": [[2], "big"]}]}"#,
        #"{"max": {"val": [[2], "big"]}}"#,
    ])
    func comparingLongArraysIsChargedByLength(body: String) throws {
        let data: JSON = ["xs": Self.thousand, "big": Self.bigArray]
        #expect(try Self.work(#"{"map": [[1], \#(body)]}"#, data) >= 99_999, "\(body)")
        #expect(try Self.isStopped(#"{"map": [{"var": "xs"}, \#(body)]}"#, data), "\(body)")
    }

    /// `map` × `merge` of a 100,000-element array reached 1 GB from 700 KB of
    /// input. Each element merged is charged as it is built, so the budget
    /// bounds what merges can build: at most 500,000 elements, 16 MB.
    @Test func mergesAreChargedPerElementBuilt() throws {
        let big = JSON.array((0..<100_000).map { .int($0) })
        let data: JSON = ["xs": Self.thousand, "big": big]
        let one = try Self.work(#"{"merge": [{"var": "big"}]}"#, data)
        #expect(one >= 100_000 * Interpreter.unitsPerElementBuilt, "\(one)")
        #expect(try Self.isStopped(#"{"map": [{"var": "xs"}, {"merge": [{"val": [[2], "big"]}]}]}"#, data))
        // Arrays written in the rule are built anew at each evaluation too.
        let literal = "[" + (0..<10_000).map(String.init).joined(separator: ",") + #", {"var": ""}]"#
        #expect(try Self.work(#"{"map": [[1], \#(literal)]}"#, data) >= 10_000 * Interpreter.unitsPerElementBuilt)
        #expect(try Self.isStopped(#"{"map": [{"var": "xs"}, \#(literal)]}"#, data))
    }

    /// Strings scanned, converted or built are charged by their length.
    @Test func stringWorkIsChargedByLength() throws {
        let spaces = String(repeating: " ", count: 500_000) + "7"
        let accented = String(repeating: "é", count: 250_000)
        let version = "1.0.0-" + Array(repeating: "a", count: 100_000).joined(separator: ".")
        let data: JSON = [
            "xs": Self.thousand, "h": .string(Self.megabyte), "spaces": .string(spaces), "accented": .string(accented),
            "version": .string(version),
        ]
        let cases: [(String, Int)] = [
            (#"{"cat": [{"val": [[2], "h"]}, "!"]}"#, 1_000_000 / 16),
            (#"{"substr": [{"val": [[2], "accented"]}, 1, 3]}"#, 500_000 / 16),
            (#"{"+": [{"val": [[2], "spaces"]}, 1]}"#, 500_000 / 16),
            (#"{"<": [{"val": [[2], "h"]}, {"val": [[2], "h"]}]}"#, 1_000_000 / 16),
            (#"{"starts_with": [{"val": [[2], "h"]}, {"val": [[2], "h"]}]}"#, 1_000_000 / 16),
            (
                #"{"sem_ver": [{"val": [[2], "version"]}, "=", "1.0.0"]}"#,
                version.utf8.count / Interpreter.versionBytesPerUnit
            ),
        ]
        for (body, minimum) in cases {
            #expect(try Self.work(#"{"map": [[1], \#(body)]}"#, data) >= minimum, "\(body)")
            #expect(try Self.isStopped(#"{"map": [{"var": "xs"}, \#(body)]}"#, data), "\(body)")
        }
        #expect(try JSONLogicRule(json(#"{"+": [{"var": "spaces"}, 1]}"#)).evaluate(data) == 8)
    }

    /// Reading the data: computed paths by component, `missing` by key, the
    /// context copied whole with `$flagd` by member.
    @Test func dataAccessIsChargedByWhatItReads() throws {
        var wide = JSONObject()
        for index in 0..<20_000 { wide["key-\(index)"] = .int(index) }
        wide["xs"] = Self.thousand
        let path = Array(repeating: "a", count: 400).joined(separator: ".")
        let keys = JSON.array((0..<20_000).map { .string("k\($0)") })
        let data: JSON = ["xs": Self.thousand, "path": .string(path), "keys": keys]
        #expect(try Self.work(#"{"var": {"var": "path"}}"#, data) >= 400 * Interpreter.unitsPerPathComponent)
        #expect(try Self.work(#"{"missing": {"var": "keys"}}"#, data) >= 20_000 * 3)
        let flagd = FlagdProperties(flagKey: "f", timestamp: 0)
        #expect(
            try Self.work(#"{"var": ""}"#, .object(wide), flagd: flagd) >= 20_000 * Interpreter.unitsPerMemberCopied)
        #expect(try Self.isStopped(#"{"map": [{"var": "xs"}, {"val": [[2]]}]}"#, .object(wide), flagd: flagd))
        // A path longer than any data can nest names nothing, and is not made.
        let endless = Array(repeating: "a", count: 100_000).joined(separator: ".")
        #expect(try JSONLogicRule(json(#"{"var": {"var": "p"}}"#)).evaluate(["p": .string(endless)]) == .null)
    }

    /// `fractional` is charged for hashing its bucketing value and for
    /// fractions it reads at evaluation.
    @Test func fractionalIsChargedForWhatItHashesAndReads() throws {
        var wide = JSONObject()
        for index in 0..<10_000 { wide["key-\(index)"] = .int(index) }
        let data: JSON = ["wide": .object(wide), "xs": Self.thousand]
        #expect(
            try Self.work(#"{"fractional": [{"var": "wide"}, ["a", 1], ["b", 1]]}"#, data, hashing: .murmur3CBOR)
                >= 10_000)
        #expect(
            try Self.isStopped(
                #"{"map": [{"var": "xs"}, {"fractional": [{"val": [[2], "wide"]}, ["a", 1], ["b", 1]]}]}"#,
                data, hashing: .murmur3CBOR))
        let computed = (0..<2_000).map { _ in #"["a", {"var": "xs.1"}]"# }.joined(separator: ",")
        #expect(try Self.work(#"{"fractional": ["key", \#(computed)]}"#, data) >= 2_000)
        // Long literal tables are searched, not scanned.
        let table = try #require(FractionTable((0..<100_000).map { JSON.array([.string("v\($0)"), 1]) }[...]))
        #expect(table.pick(0) == 0 && table.pick(UInt32.max) == 99_999 && table.pick(1 << 31) == 50_000)
    }

    /// Short operands cost nothing beyond their operation: typical rules are
    /// charged as before.
    @Test func typicalRulesCostAUnitAnOperation() throws {
        let data: JSON = ["tier": "gold", "age": 30, "email": "ana@example.com", "country": "DE", "version": "2.1.0"]
        for (rule, expected) in [
            (#"{"==": [{"var": "tier"}, "gold"]}"#, 2),
            (#"{"if": [{">=": [{"var": "age"}, 18]}, "on", "off"]}"#, 3),
            (#"{"in": ["beta", {"var": "email"}]}"#, 3),
            (#"{"in": [{"var": "country"}, ["US", "CA", "DE", "FR"]]}"#, 2),
            (#"{"sem_ver": [{"var": "version"}, ">=", "2.0.0"]}"#, 2),
            (#"{"starts_with": [{"var": "email"}, "ana"]}"#, 2),
        ] {
            #expect(try Self.work(rule, data) == expected, "\(rule)")
        }
    }
}
