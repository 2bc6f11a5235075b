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
