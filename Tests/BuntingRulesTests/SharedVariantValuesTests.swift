import BuntingJSON
import Testing

@testable import BuntingRules

/// Values written alike are kept once when short (what documents repeat);
/// longer ones are kept per flag, and every value reads back as written.
@Suite struct SharedVariantValuesTests {
    private static func storage(_ set: FlagSet, _ flag: Int, _ variant: Int) -> UnsafePointer<UInt8>? {
        set.flags[flag].variants.values.objectText(at: variant).map { text in
            text.owner.withUnsafeBufferPointer { $0.baseAddress! + text.range.lowerBound }
        }
    }

    @Test func shortValuesWrittenAlikeShareOneTextAndLongOnesReadBackAlike() throws {
        let long: JSON = [
            "enabled": true, "properties": ["colour": ["type": "string", "value": "a long enough value"]],
        ]
        let short: JSON = ["enabled": false, "properties": JSON.object(JSONObject())]
        #expect(short.encoded().count <= VariantTables.sharedTextLimit)
        #expect(long.encoded().count > VariantTables.sharedTextLimit)
        var flags = JSONObject()
        for name in ["a", "b", "c"] {
            flags[name] = ["state": "ENABLED", "defaultVariant": "off", "variants": ["on": long, "off": short]]
        }
        let set = try FlagSet(document: ["flags": .object(flags)])
        #expect(set.flags.count == 3)
        let shortTexts = (0..<3).map { Self.storage(set, $0, 1) }
        #expect(shortTexts.allSatisfy { $0 != nil && $0 == shortTexts[0] })
        for flag in 0..<3 {
            #expect(ExactJSON(set.flags[flag].variants.values[0]) == ExactJSON(long))
            #expect(ExactJSON(set.flags[flag].variants.values[1]) == ExactJSON(short))
        }
    }

    /// A flag's longer values are kept in one text of the flag's (one array
    /// for all of them, not one each), each at its own place in it, and
    /// each reads back as written.
    @Test func aFlagsLongValuesShareOneTextOfTheFlags() throws {
        let values: [JSON] = (0..<3).map { index in
            let colour: JSON = ["type": "string", "value": .string("long enough value \(index)")]
            return ["enabled": true, "properties": ["colour": colour]]
        }
        #expect(values.allSatisfy { $0.encoded().count > VariantTables.sharedTextLimit })
        let variants = JSONObject(
            values.enumerated().map { ("v\($0.offset)", $0.element) } + [("flag", JSON.bool(true))])
        let set = try FlagSet(document: [
            "flags": ["f": ["state": "ENABLED", "defaultVariant": "v0", "variants": .object(variants)]]
        ])
        let kept = set.flags[0].variants.values
        let texts = try (0..<3).map { try #require(kept.objectText(at: $0)) }
        let owners = texts.map { text in text.owner.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(owners.allSatisfy { $0 == owners[0] }, "one text for the flag")
        #expect(texts[0].range.upperBound == texts[1].range.lowerBound)
        #expect(texts[1].range.upperBound == texts[2].range.lowerBound)
        #expect(texts[2].range.upperBound == texts[0].owner.count, "sized to its values")
        for (position, value) in values.enumerated() {
            #expect(ExactJSON(kept[position]) == ExactJSON(value))
            #expect(Array(texts[position].owner[texts[position].range]) == value.encoded())
        }
        #expect(kept.objectText(at: 3) == nil, "a Boolean is kept as itself")
        #expect(kept[3] == true)
    }

    /// A flag whose values are all objects or arrays of its own text, or
    /// literals (`true`, `false`, `null`), keeps them in one array; any
    /// other value (a number, a short text shared with other flags) keeps
    /// the general form. Both read back every value as written.
    @Test func ownTextsAndLiteralsAreKeptInOneArrayAndReadBackAsTheGeneralFormDoes() throws {
        let object: JSON = [
            "enabled": true, "properties": ["colour": ["type": "string", "value": "a long enough value"]],
        ]
        let array: JSON = [.string("a long enough first entry"), .string("and a second as long as the first one")]
        let literals: [(String, JSON)] = [("yes", true), ("no", false), ("none", .null)]
        let packable = JSONObject([("object", object), ("array", array)] + literals)
        let general = JSONObject([("object", object), ("array", array), ("three", 3)] + literals)
        #expect([object, array].allSatisfy { $0.encoded().count > VariantTables.sharedTextLimit })
        let set = try FlagSet(document: [
            "flags": [
                "packed": ["state": "ENABLED", "defaultVariant": "yes", "variants": .object(packable)],
                "general": ["state": "ENABLED", "defaultVariant": "yes", "variants": .object(general)],
            ]
        ])
        let packed = try #require(set.flags.first { $0.key == "packed" }).variants
        let kept = try #require(set.flags.first { $0.key == "general" }).variants
        #expect(packed.values.isPacked && !kept.values.isPacked)
        for name in packable.keys {
            let at = try #require(packed.position(of: name))
            let there = try #require(kept.position(of: name))
            #expect(ExactJSON(packed.values[at]) == ExactJSON(packable[name]!), "\(name)")
            #expect(ExactJSON(packed.values[at]) == ExactJSON(kept.values[there]), "\(name)")
            #expect(ExactJSON(packed.values.typeStandIn(at: at)) == ExactJSON(kept.values.typeStandIn(at: there)))
            #expect(packed.values.isNull(at: at) == (name == "none"))
            let text = packed.values.objectText(at: at)
            #expect((text != nil) == (name == "object"), "only an object is made from its text: \(name)")
            if let text { #expect(Array(text.owner[text.range]) == object.encoded()) }
        }
        #expect(packed.values.count == 5 && kept.values.count == 6)
    }
}
