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

/// An object whose large member is shared rather than copied: its pieces
/// join into the text the builder would have written whole.
@Suite struct SplicedJSONTests {
    @Test func aSharedMemberStaysItsOwnPieceAndTheRestReadsAsOneObject() throws {
        let shared = Array(#"[1,2,3]"#.utf8)
        var object = EncodedJSON.ObjectBuilder()
        object.add(contentsOf: ["id": "s1"])
        object.add(
            EncodedJSON.Key("snapshot"), prefix: Array(#"{"cards":"#.utf8), sharing: shared,
            suffix: Array(#","lastSyncAt":0}"#.utf8))
        object.add(EncodedJSON.Key("bare"), prefix: [], sharing: shared, suffix: [])
        object.add("reason", JSON.string("MANUAL"))
        let spliced = object.finishSpliced()
        let text = String(decoding: spliced.joined.bytes, as: UTF8.self)
        #expect(text == #"{"id":"s1","snapshot":{"cards":[1,2,3],"lastSyncAt":0},"bare":[1,2,3],"reason":"MANUAL"}"#)
        #expect(spliced.encodedCount == spliced.joined.bytes.count)
        #expect(spliced.largestPiece == max(shared.count, spliced.pieces.map(\.count).max() ?? 0))
        // The shared text is the caller's buffer, not a copy of it.
        let address = shared.withUnsafeBufferPointer { $0.baseAddress }
        #expect(spliced.pieces.filter { $0.withUnsafeBufferPointer { $0.baseAddress } == address }.count == 2)
        // Finished whole, the same text; the builder is a new one after either.
        var again = EncodedJSON.ObjectBuilder()
        again.add(EncodedJSON.Key("bare"), prefix: [], sharing: shared, suffix: [])
        #expect(again.finish().bytes == Array(#"{"bare":[1,2,3]}"#.utf8))
        #expect(again.finishSpliced().joined.bytes == Array("{}".utf8))
        #expect(object.finish().bytes == Array("{}".utf8))
    }
}
