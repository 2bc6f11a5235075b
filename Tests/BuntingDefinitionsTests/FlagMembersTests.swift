import BuntingCore
@_spi(Fuzzing) @testable import BuntingDefinitions
import BuntingJSON
import BuntingRules
import Testing

/// The flags of a document are parsed, checked and compiled a batch of
/// members at a time, each from its own text: what is found, where, and how
/// the flags resolve is what reading the whole section gives, past the
/// first batch too; keys that cannot be read apart send the section whole.
@Suite struct FlagMembersTests {
    /// A document of `count` flags, one a line from line 3 on (flag `i` on line `i + 3`).
    private func flags(_ count: Int, after: String = "", _ flag: (Int) -> String) -> String {
        "{\n\"flags\": {\n" + (0..<count).map(flag).joined(separator: ",\n") + "\n}\(after)\n}"
    }

    private func flag(_ index: Int, key: String? = nil, state: String = "ENABLED", targeting: String? = nil) -> String {
        #""\#(key ?? "f\(index)")": {"state": "\#(state)", "variants": {"on": "on-\#(index)", "off": "off"}, "#
            + #""defaultVariant": "off""# + (targeting.map { #", "targeting": \#($0)"# } ?? "") + "}"
    }

    private static let gold = #"{"if": [{"$ref": "gold"}, "on", "off"]}"#

    @Test func flagsPastTheFirstBatchAreCheckedAndCompiledWhereTheyStand() throws {
        let count = 10 * DefinitionsLoader.entriesDroppedTogether + 20
        // The evaluators are written after the flags, and serve them all.
        let evaluators = ",\n" + #""$evaluators": {"gold": {"==": [{"var": "tier"}, "gold"]}}"#
        let text = flags(count, after: evaluators) { index in
            switch index {
            case 0, 700: flag(index, state: "MAYBE")
            case 1000: flag(index, targeting: #"{"$ref": "silver"}"#)
            default: flag(index, targeting: Self.gold)
            }
        }
        let definitions = try load(text)
        #expect(
            definitions.problems.map { "\($0.pointer) \($0.line)" } == [
                "/flags/f0/state 3", "/flags/f700/state 703", "/flags/f1000/targeting/$ref 1003",
            ])
        #expect(definitions.flagSet.flagKeys == (0..<count).map { "f\($0)" })
        let gold: JSON = ["targetingKey": "u", "tier": "gold"]
        #expect(
            definitions.evaluateFlag("f\(count - 1)", context: gold, at: now) == [
                "value": .string("on-\(count - 1)"), "variant": "on", "reason": "TARGETING_MATCH",
            ])
        for key in ["f700", "f1000"] {
            #expect(definitions.evaluateFlag(key, context: gold, at: now)["errorCode"] == "PARSE_ERROR", "\(key)")
        }

        // What a flag past the first batch changes is told apart from the rest.
        let changed = try load(text.replacingOccurrences(of: #""on-900""#, with: #""on-900!""#))
        #expect(changed.flagsChanged(since: definitions) == ["f900"])
    }

    @Test func flagsReadMemberByMemberAreTheFlagsOfTheWholeTree() throws {
        let keys = [#"caf\u00e9"#, "ñ", #"a\"b"#, "plain", #"\ud83d\ude00"#]
        let text = flags(keys.count) { flag($0, key: keys[$0], targeting: Self.gold) }
            .replacingOccurrences(of: "\"flags\"", with: "\"$evaluators\": {\"gold\": true},\n\"flags\"")
        let bytes = Array(text.utf8)
        let whole = try JSON.parse(bytes)
        #expect(Definitions.readInSections(bytes) == whole)
        let definitions = try load(text)
        let compiled = try FlagSet(document: whole)
        #expect(definitions.flagSet.flagKeys == ["café", "ñ", "a\"b", "plain", "😀"])
        #expect(definitions.flagSet.flagKeys == compiled.flagKeys)
        #expect(
            definitions.flagSet.resolveAll(context: ["targetingKey": "u"], timestamp: 0)
                == compiled.resolveAll(context: ["targetingKey": "u"], timestamp: 0))
    }

    /// Keys jansson refuses: `\u0000`, a byte that is not UTF-8, a raw
    /// control character, a key given twice. The members are then not read
    /// apart, and the document is refused with the whole text's error.
    @Test func aKeyJanssonRefusesRefusesTheDocumentAsTheWholeTextDoes() throws {
        let keys: [[UInt8]] = [
            Array(#""a\u0000b""#.utf8), [0x22, 0x61, 0xFF, 0x22], [0x22, 0x61, 0x09, 0x22],
            Array(#""f549""#.utf8),
        ]
        for key in keys {
            let before = Array(flags(600) { flag($0) }.utf8)
            // Flag 550's key replaced: past the first batch.
            let marker = Array(#""f550""#.utf8)
            let at = try #require(before.indices.first { before[$0...].starts(with: marker) })
            let bytes = Array(before[..<at]) + key + Array(before[(at + marker.count)...])
            var expected: JSONParseError?
            do { _ = try JSON.parse(bytes) } catch { expected = error }
            let error = try #require(expected, "\(key)")
            guard case .failure(let failure) = Definitions.load(bytes) else {
                Issue.record("a key jansson refuses must refuse the document: \(key)")
                continue
            }
            #expect(failure.problems.map { [$0.line, $0.column] } == [[error.line, error.column]], "\(key)")
            #expect(failure.problems.first?.line == 553)
            #expect(Definitions.readInSections(bytes) == nil)
        }
    }

    /// Checking a batch of flags as the document's only flags finds what
    /// checking them in place finds only while the schema says nothing of
    /// the `flags` object itself but its type and what each member is.
    @Test func theFlagsSchemaSaysOnlyTheTypeAndEachMember() throws {
        let schema = try JSON.parse(PackageResources.definitions_schema_compact_json)
        let keys = try #require(schema["properties"]?["flags"]?.objectValue?.keys)
        #expect(Set(keys) == ["type", "propertyNames", "additionalProperties"])
    }
}
