@testable import BuntingJSON
import Testing

/// Parsing in pieces (large texts) must read every text exactly as parsing it
/// whole does, and give up on every text it is not sure of.
@Suite struct JSONPiecesTests {
    private func inPieces(_ text: String, levels: Int = JSON.piecewiseLevels, maxDepth: Int = JSON.defaultMaxDepth)
        -> JSON?
    {
        Array(text.utf8).withUnsafeBytes { JSON.parseInPieces($0, maxDepth: maxDepth, levels: levels) }
    }

    /// The same value, keys in the same order (`==` on objects ignores order).
    private func expectSameAsWhole(_ text: String, levels: Int = JSON.piecewiseLevels) throws {
        let whole = try JSON.parse(text)
        let pieces = try #require(inPieces(text, levels: levels), "parsing in pieces gave up on \(text)")
        #expect(pieces == whole)
        #expect(pieces.encoded() == whole.encoded())
    }

    @Test func readsValidTextsAsParsingThemWholeDoes() throws {
        let texts = [
            #"{"flags":{"a":{"state":"ENABLED","variants":{"on":true}},"b":[1,2.5,-0,1e2]},"cards":[{"id":"x"},[],{}]}"#,
            " \n\t{ \"a\" : 1 , \"b\" : [ true , false , null ] , \"c\" : { } } \r\n",
            #"[1,"two",3.0,{"four":4},[5],null,true,false,-9223372036854775808,9223372036854775807]"#,
            #"{"é":"e\u0301","\ud83d\ude00":"😀","esc\"aped":"a\\b\/c\n","nul":"a\u0000b"}"#,
            #"{"deep":{"x":{"y":{"z":[[[[1]]]]}}},"n":0,"s":"","t":true}"#,
            "[]", "{}", "[[],{}]", #"{"a":[]}"#,
        ]
        for text in texts {
            for levels in 0...3 { try expectSameAsWhole(text, levels: levels) }
        }
    }

    @Test func givesUpOnWhatItCannotBeSureOf() {
        let texts = [
            #"{"a":1,"a":2}"#, // a key twice at a level read in Swift
            #"{"a\u0000b":1}"#, // NUL in a key
            #"{"a":1,}"#, #"[1,]"#, #"[1 2]"#, #"{"a" 1}"#, #"{1:2}"#, #"{"a":1"#, #"[1"#,
            #"{"a":1} x"#, #"[1]]"#, #"{"a":tru}"#, #"[4true]"#, #"{"a":[1,]}"#,
            "[\u{0C}1]", // form feed is not JSON white space
            #"{"a":99999999999999999999}"#, // out of range
        ]
        for text in texts { #expect(inPieces(text) == nil, "\(text)") }
        #expect(inPieces("[[[1]]]", maxDepth: 2) == nil)
        #expect(inPieces("[[1]]", maxDepth: 2) == .array([.array([.integer(1)])]))
    }

    /// jansson leaves a NUL byte out of the position it reports, so a piece
    /// that holds one seems to end early: here the inner array would end at
    /// the outer one's bracket and the text read as valid (found by fuzzing).
    @Test func aNulByteAnywhereIsLeftToTheWholeParse() {
        let bytes = Array("[[1,0.5,0.25".utf8) + [0] + Array("]".utf8)
        #expect(throws: JSONParseError.self) { try JSON.parse(bytes) }
        for levels in 1...3 {
            #expect(bytes.withUnsafeBytes { JSON.parseInPieces($0, maxDepth: 512, levels: levels) } == nil)
        }
    }

    @Test func invalidBytesAreLeftToTheWholeParse() {
        var bytes = Array(#"{"a":"x"}"#.utf8)
        bytes[6] = 0xFF
        #expect(bytes.withUnsafeBytes { JSON.parseInPieces($0, maxDepth: 512) } == nil)
    }

    /// A large text with a mistake deep inside is refused with jansson's own
    /// error, line and column, as a small one is.
    @Test func largeTextsAreRefusedWithTheWholeParsesError() throws {
        var items: [String] = []
        while items.joined(separator: ",").utf8.count < JSON.piecewiseParsingBytes {
            items.append(#"{"id":"item","n":[1,2,3]}"#)
        }
        items[items.count / 2] = #"{"id":"item","n":[1,2,,3]}"#
        let text = "{\"items\":[\n" + items.joined(separator: ",\n") + "\n]}"
        let large = #expect(throws: JSONParseError.self) { try JSON.parse(text) }
        let alone = #expect(throws: JSONParseError.self) { try JSON.parse(items[items.count / 2]) }
        #expect(large?.kind == .syntax)
        #expect(large?.message == alone?.message)
        #expect(large?.column == alone?.column)
        #expect(large?.line == items.count / 2 + 2)
    }

    @Test func largeValidTextsParseToTheSameValue() throws {
        var members: [String] = []
        var index = 0
        while members.joined(separator: ",").utf8.count < JSON.piecewiseParsingBytes {
            members.append(
                #""flag-\#(index)":{"state":"ENABLED","variants":{"on":{"n":\#(index)},"off":false},"w":1.5}"#)
            index += 1
        }
        let text = #"{"flags":{"# + members.joined(separator: ",") + #"},"cards":[{"id":"c"}]}"#
        let parsed = try JSON.parse(text)
        #expect(parsed["flags"]?.objectValue?.count == index)
        #expect(parsed["flags"]?["flag-7"]?["variants"]?["on"]?["n"] == .integer(7))
        #expect(parsed.encoded() == Array(text.utf8))
    }
}
