import BuntingJSON
import Testing
@testable import BuntingRules

/// flagd's operators and their building blocks. Expected hashes and
/// encodings were computed with the Python packages `mmh3` and `cbor2`
/// (canonical=True), which flagd-core uses.
struct FlagdOperatorTests {
    @Test(arguments: [
        ("", UInt32(0)), ("a", 1_009_084_850), ("ab", 2_613_040_991), ("abc", 3_017_643_002),
        ("abcd", 1_139_631_978), ("hello", 613_153_351), ("flagkeyuser-1", 2_559_623_979),
        ("ユーザー🙂", 3_566_946_436),
    ])
    func murmurHashMatchesMmh3(text: String, hash: UInt32) {
        #expect(MurmurHash3.x86_32(text) == hash)
        #expect(StableBucketing.hash(text) == hash)
    }

    /// Bytes fed in pieces, split anywhere (blocks are read four at a time),
    /// hash as the whole does.
    @Test func murmurHashOfPiecesIsTheHashOfTheWhole() {
        let text = Array("flag-key-1234ユーザー🙂user-56789".utf8)
        for first in 0...text.count {
            for second in first...min(text.count, first + 9) {
                var hasher = MurmurHash3()
                for piece in [text[..<first], text[first..<second], text[second...]] {
                    Array(piece).withUnsafeBufferPointer { hasher.combine($0) }
                }
                #expect(hasher.finalize() == MurmurHash3.x86_32(text), "split at \(first), \(second)")
            }
        }
    }

    @Test(arguments: [
        ("0", "00"), ("23", "17"), ("24", "1818"), ("255", "18ff"), ("256", "190100"), ("65535", "19ffff"),
        ("65536", "1a00010000"), ("4294967296", "1b0000000100000000"), ("-1", "20"), ("-25", "3818"),
        ("1.5", "f93e00"), ("0.1", "fb3fb999999999999a"), ("100000.5", "fa47c35040"), ("1e300", "fb7e37e43c8800759c"),
        ("3.4028234663852886e38", "fa7f7fffff"), ("true", "f5"), ("null", "f6"), (#""a""#, "6161"),
        (#"[1, "x"]"#, "82016178"), (#"{"b": 1, "aa": 2, "a": 0}"#, "a361610061620162616102"), ("2.0", "02"),
        ("-0.0", "00"), ("1e19", "1b8ac7230489e80000"), ("9223372036854775807", "1b7fffffffffffffff"),
    ])
    func canonicalCBORMatchesCbor2(value: String, hex: String) throws {
        let bytes = try #require(CanonicalCBOR.encode(json(value)))
        #expect(bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() == hex, "\(value)")
    }

    @Test func stableBucketsAreEvenAndFixed() {
        #expect(StableBucketing.bucket("abc", count: 100) == Int((UInt64(3_017_643_002) * 100) >> 32))
        #expect(StableBucketing.unitInterval("") == 0)
        var counts = [0, 0, 0, 0]
        for index in 0..<40_000 { counts[StableBucketing.bucket("user-\(index)", count: 4)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 10_000) < 400 }, "\(counts)")
    }

    @Test func fractionalSplitsByWeight() throws {
        let rule = try JSONLogicRule(json(#"{"fractional": [["a", 25], ["b", 75]]}"#))
        var a = 0
        for index in 0..<20_000 {
            let value = try rule.evaluate(
                ["targetingKey": .string("user-\(index)")],
                flagd: FlagdProperties(flagKey: "split", timestamp: 0))
            if value == "a" { a += 1 }
        }
        #expect(abs(a - 5_000) < 300, "\(a)")
        // The bucket is hash("split" + "user-1") × 100 >> 32.
        let hash = MurmurHash3.x86_32("splituser-1")
        let expected: JSON = (UInt64(hash) * 100) >> 32 < 25 ? "a" : "b"
        #expect(
            try rule.evaluate(["targetingKey": "user-1"], flagd: FlagdProperties(flagKey: "split", timestamp: 0))
                == expected)
    }

    @Test func fractionalWithoutATargetingKeyIsNull() throws {
        for hashing in FractionalHashing.allCases {
            let rule = try JSONLogicRule(json(#"{"fractional": [["a", 1], ["b", 1]]}"#), fractionalHashing: hashing)
            #expect(try rule.evaluate(["targetingKey": ""]) == .null)
            #expect(try rule.evaluate(["other": 1]) == .null)
            let empty = try JSONLogicRule(
                json(#"{"fractional": [{"var": "k"}, ["a", 0], ["b", 0]]}"#), fractionalHashing: hashing)
            #expect(try empty.evaluate(["k": "key"]) == .null)
        }
        // Only a string targeting key buckets (flagd-core 1.x fails on a number instead).
        let rule = try JSONLogicRule(json(#"{"fractional": [["a", 1]]}"#))
        for key: JSON in [5, true, ["user"], .null] {
            #expect(
                try rule.evaluate(["targetingKey": key], flagd: FlagdProperties(flagKey: "f", timestamp: 0)) == .null)
        }
        #expect(try rule.evaluate(["targetingKey": "u"], flagd: FlagdProperties(flagKey: "f", timestamp: 0)) == "a")
    }

    /// What flagd answers with null, and what it still buckets.
    @Test(arguments: [
        (#"{"fractional": []}"#, JSON.null),
        (#"{"fractional": "key"}"#, JSON.null),
        (#"{"fractional": ["key"]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", 0], ["b", 0]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", -5], ["b", 0]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", 25.5], ["b", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", "25"], ["b", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", true], ["b", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", null], ["b", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", 1, 2], ["b", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", "b", ["a", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", 2147483647], ["b", 1]]}"#, JSON.null),
        (#"{"fractional": ["", ["a", 1]]}"#, JSON.null),
        (#"{"fractional": [{"var": "n"}, ["a", 1]]}"#, JSON.null),
        (#"{"fractional": ["key", ["a", -5], ["b", 1]]}"#, JSON("b")),
        (#"{"fractional": ["key", ["a", 1.0]]}"#, JSON("a")),
        (#"{"fractional": ["key", ["a", 2147483646], ["b", 1]]}"#, JSON("a")),
        (#"{"fractional": ["key", ["a"]]}"#, JSON("a")),
    ])
    func fractionalEdgeCases(rule: String, expected: JSON) throws {
        let compiled = try JSONLogicRule(json(rule))
        #expect(try compiled.evaluate(["n": 42]) == expected, "\(rule)")
    }

    @Test func fractionalGenerationsBucketDifferently() throws {
        let source = json(#"{"fractional": [{"var": "id"}, ["a", 1], ["b", 1], ["c", 1], ["d", 1]]}"#)
        let string = try JSONLogicRule(source, fractionalHashing: .murmur3String)
        let cbor = try JSONLogicRule(source, fractionalHashing: .murmur3CBOR)
        var differ = 0
        for index in 0..<200 {
            let data: JSON = ["id": .string("id-\(index)")]
            if try string.evaluate(data) != cbor.evaluate(data) { differ += 1 }
        }
        #expect(differ > 100)
        // Only the CBOR generation buckets by non-string values.
        #expect(try string.evaluate(["id": 42]) == .null)
        #expect(try cbor.evaluate(["id": 42]) != .null)
        #expect(FractionalHashing(rawValue: "murmur3-string") == .murmur3String)
        #expect(FractionalHashing(rawValue: "murmur3-cbor") == .murmur3CBOR)
        #expect(FractionalHashing.default == .murmur3String)
    }

    @Test(arguments: [
        ("2.0.0", "=", "2.0.0", true), ("v2.0", "=", "2.0.0", true), ("2", "=", "2.0.0", true),
        ("2.0.0+b1", "=", "2.0.0+b2", true), ("1.0.0-rc.1", "<", "1.0.0", true),
        ("1.0.0-rc.2", ">", "1.0.0-rc.10", false),
        ("1.0.0-alpha", "<", "1.0.0-alpha.1", true), ("1.0.0-alpha.beta", ">", "1.0.0-alpha.1", true),
        ("1.0.0-1", "<", "1.0.0-a", true), ("10.0.0", ">", "9.9.9", true), ("1.2.3", "^", "1.9.0", true),
        ("1.2.3", "~", "1.2.9", true), ("1.2.3", "~", "1.3.0", false), ("2.0.0", "!=", "2.0.1", true),
        ("1.2.3", "<=", "1.2.3", true), ("1.2.3", ">=", "1.2.4", false),
        ("99999999999999999999.0.0", ">", "9999999999999999999.0.0", true),
    ])
    func semVerComparesLikeFlagd(lhs: String, operation: String, rhs: String, expected: Bool) throws {
        let rule = try JSONLogicRule(["sem_ver": [.string(lhs), .string(operation), .string(rhs)]])
        #expect(try rule.evaluate(.null) == .bool(expected), "\(lhs) \(operation) \(rhs)")
    }

    /// Partial, prefixed and numeric versions, as current flagd reads them.
    @Test(arguments: [
        (JSON("1"), "1.0.0"), ("1.2", "1.2.0"), ("v1", "1.0.0"), ("V1.2", "1.2.0"), ("v1.2.3", "1.2.3"),
        ("V1.2.3-rc.1+b", "1.2.3-rc.1"), (2, "2.0.0"), (0, "0.0.0"), (1.5, "1.5.0"), (2.0, "2.0.0"), (1.25, "1.25.0"),
        (9_999_999_999_999_998.0, "9999999999999998.0.0"), (12_345_678_901_234_567, "12345678901234567.0.0"),
    ])
    func semVerReadsPartialPrefixedAndNumericVersions(version: JSON, full: String) throws {
        let rule = try JSONLogicRule(["sem_ver": [version, "=", .string(full)]])
        #expect(try rule.evaluate(.null) == true, "\(version.encodedString())")
    }

    @Test func semVerOfNonVersionsIsNull() throws {
        for version: JSON in [
            "", "1.2.3.4", "01.2.3", "1.02", "1.2.3-", "1.2.3+", "latest", "v", "vv1", "1.", "1..2", " 1.2.3",
            "1.2.3\n",
            "١.2.3", "1.2-rc.1", "1-alpha", "1+build", "v1.2+b", true, nil, ["1.0.0"], "1.0.0-01",
            -1, -0.0, 1.05, 1e16, 1e-5,
        ] {
            let rule = try JSONLogicRule(["sem_ver": [version, "=", "1.0.0"]])
            #expect(try rule.evaluate(.null) == .null, "\(version.encodedString())")
        }
        #expect(try JSONLogicRule(["sem_ver": [2, ">=", "1.5"]]).evaluate(.null) == true)
        #expect(
            try JSONLogicRule(json(#"{"sem_ver": ["1.0.0", {"var": "op"}, "1.0.0"]}"#)).evaluate(["op": "*"]) == .null)
    }

    /// What sem_ver cannot compare is null: the wrong number of arguments,
    /// an unknown comparison, a comparison that is not a string.
    @Test(arguments: [
        #"{"sem_ver": []}"#, #"{"sem_ver": "1.0.0"}"#, #"{"sem_ver": ["1.0.0", "="]}"#,
        #"{"sem_ver": ["1.0.0", "=", "1.0.0", "1.0.0"]}"#, #"{"sem_ver": ["1.0.0", "===", "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", "", "1.0.0"]}"#, #"{"sem_ver": ["1.0.0", 1, "1.0.0"]}"#,
        #"{"sem_ver": ["1.0.0", ["="], "1.0.0"]}"#, #"{"sem_ver": ["1.0.0", null, "1.0.0"]}"#,
        #"{"starts_with": []}"#, #"{"starts_with": "abc"}"#, #"{"starts_with": ["abc"]}"#,
        #"{"ends_with": ["abc", "c", "c"]}"#, #"{"starts_with": [5, "5"]}"#, #"{"ends_with": ["abc", 3]}"#,
        #"{"ends_with": [null, "c"]}"#, #"{"starts_with": [["a"], "a"]}"#,
    ])
    func flagdOperatorsAnswerNullForWhatTheyCannotCompare(rule: String) throws {
        let compiled = try JSONLogicRule(json(rule))
        #expect(try compiled.evaluate(.null) == .null, "\(rule)")
        // As a condition, null is false.
        #expect(try compiled.isSatisfied(by: .null) == false, "\(rule)")
    }

    /// The operands of such an operator are still evaluated: their errors
    /// and their work count.
    @Test func unanswerableOperatorsStillEvaluateTheirOperands() throws {
        let rule = try JSONLogicRule(json(#"{"sem_ver": [{"throw": "boom"}, "="]}"#))
        #expect(throws: RuleEvaluationError.thrown(["type": "boom"])) { try rule.evaluate(.null) }
    }

    @Test func startsAndEndsWithCompareCodePoints() throws {
        let starts = try JSONLogicRule(json(#"{"starts_with": [{"var": "s"}, "e"]}"#))
        #expect(try starts.evaluate(["s": "e\u{301}clair"]) == true) // Swift's hasPrefix would say false
        #expect(try starts.evaluate(["s": 5]) == .null)
        let ends = try JSONLogicRule(json(#"{"ends_with": [{"var": "s"}, "@example.com"]}"#))
        #expect(try ends.evaluate(["s": "ana@example.com"]) == true)
        #expect(try ends.evaluate(["s": "ana@example.com.evil"]) == false)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
