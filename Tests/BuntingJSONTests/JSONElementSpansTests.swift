import BuntingJSON
import Testing

/// The elements of an array found in its text without parsing them.
@Suite struct JSONElementSpansTests {
    func elements(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in
            JSONElementSpans.elements(of: buffer, in: 0..<buffer.count)?.map {
                String(decoding: bytes[$0], as: UTF8.self)
            }
        }
    }

    @Test func eachElementIsItsValueAsWritten() throws {
        let found = try #require(
            elements(#" [ 1 , {"x": "],[", "y": [2, {}]}, "s\\\"]" ,[[]],-1.5e3,null,true ] "#))
        #expect(found == ["1", #"{"x": "],[", "y": [2, {}]}"#, #""s\\\"]""#, "[[]]", "-1.5e3", "null", "true"])
        #expect(try #require(elements("[]")).isEmpty)
        #expect(try #require(elements(" [ ] ")).isEmpty)
    }

    @Test func aTextThatIsNotOneArrayHasNoElements() {
        for text in [
            "", "{}", "1", "[", "[1", "[1,]", "[,1]", "[1 2]", "[1]]", "[1] 2", "[1}", #"["x]"#, "[1,,2]",
            #"[{"a":1]"#,
        ] {
            #expect(elements(text) == nil, "\(text)")
        }
    }

    /// Every element parses on its own exactly when the array parses whole, to the same values.
    @Test func elementsThatParseMakeTheArrayThatParses() throws {
        for text in [
            #"[{"a": [1, 2]}, "b", 3.5, [true, null]]"#, #"[{"a": 1]}]"#, #"[{"a": "\u00e9\n"}, {"b": {"c": []}}]"#,
            #"[1, 0x2]"#, #"[{"a":1,"a":2}]"#,
        ] {
            let bytes = Array(text.utf8)
            let whole = try? JSON.parse(bytes)
            let spans = bytes.withUnsafeBytes { JSONElementSpans.elements(of: $0, in: 0..<$0.count) }
            let parts = spans.flatMap { spans in
                try? spans.map { (span) throws(JSONParseError) -> JSON in try JSON.parse(Array(bytes[span])) }
            }
            #expect(parts.map(JSON.array) == whole, "\(text)")
        }
    }
}
