import BuntingJSON
import BuntingSchema
import Testing

@Suite struct JSONSourceLocatorTests {
    private func locate(_ pointer: String, in text: String) throws -> JSONSourceLocation? {
        _ = try JSON.parse(text) // the locator is only promised documents that parse
        return JSONSourceLocator(text).location(of: try JSONPointer(parsing: pointer))
    }

    private let document = """
        {
          "flags": {
            "a/b": {"state": "ENABLED"},
            "say \\"hi\\"": [10, {"x": true}, "three"],
            "caf\\u00e9": 1,
            "déjà": 2
          },
          "text": "naïve → ok", "after": null
        }
        """

    @Test func findsTheRootAndMembersOnSeveralLines() throws {
        #expect(try locate("", in: document) == JSONSourceLocation(line: 1, column: 1, offset: 0))
        #expect(try locate("/flags", in: document)?.description == "2:12")
        #expect(try locate("/text", in: document)?.description == "8:11")
    }

    @Test func readsEscapedKeys() throws {
        #expect(try locate("/flags/a~1b", in: document)?.description == "3:12")
        #expect(try locate("/flags/a~1b/state", in: document)?.description == "3:22")
        #expect(try locate("/flags/say \"hi\"/2", in: document)?.description == "4:37")
        #expect(try locate("/flags/café", in: document)?.description == "5:18")
        #expect(try locate("/flags/déjà", in: document)?.description == "6:13")
        let escaped = #"{"caf\u00e9": 1}"#
        #expect(try locate("/café", in: escaped)?.description == "1:15")
        let surrogates = #"{"\ud83d\ude00": [true]}"#
        #expect(try locate("/😀/0", in: surrogates)?.description == "1:19")
    }

    @Test func countsColumnsInUnicodeScalars() throws {
        #expect(try locate("/after", in: document)?.description == "8:34")
        let text = "{\"é\": {\"ü\": [\"→\", 2]}}"
        let location = try #require(try locate("/é/ü/1", in: text))
        #expect(location.line == 1)
        #expect(location.column == 19)
        #expect(location.offset == 22)
    }

    @Test func findsArrayElements() throws {
        let text = "[\n  1,\n  [ ],\n  {\"k\": [null, \"x\"]}\n]"
        #expect(try locate("/0", in: text)?.description == "2:3")
        #expect(try locate("/1", in: text)?.description == "3:3")
        #expect(try locate("/2/k/1", in: text)?.description == "4:16")
    }

    @Test func aMissingMemberPointsAtItsParent() throws {
        #expect(try locate("/flags/missing", in: document)?.description == "2:12")
        #expect(try locate("/flags/a~1b/variants/on", in: document)?.description == "3:12")
        #expect(try locate("/flags/say \"hi\"/7", in: document)?.description == "4:19")
        #expect(try locate("/text/0", in: document)?.description == "8:11")
        #expect(try locate("/0", in: "[]")?.description == "1:1")
        #expect(try locate("/01", in: "[1, 2]")?.description == "1:1")
    }

    @Test func skipsNestedValuesAndStringsHoldingBrackets() throws {
        let text = #"{"a": {"b": "}]{[", "c": [[{}], {"d": "\\\""}]}, "e": 5}"#
        #expect(try locate("/e", in: text)?.offset == 54)
    }

    @Test func offsetsGiveLineAndColumn() {
        let locator = JSONSourceLocator("ab\ncé\nd")
        #expect(locator.location(ofOffset: 0).description == "1:1")
        #expect(locator.location(ofOffset: 3).description == "2:1")
        #expect(locator.location(ofOffset: 6).description == "2:3")
    }

    @Test func textThatIsNotJSONGivesNil() {
        #expect(JSONSourceLocator("  ").location(of: .root) == nil)
    }
}
