import BuntingJSON
import Testing

@Suite struct JSONParsingTests {
    @Test func parsesEveryType() throws {
        let value = try JSON.parse(#"{"a":null,"b":true,"c":-12,"d":1.5,"e":"x","f":[1,{}],"g":{"h":[]}}"#)
        #expect(value["a"] == .null)
        #expect(value["b"] == .bool(true))
        #expect(value["c"] == .integer(-12))
        #expect(value["d"] == .real(1.5))
        #expect(value["e"] == .string("x"))
        #expect(value["f"] == .array([.integer(1), .object([:])]))
        #expect(value["g"]?["h"] == .array([]))
    }

    @Test func bareScalarsAreValues() throws {
        #expect(try JSON.parse("3") == .integer(3))
        #expect(try JSON.parse(" \"s\" ") == .string("s"))
        #expect(try JSON.parse("null") == .null)
    }

    @Test func keepsKeyOrder() throws {
        let value = try JSON.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func integersAndRealsStayApart() throws {
        #expect(try JSON.parse("1.0") == .real(1.0))
        #expect(try JSON.parse("1") == .integer(1))
        #expect(try JSON.parse("1e2") == .real(100))
        #expect(try JSON.parse("-0") == .integer(0))
    }

    @Test func largestIntegersFitAndOneMoreIsRefused() throws {
        #expect(try JSON.parse("9223372036854775807") == .integer(Int64.max))
        #expect(try JSON.parse("-9223372036854775808") == .integer(Int64.min))
        let error = #expect(throws: JSONParseError.self) { try JSON.parse("[9223372036854775808]") }
        #expect(error?.kind == .numberOutOfRange)
        #expect(error?.line == 1)
    }

    @Test func realOverflowIsRefused() {
        let error = #expect(throws: JSONParseError.self) { try JSON.parse("1e400") }
        #expect(error?.kind == .numberOutOfRange)
    }

    @Test func embeddedNULIsKept() throws {
        let value = try JSON.parse(#"{"k":"a\u0000b"}"#)
        #expect(value["k"] == .string("a\u{0}b"))
        #expect(value["k"]?.stringValue?.utf8.count == 3)
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array(#"{"k":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(bytes) }
        #expect(error?.kind == .invalidUTF8)
    }

    @Test func loneSurrogateEscapeIsRefused() {
        #expect(throws: JSONParseError.self) { try JSON.parse(#""\ud800""#) }
    }

    @Test func duplicateKeysAreRefused() {
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(#"{"a":1,"a":2}"#) }
        #expect(error?.kind == .duplicateKey)
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        let error = #expect(throws: JSONParseError.self) { try JSON.parse("{\n  \"a\": 1,\n  \"b\" 2\n}") }
        #expect(error?.kind == .syntax)
        #expect(error?.line == 3)
        #expect((error?.column ?? 0) > 0)
    }

    @Test func truncatedInputIsTruncated() {
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(#"{"a":[1,2"#) }
        #expect(error?.kind == .truncated)
    }

    @Test func trailingGarbageIsRefused() {
        #expect(throws: JSONParseError.self) { try JSON.parse("{} {}") }
    }

    @Test func emptyInputIsEmpty() {
        let error = #expect(throws: JSONParseError.self) { try JSON.parse("  \n ") }
        #expect(error?.kind == .empty)
    }

    @Test func nestingAtTheLimitParses() throws {
        let depth = JSON.defaultMaxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSON.parse(text)
        var levels = 0
        while case .array(let inner) = value {
            levels += 1
            value = inner.first ?? .null
        }
        #expect(levels == depth)
    }

    @Test func nestingBeyondTheLimitIsRefusedWithItsPosition() {
        let text = "{\"a\":" + String(repeating: "[", count: 100_000)
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(text) }
        #expect(error?.kind == .tooDeep)
        #expect(error?.position == 5 + JSON.defaultMaxDepth - 1)
        #expect(error?.column == 6 + JSON.defaultMaxDepth - 1)
    }

    /// jansson accepts these texts; the depth is found while converting them,
    /// and the error still names the level too many.
    @Test func aWellFormedTextOneLevelTooDeepIsRefusedWithItsPosition() throws {
        #expect(try JSON.parse(#"{"a": [[{}]]}"#, maxDepth: 4)["a"]?[0]?[0] == .object([:]))
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(#"{"a": [[{"b": []}]]}"#, maxDepth: 4) }
        #expect(error?.kind == .tooDeep)
        #expect(error?.position == 14)
        #expect(error?.line == 1 && error?.column == 15)
    }

    @Test func bracketsInsideStringsDoNotCount() throws {
        let text = "\"" + String(repeating: "[", count: 10_000) + "\\\"{\""
        #expect(try JSON.parse(text).stringValue?.count == 10_002)
    }

    @Test func columnsCountScalarsNotBytes() {
        let text = "[\"é\"," + String(repeating: "[", count: JSON.defaultMaxDepth) + "]"
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(text) }
        #expect(error?.column == 5 + JSON.defaultMaxDepth)
        #expect(error?.position == 6 + JSON.defaultMaxDepth - 1)
    }
}
