import BuntingJSON
import Testing
@testable import BuntingRules

/// The byte-level algorithms behind `in`, `substr`, string order and
/// `ToNumber`, against straightforward references over Swift's own views, on
/// generated strings mixing ASCII, two- and three-byte characters, characters
/// of U+E000…U+FFFF and characters past U+FFFF (surrogate pairs in UTF-16).
struct ByteLevelAlgorithmTests {
    static let alphabet: [Character] = ["a", "b", " ", "é", "€", "\u{E000}", "\u{FFFD}", "🙂", "𝄞", "\u{A0}"]

    static func strings(count: Int, maxLength: Int, seed: UInt64, alphabet: [Character] = alphabet) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            String((0..<Int.random(in: 0...maxLength, using: &random)).map { _ in random.pick(alphabet) })
        }
    }

    @Test func substringSearchMatchesANaiveSearch() {
        // Few letters, so that candidates and near-matches abound.
        let texts = Self.strings(count: 400, maxLength: 60, seed: 1, alphabet: ["a", "a", "a", "b", "é"])
        let parts = Self.strings(count: 400, maxLength: 6, seed: 2, alphabet: ["a", "a", "b", "é"])
        for (text, part) in zip(texts, parts) {
            let expected =
                part.isEmpty || Array(text.utf8).windows(part.utf8.count).contains { $0.elementsEqual(part.utf8) }
            #expect(
                Interpreter.search(text, for: part).found == expected,
                "\(part.debugDescription) in \(text.debugDescription)")
        }
        // The adversarial case, past the point where the scan gives way to
        // Knuth–Morris–Pratt: found near the end, and not found.
        let haystack = String(repeating: "a", count: 200_000)
        let needle = String(repeating: "a", count: 2_000) + "b"
        #expect(Interpreter.search(haystack + "b" + haystack, for: needle).found)
        #expect(!Interpreter.search(haystack, for: needle).found)
        #expect(Interpreter.search(haystack + needle, for: needle).found)
    }

    @Test func codeUnitOrderMatchesUTF16() {
        let strings = Self.strings(count: 300, maxLength: 12, seed: 3)
        for a in strings.prefix(100) {
            for b in strings.suffix(100) {
                #expect(
                    JavaScript.precedesInCodeUnits(a, b) == a.utf16.lexicographicallyPrecedes(b.utf16),
                    "\(a.debugDescription) < \(b.debugDescription)")
            }
        }
        // A long common prefix, then the surrogate case.
        let prefix = String(repeating: "x", count: 1_000)
        #expect(JavaScript.precedesInCodeUnits(prefix + "🙂", prefix + "\u{E000}"))
        #expect(!JavaScript.precedesInCodeUnits(prefix + "\u{FFFD}", prefix + "𝄞"))
    }

    @Test func substrMatchesSlicingTheUTF16Units() throws {
        let rule = try JSONLogicRule(json(#"{"substr": [{"var": "s"}, {"var": "from"}, {"var": "length"}]}"#))
        var random = SeededGenerator(seed: 4)
        for text in Self.strings(count: 400, maxLength: 10, seed: 5) {
            let units = Array(text.utf16)
            let from = Int.random(in: -12...12, using: &random)
            let length = Int.random(in: -12...12, using: &random)
            // JavaScript's substr as json-logic-js emulates it, over UTF-16 units.
            let size = units.count
            let start = from < 0 ? max(size + from, 0) : min(from, size)
            let end = length < 0 ? max(size + length, start) : min(start + length, size)
            let expected = start < end ? String(decoding: units[start..<end], as: UTF16.self) : ""
            let got = try rule.evaluate(["s": .string(text), "from": .int(from), "length": .int(length)])
            #expect(got == .string(expected), "\(text.debugDescription) \(from) \(length)")
        }
    }

    @Test func toNumberTrimsWhiteSpaceOfEveryKind() {
        for (text, expected) in [
            (" 12 ", 12.0), ("\u{A0}\u{2003}7\u{3000}\u{FEFF}", 7.0), ("\t\n\r\u{0B}\u{0C}-1.5e2 ", -150.0),
            ("\u{2028}0x1F\u{2029}", 31.0), ("\u{A0}", 0.0), ("", 0.0), (" é ", .nan), ("1 2", .nan),
            (String(repeating: " ", count: 10_000) + "3" + String(repeating: "\u{A0}", count: 10_000), 3.0),
        ] {
            let got = JavaScript.number(parsing: text)
            #expect(got == expected || (got.isNaN && expected.isNaN), "\(text.debugDescription) → \(got)")
        }
    }

    @Test func arraysBecomeTheStringsJavaScriptWrites() {
        let value: JSON = [
            1, -2, 0, .integer(Int64.max), .integer(Int64.min), 1.5, "x", .null, true, [3, [4, .null]], ["a": 1],
        ]
        #expect(
            JavaScript.toString(value) == "1,-2,0,9223372036854776000,-9223372036854776000,1.5,x,,true,3,4,,[object "
                + "Object]")
    }
}

private extension Array {
    func windows(_ size: Int) -> [ArraySlice<Element>] {
        guard size > 0, size <= count else { return [] }
        return (0...(count - size)).map { self[$0..<$0 + size] }
    }
}
