import BuntingCore
import BuntingJSON
import Testing

/// A made flag's text is spliced from pieces: it must read back as the flag,
/// members in their order, whatever its strings and values hold.
@Suite struct FeatureFlagTextTests {
    @Test func aFlagsTextReadsBackAsItsFields() throws {
        let properties: JSONObject = [
            "n": ["type": "number", "value": .number(0.1)], "s": ["type": "string", "value": "a\"\\\n\u{1F600}"],
        ]
        let metadata: JSONObject = ["version": "2026-11-30", "weight": .integer(3)]
        let flag = FeatureFlag(
            id: "new \"checkout\"", enabled: true, properties: properties, trackingString: "t\u{0}x", metadata: metadata
        )
        let text = String(decoding: flag.encoded.bytes, as: UTF8.self)
        let object = try #require(try JSON.parse(text).objectValue)
        #expect(object.keys.map { $0 } == ["id", "enabled", "properties", "trackingString", "metadata"])
        #expect(object["id"] == "new \"checkout\"")
        #expect(object["enabled"] == true)
        #expect(object["properties"] == .object(properties))
        #expect(object["trackingString"] == "t\u{0}x")
        #expect(object["metadata"] == .object(metadata))
        #expect(flag.encodedCount == flag.encoded.bytes.count)
    }

    @Test func optionalMembersAreLeftOutWhenAbsent() throws {
        let flag = FeatureFlag(id: "plain", enabled: false)
        #expect(
            String(decoding: flag.encoded.bytes, as: UTF8.self) == #"{"id":"plain","enabled":false,"properties":{}}"#)
    }
}
