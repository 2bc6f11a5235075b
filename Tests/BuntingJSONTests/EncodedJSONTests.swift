import BuntingJSON
import Testing

/// Text spliced from pieces already written: the builders write in place,
/// and what they give is the text of the value they stand for.
@Suite struct EncodedJSONTests {
    @Test func anArrayOfTextsIsTheirArray() throws {
        let items: [EncodedJSON] = [EncodedJSON(["a": 1]), EncodedJSON("x"), EncodedJSON([])]
        let array = EncodedArray(items)
        var written: [UInt8] = []
        array.appendEncoded(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == #"[{"a":1},"x",[]]"#)
        #expect(array.encodedCount == written.count)
        #expect(EncodedJSON.array(items).bytes == written)
        #expect(EncodedJSON.array([EncodedJSON]()).bytes == Array("[]".utf8))
        #expect(EncodedArray([EncodedJSON]()).encodedCount == 2)
    }

    @Test func anObjectIsBuiltMemberByMemberInOrder() throws {
        var object = EncodedJSON.ObjectBuilder()
        object.add(contentsOf: ["id": "s1"])
        object.reserveCapacity(64)
        object.add(EncodedJSON.Key("list"), EncodedArray([EncodedJSON(1), EncodedJSON(2)]))
        object.add("tree", JSON.object(["b": true]))
        object.add("text", EncodedJSON(nil))
        let text = object.finish()
        #expect(
            String(decoding: text.bytes, as: UTF8.self) == #"{"id":"s1","list":[1,2],"tree":{"b":true},"text":null}"#)
        #expect(EncodedJSON.ObjectBuilder().finish().bytes == Array("{}".utf8))
    }
}
