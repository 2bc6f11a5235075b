import BuntingJSON
import Testing

@testable import BuntingRules

/// Values written alike are kept once when short (what documents repeat);
/// longer ones are kept per flag, and every value reads back as written.
@Suite struct SharedVariantValuesTests {
    private static func storage(_ set: FlagSet, _ flag: Int, _ variant: Int) -> UnsafePointer<UInt8>? {
        set.flags[flag].variants.values.objectText(at: variant)?.bytes.withUnsafeBufferPointer { $0.baseAddress }
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
}
