import BuntingCore
@testable import BuntingDefinitions
import BuntingJSON
import Testing

/// A large document whose caller gives its text up has the text of its
/// banners and cards given back as they are compiled (see `DocumentText`).
/// Whatever was given back, a load says and serves exactly what a load that
/// kept the whole text says and serves: every problem with its line and
/// column, wherever it is, and a document that does not parse refused with
/// the whole text's error.
@Suite struct GivenBackTextTests {
    /// Flags, features, banners and cards, written over many lines with
    /// characters of two to four bytes, with problems of every kind spread
    /// over the batches: schema violations, ids used twice, targeting and
    /// templates that do not compile (a flag's among them), a flag's default variant missing, a
    /// feature named as a flag. `cardsFirst` writes the item sections
    /// before the flags. `card` replaces card 1400's text.
    private static func document(cardsFirst: Bool, card1400: String? = nil) -> String {
        let flags = (0..<600).map { index -> String in
            let defaultVariant = index == 7 ? "nope" : "on"
            let state = index == 20 ? "MAYBE" : "ENABLED"
            let targeting = [33, 550].contains(index) ? #", "targeting": {"$ref": "nowhere"}"# : ""
            let on =
                index == 300
                ? #"{"text": "é", "properties": {"t": {"type": "string", "value": "Hï {% bogus %}"}}}"#
                : #"{"text": "é \#(index)"}"#
            return """
                    "flag-\(index)": {
                      "state": "\(state)", "defaultVariant": "\(defaultVariant)",
                      "variants": {"on": \(on), "off": {"text": "off"}}\(targeting)
                    }
                """
        }
        let banners = (0..<600).map { index -> String in
            let id = index == 410 ? "b3" : "b\(index)"
            let placement = index == 150 ? "" : #", "placementId": "p\#(index % 5)""#
            let targeting = index == 590 ? #", "targeting": {"$ref": "nowhere"}"# : ""
            return """
                    {"id": "\(id)"\(placement),
                     "html": "<p>Grüße 😀 \(index)</p>", "priority": \(index % 7), "properties": {}\(targeting)}
                """
        }
        let cards = (0..<1500).map { index -> String in
            if index == 1400, let card1400 { return card1400 }
            let id = index == 900 ? "c5" : "c\(index)"
            let created = index == 100 ? "" : #", "created": \#(index)"#
            let title = index == 700 ? "Tïtle {% bogus %}" : "Tïtle 😀 \(index)"
            let type = index == 1499 ? "weird" : "classic"
            let targeting = index == 1300 ? #", "targeting": {"$ref": "nowhere"}"# : ""
            return """
                    {
                      "id": "\(id)", "type": "\(type)",
                      "title": "\(title)", "extras": {"k": "€\(index % 3)"}\(created)\(targeting)
                    }
                """
        }
        let flagSection = "  \"flags\": {\n" + flags.joined(separator: ",\n") + "\n  }"
        let features = #"  "features": {"flag-1": {"defaultValue": true}, "solo": {"defaultValue": 3}}"#
        let items = [
            "  \"banners\": [\n" + banners.joined(separator: ",\n") + "\n  ]",
            "  \"contentCards\": [\n" + cards.joined(separator: ",\n") + "\n  ]",
        ]
        let members = cardsFirst ? items + [flagSection, features] : [flagSection, features] + items
        return "{\n" + members.joined(separator: ",\n") + "\n}\n"
    }

    /// The document loaded twice: giving its text back (from any size on), and keeping it.
    private static func loadBothWays(_ text: String, strict: Bool = false) -> (
        givenBack: Result<Definitions, DefinitionsProblems>, kept: Result<Definitions, DefinitionsProblems>,
        bytesGivenBack: Int, copied: Bool
    ) {
        var givingBack = DefinitionsLoader(
            Array(text.utf8), strict: strict, givesBackText: true, givingBackFrom: 0)
        let givenBack = givingBack.load()
        var keeping = DefinitionsLoader(Array(text.utf8), strict: strict)
        return (givenBack, keeping.load(), givingBack.bytesGivenBack, givingBack.copiedToGiveBack)
    }

    private static func said(_ result: Result<Definitions, DefinitionsProblems>) -> [String] {
        switch result {
        case .success(let definitions): definitions.problems.map(\.description)
        case .failure(let failure): ["refused"] + failure.problems.map(\.description)
        }
    }

    @Test(arguments: [false, true])
    func everyProblemIsSaidWhereItIsAndEverythingElseServes(cardsFirst: Bool) throws {
        let text = Self.document(cardsFirst: cardsFirst)
        let loads = Self.loadBothWays(text)
        // The text of the batches without a problem went (2 of 5 of flags,
        // 2 of 5 of banners, 7 of 12 of cards), and was never copied.
        #expect(loads.bytesGivenBack > text.utf8.count / 4)
        #expect(!loads.copied)
        let said = Self.said(loads.givenBack)
        #expect(said == Self.said(loads.kept))
        // Every kind of problem is there, each with a line.
        for place in [
            "/flags/flag-7/defaultVariant", "/flags/flag-20/state", "/flags/flag-33/targeting/$ref",
            "/flags/flag-300/variants/on/properties/t/value", "/flags/flag-550/targeting/$ref",
            "/features/flag-1", "/banners/150", "/banners/410/id", "/banners/590/targeting/$ref",
            "/contentCards/100", "/contentCards/700/title", "/contentCards/900/id",
            "/contentCards/1300/targeting/$ref", "/contentCards/1499/type",
        ] {
            #expect(said.contains { $0.hasPrefix(place + " (") }, "\(place), with its line, in \(said)")
        }
        let loaded = try loads.givenBack.get()
        let kept = try loads.kept.get()
        let someone = user("u", ["tier": "gold"])
        let cards = loaded.contentCards(for: someone, at: now)
        #expect(cards.map(\.id) == kept.contentCards(for: someone, at: now).map(\.id))
        #expect(cards.map(\.title) == kept.contentCards(for: someone, at: now).map(\.title))
        #expect(cards.count == 1500 - 5)
        #expect(
            loaded.banners(for: someone, at: now, excluding: []).mapValues(\.id)
                == kept.banners(for: someone, at: now, excluding: []).mapValues(\.id))
        for key in ["flag-0", "flag-7", "flag-33", "flag-300", "flag-599"] {
            #expect(
                loaded.evaluateFlag(key, context: ["targetingKey": "u"], at: now)
                    == kept.evaluateFlag(key, context: ["targetingKey": "u"], at: now))
        }
    }

    @Test func theFlagsTextIsGivenBackToo() throws {
        let flags = (0..<1000).map { index in
            #""flag-\#(index)": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": {"n": \#(index)}, "off": {}}}"#
        }
        let text = "{\"flags\": {\n" + flags.joined(separator: ",\n") + "\n}}"
        let loads = Self.loadBothWays(text)
        #expect(loads.bytesGivenBack > text.utf8.count * 3 / 4)
        let loaded = try loads.givenBack.get()
        #expect(loaded.problems.isEmpty)
        for key in ["flag-0", "flag-500", "flag-999"] {
            #expect(
                loaded.evaluateFlag(key, context: ["targetingKey": "u"], at: now)
                    == (try loads.kept.get()).evaluateFlag(key, context: ["targetingKey": "u"], at: now))
        }
    }

    /// A problem outside the flags whose second token is a flag's key, and
    /// two keys that are the same text written apart (café composed and
    /// not), one of them wrong: each is said where it is.
    @Test func problemsAreFoundByTheirSectionAndTheExactKey() throws {
        var flags = (0..<400).map { index in
            #""flag-\#(index)": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": 1, "off": 0}}"#
        }
        flags[3] = #""featureFlags": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": 1, "off": 0}}"#
        flags[290] = #""caf\#u{E9}": {"state": "ENABLED", "defaultVariant": "on", "variants": {"on": 1, "off": 0}}"#
        flags[300] = #""cafe\#u{301}": {"state": "MAYBE", "defaultVariant": "on", "variants": {"on": 1, "off": 0}}"#
        let text = "{\"channels\": {\"featureFlags\": 7},\n\"flags\": {\n" + flags.joined(separator: ",\n") + "\n}}"
        let loads = Self.loadBothWays(text)
        #expect(loads.bytesGivenBack > 0)
        let said = Self.said(loads.givenBack)
        #expect(said == Self.said(loads.kept))
        #expect(said.contains { $0.hasPrefix("/channels/featureFlags (1:") })
        #expect(said.contains { $0.hasPrefix("/flags/cafe\u{301}/state (\(300 + 3):") })
    }

    @Test func aStrictLoadRefusesWithTheSameProblems() {
        let loads = Self.loadBothWays(Self.document(cardsFirst: false), strict: true)
        let said = Self.said(loads.givenBack)
        #expect(said.first == "refused")
        #expect(said == Self.said(loads.kept))
    }

    /// A card that does not parse, after text before it was given back: the
    /// whole text's error, as jansson reports it reading the whole text.
    @Test(arguments: [
        #"{"id": "c1400", "created": 1,}"#,
        #"{"id": "c1400", "title": "bad \x escape"}"#,
        "123abc",
        "tru",
        "{\"id\": \"c1400\", \"title\": \"a\u{01}b\"}",
        #"{"id": "c1400", "n": 1e999}"#,
        #"{"id": "c1400", "n": 99999999999999999999}"#,
        "{\"title\": \"é\",\n  \"deep\": " + String(repeating: "[", count: 520) + String(repeating: "]", count: 520)
            + "}",
        #"{"id": "c1400", "title": "\ud800"}"#,
    ])
    func aCardThatDoesNotParseIsTheWholeTextsError(card: String) throws {
        let text = Self.document(cardsFirst: false, card1400: card)
        try Self.expectTheWholeTextsError(Array(text.utf8))
    }

    /// A flag that does not parse, after the flags before it were given back.
    @Test(arguments: [
        #"{"state": "ENABLED", "defaultVariant": "on", "variants": {"on": 1,}}"#,
        #"{"state": "ENABLED", "defaultVariant": "o\x", "variants": {"on": 1}}"#,
        "123abc", "tru",
        "{\"v\": " + String(repeating: "[", count: 520) + String(repeating: "]", count: 520) + "}",
    ])
    func aFlagThatDoesNotParseIsTheWholeTextsError(flag: String) throws {
        let flags = (0..<600).map { index in
            let definition =
                index == 520
                ? flag : #"{"state": "ENABLED", "defaultVariant": "on", "variants": {"on": \#(index), "off": 0}}"#
            return "  \"flag-\(index)\": \(definition)"
        }
        let text = "{\"flags\": {\n" + flags.joined(separator: ",\n") + "\n}}"
        try Self.expectTheWholeTextsError(Array(text.utf8))
    }

    @Test func invalidUTF8InACardIsTheWholeTextsError() throws {
        var bytes = Array(Self.document(cardsFirst: true, card1400: #"{"id": "c1400", "title": "ab"}"#).utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: Array(#""ab""#.utf8)) })
        bytes[at + 2] = 0xC3 // a lead byte followed by `"`, which cannot continue it
        try Self.expectTheWholeTextsError(bytes)
    }

    private static func expectTheWholeTextsError(_ bytes: [UInt8]) throws {
        var expected: JSONParseError?
        do { _ = try JSON.parse(bytes) } catch { expected = error }
        let error = try #require(expected, "the document must not parse")
        var givingBack = DefinitionsLoader(bytes.map { $0 }, strict: false, givesBackText: true, givingBackFrom: 0)
        let refused = givingBack.load()
        #expect(givingBack.bytesGivenBack > 0)
        guard case .failure(let failure) = refused, let problem = failure.problems.first else {
            Issue.record("a document that does not parse must be refused")
            return
        }
        #expect(failure.problems.count == 1)
        #expect([problem.line, problem.column] == [error.line, error.column])
        #expect(problem.message == error.message)
        var keeping = DefinitionsLoader(bytes, strict: false)
        #expect(Self.said(refused) == Self.said(keeping.load()))
    }
}
