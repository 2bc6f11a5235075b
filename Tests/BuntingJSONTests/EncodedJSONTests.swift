@testable import BuntingJSON
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
        var empty = EncodedJSON.ObjectBuilder()
        #expect(empty.finish().bytes == Array("{}".utf8))
    }

    /// A snapshot of megabytes is written into the builder once; finishing
    /// must hand that buffer over, not copy it to add the closing brace.
    @Test func finishingAnObjectKeepsItsBuffer() {
        let large = EncodedJSON.array((0..<100_000).map { EncodedJSON(.int($0)) })
        var object = EncodedJSON.ObjectBuilder()
        object.reserveCapacity(large.bytes.count + 64)
        object.add("data", large)
        let written = object.text.withUnsafeBufferPointer { $0.baseAddress }
        let finished = object.finish()
        #expect(finished.bytes.withUnsafeBufferPointer { $0.baseAddress } == written)
        #expect(finished.bytes.count == large.bytes.count + #"{"data":}"#.utf8.count)
        #expect(object.finish().bytes == Array("{}".utf8), "the builder is left as a new one")
    }
}
