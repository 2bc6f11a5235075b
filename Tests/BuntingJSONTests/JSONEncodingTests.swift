import BuntingJSON
import Testing

@Suite struct JSONEncodingTests {
    @Test func writesCompactTextInKeyOrder() {
        let value: JSON = ["jsonrpc": "2.0", "id": 7, "result": ["b": [true, nil], "a": "x"]]
        #expect(value.encodedString() == #"{"jsonrpc":"2.0","id":7,"result":{"b":[true,null],"a":"x"}}"#)
    }

    @Test func realsKeepTheirKind() {
        #expect(JSON.real(1.0).encodedString() == "1.0")
        #expect(JSON.real(-2.5).encodedString() == "-2.5")
        #expect(JSON.integer(1).encodedString() == "1")
    }

    @Test func realsUseTheShortestExactForm() throws {
        #expect(JSON.real(0.1).encodedString() == "0.1")
        #expect(JSON.real(1.33).encodedString() == "1.33")
        #expect(JSON.real(100000.0).encodedString() == "100000.0")
        #expect(JSON.real(1e21).encodedString() == "1e21")
        #expect(JSON.real(1.5e-7).encodedString() == "1.5e-7")
        let awkward = 0.1 + 0.2
        #expect(try JSON.parse(JSON.real(awkward).encodedString()) == .real(awkward))
    }

    @Test func everyRealRoundTripsWithNeighbours() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let values = (0..<3).map { _ in Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) }
            let array = JSON.array(values.map(JSON.real))
            #expect(try JSON.parse(array.encodedString()) == array)
        }
    }

    @Test func nonFiniteRealsBecomeNull() {
        #expect(JSON.real(.nan).encodedString() == "null")
        #expect(JSON.array([.real(.infinity)]).encodedString() == "[null]")
    }

    @Test func stringsAreEscapedAndNULSurvives() throws {
        let value = JSON.string("a\"b\\c\n\u{0}é😀")
        let text = value.encodedString()
        #expect(text == "\"a\\\"b\\\\c\\n\\u0000é😀\"")
        #expect(try JSON.parse(text) == value)
    }

    @Test func keysWithNULAreWrittenButRefusedOnRead() {
        let value: JSON = ["a\u{0}b": 1]
        #expect(value.encodedString() == #"{"a\u0000b":1}"#)
        let error = #expect(throws: JSONParseError.self) { try JSON.parse(value.encodedString()) }
        #expect(error?.kind == .nulInKey)
    }

    @Test func emptyContainersAndStrings() {
        #expect(JSON.array([]).encodedString() == "[]")
        #expect(JSON.object([:]).encodedString() == "{}")
        #expect(JSON.string("").encodedString() == "\"\"")
        let value: JSON = ["": ""]
        #expect(value.encodedString() == #"{"":""}"#)
    }

    @Test func appendsAfterExistingBytes() {
        var output = Array("prefix:".utf8)
        JSON.integer(5).encode(appendingTo: &output)
        #expect(String(decoding: output, as: UTF8.self) == "prefix:5")
    }

    @Test func largeValuesAreWrittenWhole() throws {
        let big = JSON.array((0..<5_000).map { JSON.string("item \($0) é") })
        var output = Array("x".utf8)
        big.encode(appendingTo: &output)
        #expect(output.count > 50_000)
        #expect(try JSON.parse(Array(output.dropFirst())) == big)
    }

    @Test func extremeIntegersRoundTrip() throws {
        for number in [Int64.min, Int64.max, 0, -1] {
            #expect(try JSON.parse(JSON.integer(number).encodedString()) == .integer(number))
        }
    }
}
