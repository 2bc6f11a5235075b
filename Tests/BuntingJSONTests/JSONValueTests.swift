import BuntingJSON
import Testing

@Suite struct JSONValueTests {
    @Test func accessorsAnswerOnlyForTheirType() {
        let value: JSON = ["n": 2, "r": 2.0, "h": 2.5, "s": "x", "a": [1], "b": false]
        #expect(value["n"]?.integerValue == 2)
        #expect(value["r"]?.integerValue == 2)
        #expect(value["h"]?.integerValue == nil)
        #expect(value["h"]?.doubleValue == 2.5)
        #expect(value["s"]?.integerValue == nil)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["a"]?[0] == .integer(1))
        #expect(value["a"]?[1] == nil)
        #expect(value["b"]?.boolValue == false)
        #expect(value["missing"] == nil)
        #expect(JSON.string("x")["key"] == nil)
        #expect(value["n"]?.typeName == "integer")
    }

    @Test func objectEqualityIgnoresOrder() throws {
        #expect(try JSON.parse(#"{"a":1,"b":2}"#) == JSON.parse(#"{"b":2,"a":1}"#))
        #expect(JSON.integer(1) != JSON.real(1.0))
    }

    @Test func objectKeepsPlaceOnOverwriteAndForgetsOnRemove() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = 20
        #expect(object.keys == ["a", "b", "c"])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        object["a"] = 1
        #expect(object.keys == ["b", "c", "a"])
        #expect(object.count == 3)
    }

    @Test func numberPrefersIntegers() {
        #expect(JSON.number(2) == .integer(2))
        #expect(JSON.number(2.5) == .real(2.5))
        #expect(JSON.number(1e300) == .real(1e300))
    }
}

@Suite struct JSONObjectTests {
    @Test func keysAreComparedByteForByteNotByCanonicalEquivalence() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(composed == decomposed) // Swift's String equality
        var object: JSONObject = [composed: 1]
        object[decomposed] = 2
        #expect(object.count == 2)
        #expect(object[composed] == 1)
        #expect(object[decomposed] == 2)
        let parsed = try JSON.parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(parsed.objectValue?.count == 2)
    }

    @Test func largeObjectsStayConsistentThroughEdits() {
        var object = JSONObject()
        for index in 0..<100 { object["k\(index)"] = .int(index) }
        for index in stride(from: 0, to: 100, by: 3) { object["k\(index)"] = nil }
        object["k1"] = "changed"
        #expect(object.count == 66)
        #expect(object["k1"] == "changed")
        #expect(object["k3"] == nil)
        #expect(object["k98"] == 98)
        #expect(object.keys.first == "k1")
        #expect(object.keys.last == "k98")
        var small = JSONObject()
        for index in 0..<3 { small["k\(index)"] = .int(index) }
        for index in 0..<100 where index % 3 != 0 { if index > 2 { small["k\(index)"] = .int(index) } }
        small["k1"] = "changed"
        small["k0"] = nil
        #expect(small == object)
        #expect(small.hashValue == object.hashValue)
    }
}
