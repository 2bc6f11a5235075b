import BuntingJSON
import Testing

/// The members of an object found in its text without parsing the values.
@Suite struct JSONMemberSpansTests {
    func members(_ text: String) -> [(key: String, keyText: String, value: String)]? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in
            JSONMemberSpans.members(of: buffer, in: 0..<buffer.count)?.map { member in
                (
                    member.key, String(decoding: bytes[member.keyText], as: UTF8.self),
                    String(decoding: bytes[member.value], as: UTF8.self)
                )
            }
        }
    }

    @Test func eachMemberIsItsKeyAndValueAsWritten() throws {
        let found = try #require(
            members(#" { "a" : 1 , "b\"c\u00e9": [1, {"x": "}]"}] ,"d":"s\\\"","e" :{"f":{}},"g":-1.5e3,"h":null } "#))
        #expect(found.map(\.key) == ["a", "b\"cé", "d", "e", "g", "h"])
        #expect(found.map(\.keyText)[1] == #""b\"c\u00e9""#)
        #expect(found.map(\.value) == ["1", #"[1, {"x": "}]"}]"#, #""s\\\"""#, #"{"f":{}}"#, "-1.5e3", "null"])
        #expect(try #require(members("{}")).isEmpty)
    }

    @Test func aTextThatIsNotOneObjectHasNoMembers() {
        for text in [
            "", "[1]", "1", #"{"a":}"#, #"{"a":1"#, #"{"a":1}}"#, #"{"a":1} 2"#, #"{"a" 1}"#, #"{"a":[1}"#,
            #"{"a":"x}"#, #"{a:1}"#,
        ] {
            #expect(members(text) == nil, "\(text)")
        }
    }

    @Test func aRangeInsideALargerTextIsReadAlone() throws {
        let bytes = Array(#"{"flags": {"x": {"y": 2}, "z": []}}"#.utf8)
        let outer = try #require(bytes.withUnsafeBytes { JSONMemberSpans.members(of: $0, in: 0..<$0.count) })
        let inner = try #require(bytes.withUnsafeBytes { JSONMemberSpans.members(of: $0, in: outer[0].value) })
        #expect(inner.map(\.key) == ["x", "z"])
        #expect(bytes.withUnsafeBytes { JSONMemberSpans.members(of: $0, in: 0..<($0.count + 1)) } == nil)
    }
}
