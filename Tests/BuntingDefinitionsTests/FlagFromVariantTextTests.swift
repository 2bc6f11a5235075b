import BuntingCore
import BuntingDefinitions
import BuntingJSON
import Testing

/// A flag whose variant is an object is made from the variant's text (its
/// members found, its properties' text spliced in), not from a tree of it:
/// every flag must be the one the tree makes (`FeatureFlag(id:enabled:
/// properties:trackingString:metadata:)` from the parsed variant), whatever
/// the variant holds, in whatever order.
@Suite struct FlagFromVariantTextTests {
    private static let strings: [JSON] = ["plain", "a\"q\\b\n", "caf\u{E9} \u{1F600}", "\u{0}x", "", "t\u{2028}"]

    private static func scalar(_ random: inout SplitMix64) -> JSON {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return strings.randomElement(using: &random)!
        case 1: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &random))
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4: return [.integer(1), "two", ["three": .integer(3)]]
        default: return ["type": "string", "value": strings.randomElement(using: &random)!]
        }
    }

    /// A variant's value: each member present or not, of the right kind or not.
    private static func variant(_ random: inout SplitMix64) -> JSONObject {
        var members: [(String, JSON)] = []
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1, 2: members.append(("enabled", .bool(Bool.random(using: &random))))
        case 3: members.append(("enabled", "true"))
        case 4: members.append(("enabled", .integer(1)))
        default: break
        }
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1:
            var properties = JSONObject()
            for index in 0..<Int.random(in: 0..<4, using: &random) {
                properties["p\(index)\(index == 2 ? "\u{E9}" : "")"] = scalar(&random)
            }
            members.append(("properties", .object(properties)))
        case 2: members.append(("properties", [.integer(1)]))
        case 3: members.append(("properties", "none"))
        default: break
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1: members.append(("trackingString", strings.randomElement(using: &random)!))
        case 2: members.append(("trackingString", .integer(5)))
        default: break
        }
        if Bool.random(using: &random) { members.append(("other", scalar(&random))) }
        members.shuffle(using: &random)
        var object = JSONObject()
        for (key, value) in members { object[key] = value }
        return object
    }

    @Test func everyFlagIsTheFlagItsVariantsTreeMakes() throws {
        var random = SplitMix64(seed: 31)
        var flags = JSONObject()
        var variants: [String: JSONObject] = [:]
        var metadata: [String: JSONObject] = [:]
        for index in 0..<400 {
            let key = "f\(index)"
            let value = Self.variant(&random)
            variants[key] = value
            var flag: JSONObject = ["state": "ENABLED", "variants": ["v": .object(value)], "defaultVariant": "v"]
            if Bool.random(using: &random) {
                metadata[key] = ["trackingString": .string("meta-\(index)"), "version": .integer(Int64(index))]
                flag["metadata"] = .object(metadata[key]!)
            }
            flags[key] = .object(flag)
        }
        let document = JSON.object(["flags": .object(flags)]).encoded()
        let definitions = try Definitions.load(document).get()
        let made = definitions.featureFlags(for: EvaluationSubject(targetingKey: "u", attributes: [:]), at: 0)
        var expected: [FeatureFlag] = []
        for index in 0..<400 {
            let key = "f\(index)"
            let variant = variants[key]!
            guard case .bool(let enabled)? = variant["enabled"] else { continue }
            let flagMetadata = metadata[key] ?? [:]
            expected.append(
                FeatureFlag(
                    id: key, enabled: enabled, properties: variant["properties"]?.objectValue ?? [:],
                    trackingString: variant["trackingString"]?.stringValue
                        ?? flagMetadata["trackingString"]?.stringValue,
                    metadata: flagMetadata))
        }
        #expect(made.count == expected.count)
        #expect(made.count > 200)
        for (flag, wanted) in zip(made.sorted { $0.id < $1.id }, expected.sorted { $0.id < $1.id }) {
            #expect(flag.id == wanted.id)
            // Byte for byte: these values hold no reals, whose digits jansson may choose per value.
            #expect(flag.encoded.bytes == wanted.encoded.bytes, "\(flag.id)")
            #expect(flag.trackingString == wanted.trackingString, "\(flag.id)")
            #expect(flag.properties == wanted.properties, "\(flag.id)")
            #expect(flag.enabled == wanted.enabled, "\(flag.id)")
        }
    }

    /// Reals read back as the same numbers, written as the variant's text writes them.
    @Test func propertiesWithRealsReadBackAsTheVariantsNumbers() throws {
        let properties: JSONObject = [
            "tenth": ["type": "number", "value": .number(0.1)],
            "big": ["type": "number", "value": .number(1e300)],
            "third": ["type": "number", "value": .number(1.0 / 3.0)],
        ]
        let variant: JSONObject = ["properties": .object(properties), "enabled": true, "weight": .number(2.5e-8)]
        let document = JSON.object([
            "flags": ["r": ["state": "ENABLED", "variants": ["on": .object(variant)], "defaultVariant": "on"]]
        ]).encoded()
        let definitions = try Definitions.load(document).get()
        let flag = try #require(
            definitions.featureFlags(for: EvaluationSubject(targetingKey: "u", attributes: [:]), at: 0).first)
        #expect(flag.properties == properties)
        #expect(try JSON.parse(flag.encoded.bytes)["properties"] == .object(properties))
    }
}
