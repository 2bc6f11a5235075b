import BuntingCore
import BuntingDefinitions
import BuntingJSON
import Foundation
import Testing

/// A document loads as flagd loads flag files: what is wrong in one flag,
/// banner or card stays with it, and the rest serves.
@Suite struct LenientLoadingTests {
    static let mixed = """
        {
          "flags": {
            "good": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on"},
            "bad": {"state": "ON", "variants": {"on": true}, "defaultVariant": "on"},
            "missing-ref": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                            "targeting": {"if": [{"$ref": "nowhere"}, "on", "off"]}}
          },
          "contentCards": [
            {"id": "kept", "type": "classic", "title": "Kept", "extras": {}, "created": 2},
            {"id": "no-created", "type": "classic", "title": "Broken", "extras": {}},
            {"id": "kept", "type": "classic", "title": "Twice", "extras": {}, "created": 1}
          ]
        }
        """

    @Test func aBrokenFlagOrCardDoesNotStopTheOthers() throws {
        let definitions = try load(Self.mixed)
        #expect(definitions.evaluateFlag("good", context: [:], at: now)["variant"] == "on")
        let bad = definitions.evaluateFlag("bad", context: [:], at: now)
        #expect(bad["reason"] == "ERROR" && bad["errorCode"] == "PARSE_ERROR")
        let missing = definitions.evaluateFlag("missing-ref", context: ["targetingKey": "u"], at: now)
        #expect(missing["reason"] == "ERROR" && missing["errorCode"] == "PARSE_ERROR")
        #expect(definitions.contentCards(for: user("u"), at: now).map(\.title) == ["Kept"])
        let pointers = definitions.problems.map(\.pointer)
        #expect(pointers.contains("/flags/bad/state"))
        #expect(pointers.contains { $0.hasPrefix("/flags/missing-ref/targeting") })
        #expect(pointers.contains("/contentCards/1"))
        #expect(pointers.contains("/contentCards/2/id"))
        #expect(definitions.problems.allSatisfy { $0.line > 0 && $0.column > 0 })
    }

    /// A document past the size from which the schema check and the flag
    /// set's compilation run side by side loads as a small one does: the same
    /// flags, cards and problems, and a broken structure is still refused.
    @Test func aLargeDocumentIsCheckedAsASmallOneIs() throws {
        let padding = (0..<300).map {
            #""pad-\#($0)": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}"#
        }
        let large = Self.mixed.replacingOccurrences(
            of: #""flags": {"#, with: #""flags": {"# + padding.joined(separator: ", ") + ",")
        #expect(large.utf8.count > 20_000)
        let small = try load(Self.mixed)
        let big = try load(large)
        #expect(big.problems.map(\.pointer) == small.problems.map(\.pointer))
        #expect(big.problems.map(\.message) == small.problems.map(\.message))
        #expect(big.contentCards(for: user("u"), at: now).map(\.title) == ["Kept"])
        #expect(big.evaluateFlag("pad-299", context: [:], at: now)["variant"] == "on")
        #expect(big.evaluateFlag("bad", context: [:], at: now)["errorCode"] == "PARSE_ERROR")
        let broken = large.replacingOccurrences(of: #""contentCards": ["#, with: #""banners": 7, "contentCards": ["#)
        guard case .failure(let failure) = Definitions.load(Array(broken.utf8)) else {
            Issue.record("a large document with banners: 7 loaded")
            return
        }
        #expect(failure.problems.map(\.pointer).contains("/banners"))
    }

    @Test func strictRefusesAnyProblem() {
        guard case .failure(let failure) = Definitions.load(Array(Self.mixed.utf8), strict: true) else {
            Issue.record("a document with problems loaded in strict mode")
            return
        }
        #expect(failure.problems.map(\.pointer).contains("/flags/bad/state"))
    }

    @Test(arguments: [
        #"{"flags": "none"}"#, #"{"flags": []}"#, #"{"contentCards": {"a": 1}}"#, #"{"banners": 7}"#,
        #"{"channels": {"featureFlags": "on"}}"#,
        #"{"fractionalHashing": "md5"}"#, #"[]"#, #"{"flags": {}, "$evaluators": []}"#,
    ])
    func aDocumentWithoutAReadableStructureIsRefusedWhole(text: String) {
        guard case .failure = Definitions.load(Array(text.utf8)) else {
            Issue.record("\(text) loaded")
            return
        }
    }

    @Test func flagdsDocumentationExampleLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let bytes = try Data(
            contentsOf: root.appendingPathComponent("Tests/BuntingRulesTests/Fixtures/flagd-schemas/examples/full.json")
        )
        let definitions = try Definitions.load(Array(bytes)).get()
        #expect(definitions.flagSet.flagKeys.count == 13)
        #expect(definitions.evaluateFlag("myBoolFlag", context: [:], at: now)["value"] == true)
    }

    @Test func typedEvaluationAndMergedMetadata() throws {
        let definitions = try load(
            """
            {"metadata": {"owner": "team", "version": 1},
             "flags": {"f": {"state": "ENABLED", "variants": {"a": "text"}, "defaultVariant": "a", "metadata": {"version": 2}}}}
            """)
        let typed = definitions.evaluateFlag("f", context: [:], type: .boolean, at: now)
        #expect(typed["reason"] == "ERROR" && typed["errorCode"] == "TYPE_MISMATCH" && typed["value"] == .null)
        let resolved = definitions.evaluateFlag("f", context: [:], type: .string, at: now)
        #expect(resolved["value"] == "text" && resolved["metadata"] == ["owner": "team", "version": 2])
        let bulk = definitions.evaluateFlags(context: [:], flagKeys: ["f", "nope"], at: now)
        #expect(bulk["flags"]?["f"]?["variant"] == "a" && bulk["flags"]?["nope"]?["errorCode"] == "FLAG_NOT_FOUND")
        #expect(bulk["metadata"] == ["owner": "team", "version": 1])
        #expect(
            definitions.evaluateFlags(context: [:], flagKeys: nil, at: now)["flags"]?.objectValue?.keys.sorted() == [
                "f"
            ])
    }

    @Test func aNewDocumentNamesTheFlagsItChanges() throws {
        let before = try load(
            #"{"flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}, "b": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}}}"#
        )
        let after = try load(
            #"{"flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}, "b": {"state": "DISABLED", "variants": {"x": 1}, "defaultVariant": "x"}, "c": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}}}"#
        )
        #expect(after.flagsChanged(since: before) == ["b", "c"])
        #expect(before.flagsChanged(since: after) == ["b", "c"])
        let evaluators = try load(
            #"{"$evaluators": {"e": true}, "flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}}}"#
        )
        #expect(evaluators.flagsChanged(since: before) == ["a", "b"])
    }
}

/// A strict load lists every problem the lenient load lists: it stopped at
/// the schema's, and a flag's bad default variant appeared only once those
/// were fixed.
@Suite struct StrictLoadingTests {
    @Test func aStrictLoadListsWhatALenientLoadLists() {
        let text = """
            {"flags": {"f": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "missing"}},
             "banners": [{"id": "b", "placementId": "p", "html": "x", "priority": "high", "properties": {}}]}
            """
        guard case .success(let lenient) = Definitions.load(Array(text.utf8)) else {
            Issue.record("the lenient load refused the document")
            return
        }
        guard case .failure(let strict) = Definitions.load(Array(text.utf8), strict: true) else {
            Issue.record("the strict load accepted the document")
            return
        }
        #expect(strict.problems.map(\.pointer) == lenient.problems.map(\.pointer))
        #expect(strict.problems.contains { $0.pointer == "/flags/f/defaultVariant" })
        #expect(strict.problems.contains { $0.pointer == "/banners/0/priority" })
    }
}
