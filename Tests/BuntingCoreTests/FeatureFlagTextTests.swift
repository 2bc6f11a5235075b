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
        // The fields read back from the pieces the flag keeps as text.
        #expect(flag.id == "new \"checkout\"")
        #expect(flag.trackingString == "t\u{0}x")
        #expect(flag.properties == properties)
        #expect(flag.metadata == metadata)
        #expect(flag.enabled)
    }

    /// Flags that share their metadata and their properties' text (a
    /// variant's) write the same text as flags that hold their own.
    @Test func aFlagSharingItsTextsWritesWhatAFlagOfItsOwnWrites() throws {
        let metadata = FeatureFlag.SharedMetadata(["version": "7", "scope": "caf\u{E9}"])
        let variant = Array(#"{"enabled":true,"properties":{"a":{"type":"number","value":1}}}"#.utf8)
        let properties = try #require(variant.firstRange(of: Array(#"{"a""#.utf8))).lowerBound..<(variant.count - 1)
        for (id, tracking) in [("a", "t-1"), ("caf\u{E9}\\", nil), ("", "\u{2028}")] as [(String, String?)] {
            let shared = FeatureFlag(
                id: id, enabled: false, propertiesIn: variant, at: properties, trackingString: tracking,
                metadata: metadata)
            let own = FeatureFlag(
                id: id, enabled: false, properties: ["a": ["type": "number", "value": .integer(1)]],
                trackingString: tracking, metadata: metadata.object)
            #expect(shared.encoded.bytes == own.encoded.bytes)
            #expect(shared.encodedCount == own.encoded.bytes.count)
            #expect(shared == own)
            #expect(shared.id == id && shared.trackingString == tracking)
            var output = Array("[".utf8)
            shared.appendEncoded(to: &output)
            #expect(output == Array("[".utf8) + own.encoded.bytes)
        }
    }

    @Test func optionalMembersAreLeftOutWhenAbsent() throws {
        let flag = FeatureFlag(id: "plain", enabled: false)
        #expect(
            String(decoding: flag.encoded.bytes, as: UTF8.self) == #"{"id":"plain","enabled":false,"properties":{}}"#)
    }
}
