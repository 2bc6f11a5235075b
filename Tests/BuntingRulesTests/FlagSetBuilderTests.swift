import BuntingJSON
import Testing
@testable import BuntingRules

/// A flag set compiled a flag at a time (`FlagSet.Builder`, how a large
/// document's flags are read in batches) is the set compiled from the whole
/// document, and a variant value is shared only with one written exactly alike.
struct FlagSetBuilderTests {
    @Test func flagsAddedOneAtATimeAreTheFlagsOfTheWholeDocument() throws {
        let whole = FlagSetTests.document
        let flags = try #require(whole["flags"]?.objectValue)
        var shared = try #require(whole.objectValue)
        shared["flags"] = .object([:])
        var builder = try FlagSet.Builder(document: .object(shared))
        for (key, definition) in flags { builder.add(key: key, definition: definition) }
        let added = builder.finish()
        let compiled = try FlagSet(document: whole)

        #expect(added.flagKeys == compiled.flagKeys)
        #expect(added.problems.map(\.pointer) == compiled.problems.map(\.pointer))
        #expect(added.problems.map(\.message) == compiled.problems.map(\.message))
        #expect(added.problems.count == 4)
        #expect(Set(added.unusableFlags.keys) == Set(compiled.unusableFlags.keys))
        #expect(added.metadata == compiled.metadata)
        for context in [FlagSetTests.context, ["targetingKey": "u2", "tier": "silver", "pick": "a"]] as [JSON] {
            let fromAdded = added.resolveAll(context: context, timestamp: 1_700_000_000)
            #expect(fromAdded == compiled.resolveAll(context: context, timestamp: 1_700_000_000))
            #expect(
                fromAdded.contains {
                    $0.flagKey == "checkout" && $0.variant == ($0.value == ["enabled": true] ? "new" : "old")
                })
        }
    }

    /// Values `JSON`'s `==` takes as equal, written differently: each flag
    /// answers its own as written (a table sharing values by `==` would
    /// hand the first flag's to the second).
    @Test func variantValuesAreSharedOnlyWhenWrittenExactlyAlike() throws {
        let pairs = [
            ("1", "1.0"), ("0.0", "-0.0"), (#""\u00e9""#, #""e\u0301""#),
            (#"{"a": 1, "b": [2]}"#, #"{"b": [2], "a": 1}"#), (#"[1, {"x": 1}]"#, #"[1.0, {"x": 1}]"#),
            (#"{"a": "\u00e9"}"#, #"{"a": "e\u0301"}"#),
        ]
        var members: [String] = []
        for (index, pair) in pairs.enumerated() {
            for (side, text) in [pair.0, pair.1, pair.0].enumerated() {
                members.append(
                    #""f\#(index)-\#(side)": {"state": "ENABLED", "variants": {"v": \#(text)}, "defaultVariant": "v"}"#)
            }
        }
        let flags = try FlagSet(document: json(#"{"flags": {"# + members.joined(separator: ", ") + "}}"))
        for (index, pair) in pairs.enumerated() {
            for (side, text) in [pair.0, pair.1, pair.0].enumerated() {
                let value = flags.resolve(flagKey: "f\(index)-\(side)", context: .null, timestamp: 0).value
                #expect(value.encoded() == json(text).encoded(), "\(text)")
            }
        }
    }
}
