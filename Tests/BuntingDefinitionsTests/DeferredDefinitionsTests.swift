import BuntingCore
@testable import BuntingDefinitions
import BuntingJSON
import Foundation
import Testing

/// A document with a note is served before its full load: each flag's
/// answer, read from its own text, is the full document's, and a note that
/// lies is found out and forgotten.
@Suite struct DeferredDefinitionsTests {
    /// Everything a flag's answer can depend on besides its own text:
    /// evaluators, flag-set metadata, the fractional hashing; keys that need
    /// escapes; a broken flag; banners and cards that the flags ignore.
    static let document = #"""
        {
          "metadata": {"version": "7", "owner": "tests"},
          "fractionalHashing": "murmur3-cbor",
          "channels": {"banners": false},
          "$evaluators": {"isGold": {"in": [{"var": "tier"}, ["gold", "platinum"]]}},
          "flags": {
            "gold": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                     "targeting": {"if": [{"$ref": "isGold"}, "on", "off"]}, "metadata": {"team": "a"}},
            "split": {"state": "ENABLED", "variants": {"a": "A", "b": "B", "c": "C"}, "defaultVariant": "a",
                      "targeting": {"fractional": [["a", 34], ["b", 33], ["c", 33]]}},
            "quo\"ted \u00e9": {"state": "ENABLED", "variants": {"x": {"enabled": true, "properties": {"n": 1}}},
                                "defaultVariant": "x"},
            "off": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"},
            "broken": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                       "targeting": {"if": [{"$ref": "nowhere"}, "on", "off"]}}
          },
          "banners": [{"id": "b1", "placementId": "top", "html": "<p>hi</p>"}],
          "contentCards": [{"id": "c1", "type": "classic", "title": "Hello", "extras": {}, "created": 1}]
        }
        """#

    static let contexts: [JSON] = [
        [:], ["targetingKey": "user-1"], ["targetingKey": "user-2", "tier": "gold"], ["targetingKey": "u3", "tier": 5],
    ]

    static var bytes: [UInt8] { Array(document.utf8) }

    static func full() throws -> Definitions {
        try Definitions.load(bytes).get()
    }

    @Test func eachFlagAnswersAsTheFullDocumentBeforeTheFullLoad() throws {
        let full = try Self.full()
        let deferred = try #require(
            DeferredDefinitions(bytes: Self.bytes, problems: full.problems, strict: false, beginLoading: false))
        let keys = full.flagSet.flagKeys + ["no-such-flag"]
        #expect(keys.contains("quo\"ted é"))
        for key in keys {
            for context in Self.contexts {
                for type in [nil, FlagType.boolean, .string] {
                    let expected = full.encodedFlagResult(key, context: context, type: type, at: 1_000)
                    #expect(
                        deferred.encodedFlagResult(key, context: context, type: type, at: 1_000).bytes
                            == expected.bytes, "\(key) \(context)")
                    #expect(
                        deferred.evaluateFlag(key, context: context, type: type, at: 1_000)
                            == full.evaluateFlag(key, context: context, type: type, at: 1_000))
                }
            }
        }
        #expect(!deferred.isLoaded, "the answers came from the flags' own texts")
        #expect(deferred.isEnabled(.banners) == false && deferred.isEnabled(.contentCards))
        #expect(deferred.problems == full.problems)
    }

    @Test func everythingElseWaitsForTheFullLoad() throws {
        let full = try Self.full()
        let deferred = try #require(
            DeferredDefinitions(bytes: Self.bytes, problems: full.problems, strict: false, beginLoading: false))
        let subject = EvaluationSubject(targetingKey: "user-2", attributes: ["tier": "gold"])
        #expect(deferred.contentCards(for: subject, at: 1_000).map(\.id) == ["c1"])
        #expect(deferred.isLoaded)
        #expect(
            deferred.featureFlags(for: subject, at: 1_000).map(\.encoded.bytes)
                == full.featureFlags(for: subject, at: 1_000).map(\.encoded.bytes))
        #expect(deferred.placementIds == full.placementIds)
        #expect(deferred.flagsChanged(since: full).isEmpty && full.flagsChanged(since: deferred).isEmpty)
    }

    @Test func aTextThatIsNotAnObjectOfFlagsIsLoadedInFull() {
        for text in [#"[1, 2]"#, #"{"flags": [1]}"#, #"{"flags": {"a": }"#] {
            #expect(
                DeferredDefinitions(bytes: Array(text.utf8), problems: [], strict: false, beginLoading: false) == nil,
                "\(text)")
        }
    }

    @Test func aDocumentThatLoadsIsNotedAndThenServedFromItsNote() throws {
        let directory = try temporaryDirectory()
        let known = KnownDocuments(directory: directory)
        let compile = Definitions.compiler(strict: false, known: known, beginsLoading: false)
        let first = try compile(Self.bytes).get()
        #expect(first is Definitions)
        let second = try compile(Self.bytes).get()
        let deferred = try #require(second as? DeferredDefinitions)
        #expect(deferred.problems == first.problems && !first.problems.isEmpty)
        // Strictness is part of the note: the strict load refuses this document.
        #expect(throws: DefinitionsError.self) {
            try Definitions.compiler(strict: true, known: known)(Self.bytes).get()
        }
        // Another build's notes do not count.
        let other = KnownDocuments(directory: directory, build: "another build")
        #expect(try Definitions.compiler(strict: false, known: other)(Self.bytes).get() is Definitions)
    }

    @Test func aNoteThatLiesIsForgottenAndTheDocumentServesNothing() throws {
        let directory = try temporaryDirectory()
        let known = KnownDocuments(directory: directory)
        // Valid JSON that the schema refuses (banners must be an array).
        let bad = Array(
            #"{"flags": {"f": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}, "banners": 7}"#
                .utf8)
        #expect(throws: DefinitionsError.self) { try Definitions.compiler(strict: false, known: known)(bad).get() }
        known.remember(bad, digest: KnownDocuments.digest(of: bad), strict: false, problems: [])
        let forged = try #require(
            try Definitions.compiler(strict: false, known: known, beginsLoading: false)(bad).get()
                as? DeferredDefinitions)
        #expect(forged.featureFlags(for: EvaluationSubject(targetingKey: "u", attributes: [:]), at: 0).isEmpty)
        #expect(forged.evaluateFlag("f", context: [:], at: 0)["errorCode"] == "FLAG_NOT_FOUND")
        // It says so, instead of "loaded with the note's problems".
        #expect(forged.refusal?.problems.first?.hasPrefix("/banners") == true)
        #expect(forged.problems.first?.pointer == "/banners")
        #expect(
            known.problems(of: bad, digest: KnownDocuments.digest(of: bad), strict: false) == nil,
            "the note is gone")
        #expect(throws: DefinitionsError.self) { try Definitions.compiler(strict: false, known: known)(bad).get() }
    }

    @Test func aDamagedNoteIsNoNote() throws {
        let directory = try temporaryDirectory()
        let known = KnownDocuments(directory: directory)
        let digest = KnownDocuments.digest(of: Self.bytes)
        known.remember(Self.bytes, digest: digest, strict: false, problems: [])
        #expect(known.problems(of: Self.bytes, digest: digest, strict: false) == [])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        #expect(names.count == 1)
        let path = "\(directory)/\(names[0])"
        for damage in ["", "{", #"{"format": 1}"#, "[]"] {
            try Data(damage.utf8).write(to: URL(fileURLWithPath: path))
            #expect(known.problems(of: Self.bytes, digest: digest, strict: false) == nil, "\(damage)")
        }
    }

    @Test func theDirectoryKeepsTheMostRecentNotes() throws {
        let directory = try temporaryDirectory()
        let known = KnownDocuments(directory: directory, limit: 3)
        for index in 0..<5 {
            let bytes = Array(#"{"flags": {}, "metadata": {"n": \#(index)}}"#.utf8)
            known.remember(bytes, digest: KnownDocuments.digest(of: bytes), strict: false, problems: [])
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.count == 3)
    }

    /// Pruning removes the oldest notes and nothing else the directory holds.
    @Test func pruningRemovesNotesOnly() throws {
        let directory = try temporaryDirectory()
        let theirs = ["a.json", "notes.txt", "0123-45.json", "ABCDEF0123456789-1.json"]
        for name in theirs { try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)")) }
        // A note of format 1 (an FNV-1a name) is Bunting's, and of no use now.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(directory)/0123456789abcdef-12-strict.json"))
        let known = KnownDocuments(directory: directory, limit: 2)
        for index in 0..<4 {
            let bytes = Array(#"{"flags": {}, "metadata": {"n": \#(index)}}"#.utf8)
            known.remember(bytes, digest: KnownDocuments.digest(of: bytes), strict: false, problems: [])
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(names).isSuperset(of: theirs))
        #expect(names.count == theirs.count + 2 + 1, "the two newest notes and the key")
    }

    /// A notes directory others can write, or that is a link, is not used:
    /// no note is written there or believed from there.
    @Test func aDirectoryThatIsNotBuntingsOwnIsNotUsed() throws {
        let real = try temporaryDirectory()
        let link = real + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        chmod(real, 0o777)
        for directory in [real, link] {
            let known = KnownDocuments(directory: directory)
            known.remember(Self.bytes, digest: KnownDocuments.digest(of: Self.bytes), strict: false, problems: [])
            #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty, "\(directory)")
        }
        // The same directory, once only its owner can write it, is used.
        chmod(real, 0o700)
        let planted = KnownDocuments(directory: real)
        planted.remember(Self.bytes, digest: KnownDocuments.digest(of: Self.bytes), strict: false, problems: [])
        chmod(real, 0o777)
        #expect(
            KnownDocuments(directory: real).problems(
                of: Self.bytes, digest: KnownDocuments.digest(of: Self.bytes), strict: false) == nil)
        chmod(real, 0o700)
        #expect(
            KnownDocuments(directory: real).problems(
                of: Self.bytes, digest: KnownDocuments.digest(of: Self.bytes), strict: false) == [])
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory away"))
    func aDirectoryOfAnotherUserIsNotUsed() throws {
        let directory = try temporaryDirectory()
        chmod(directory, 0o700)
        KnownDocuments(directory: directory).remember(
            Self.bytes, digest: KnownDocuments.digest(of: Self.bytes), strict: false, problems: [])
        #expect(chown(directory, 65534, 65534) == 0)
        #expect(
            KnownDocuments(directory: directory).problems(
                of: Self.bytes, digest: KnownDocuments.digest(of: Self.bytes), strict: false) == nil)
    }

    /// A note is believed only with the code of this directory's key: one
    /// edited to name another document, or copied from a directory with
    /// another key, is no note.
    @Test func onlyAuthenticNotesAreBelieved() throws {
        let directory = try temporaryDirectory()
        let known = KnownDocuments(directory: directory)
        let digest = KnownDocuments.digest(of: Self.bytes)
        known.remember(Self.bytes, digest: digest, strict: false, problems: [])
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".json") })
        let genuine = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
        #expect(known.problems(of: Self.bytes, digest: digest, strict: false) == [])

        // The same note with a problem taken away, or its code changed.
        var edited = try JSON.parse(Array(genuine)).objectValue ?? [:]
        edited["build"] = .string("another build")
        try Data(JSON.object(edited).encoded()).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
        #expect(
            KnownDocuments(directory: directory, build: "another build").problems(
                of: Self.bytes, digest: digest, strict: false) == nil)
        try genuine.write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
        #expect(known.problems(of: Self.bytes, digest: digest, strict: false) == [])

        // Copied into a directory of its own key.
        let other = try temporaryDirectory()
        let elsewhere = KnownDocuments(directory: other)
        try genuine.write(to: URL(fileURLWithPath: "\(other)/\(name)"))
        #expect(elsewhere.problems(of: Self.bytes, digest: digest, strict: false) == nil)
        // A key others can read is no key: no notes at all.
        chmod("\(directory)/notes.key", 0o644)
        #expect(KnownDocuments(directory: directory).problems(of: Self.bytes, digest: digest, strict: false) == nil)
    }

    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "bunting-known-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
