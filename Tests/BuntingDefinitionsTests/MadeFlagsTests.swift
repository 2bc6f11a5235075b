import BuntingCore
import BuntingDefinitions
import BuntingJSON
import Testing

/// A document remembers the channel flag it made for each flag, variant and
/// reason: users who meet the variants in any order must get what a document
/// that never made a flag before would give them.
@Suite struct MadeFlagsTests {
    private static let document = #"""
        {"flags": {
          "split": {"state": "ENABLED", "defaultVariant": "off",
            "variants": {"on": {"enabled": true, "properties": {"n": {"type": "number", "value": 1}}},
                         "off": {"enabled": false}, "dark": {"enabled": true, "trackingString": "dark"}},
            "targeting": {"fractional": [["on", 40], ["off", 40], ["dark", 20]]}},
          "gated": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": true, "off": false},
            "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "on", {"==": [{"var": "tier"}, "none"]}, "off", null]}},
          "broken": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": true},
            "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "missing", null]}},
          "off": {"state": "DISABLED", "defaultVariant": "on", "variants": {"on": true}}
        }}
        """#

    @Test func usersGetTheFlagsAFreshDocumentWouldMake() throws {
        let definitions = try load(Self.document)
        for index in 0..<60 {
            let tier = ["gold", "silver", "none"][index % 3]
            let subject = user("user-\(index)", ["tier": .string(tier)])
            let fresh = try load(Self.document)
            let listed = definitions.featureFlags(for: subject, at: now)
            #expect(listed.map(\.encoded.bytes) == fresh.featureFlags(for: subject, at: now).map(\.encoded.bytes))
            #expect(!listed.contains { $0.id == "off" })
            // An unknown variant is an error, and a flag in error is not listed.
            #expect(listed.contains { $0.id == "broken" } == (tier != "gold"))
        }
    }

    @Test func everyVariantOfASplitIsMet() throws {
        let definitions = try load(Self.document)
        let seen = Set(
            (0..<200).compactMap { index in
                definitions.featureFlags(for: user("u\(index)"), at: now).first { $0.id == "split" }.map {
                    String(decoding: $0.encoded.bytes, as: UTF8.self)
                }
            })
        #expect(seen.count == 3)
    }
}
