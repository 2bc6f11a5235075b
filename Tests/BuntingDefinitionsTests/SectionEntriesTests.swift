import BuntingCore
@testable import BuntingDefinitions
import BuntingJSON
import Testing

/// Banners and cards are parsed, checked and compiled a batch of entries at
/// a time, each from its own text: what is found, and where, is what
/// checking the whole section finds, past the first batch too.
@Suite struct SectionEntriesTests {
    /// A document of `count` cards, one a line from line 3 on (card `i` on line `i + 3`).
    private func cards(_ count: Int, _ card: (Int) -> String) -> String {
        "{\n\"contentCards\": [\n" + (0..<count).map(card).joined(separator: ",\n") + "\n]\n}"
    }

    private func card(_ index: Int, id: String? = nil, created: Bool = true) -> String {
        #"{"id": "\#(id ?? "c\(index)")", "type": "classic", "title": "T\#(index)", "extras": {}"#
            + (created ? #", "created": \#(index)}"# : "}")
    }

    @Test func entriesPastTheFirstBatchAreCheckedAndCompiledWhereTheyStand() throws {
        let count = 10 * DefinitionsLoader.entriesDroppedTogether + 20
        let text = cards(count) { index in
            switch index {
            case 0, 700, count - 1: card(index, created: false)
            case 1000: card(index, id: "c5")
            default: card(index)
            }
        }
        let definitions = try load(text)
        let found = definitions.problems.map { "\($0.pointer) \($0.line)" }
        #expect(
            found == [
                "/contentCards/0 3", "/contentCards/700 703", "/contentCards/1000/id 1003", "/contentCards/1299 1302",
            ])
        let listed = definitions.contentCards(for: user("u"), at: now)
        #expect(listed.count == count - 4)
        #expect(Set(listed.map(\.id)).isDisjoint(with: ["c0", "c700", "c1299"]))
        #expect(listed.filter { $0.id == "c5" }.map(\.title) == ["T5"])
    }

    @Test func aDocumentRefusedForItsStructureSaysNothingItsItemsCompilingFound() {
        let text = """
            {"banners": 7, "contentCards": [
            \(card(0)),
            \(card(1, id: "c0"))
            ]}
            """
        guard case .failure(let failure) = Definitions.load(Array(text.utf8)) else {
            Issue.record("banners that are not an array must refuse the document")
            return
        }
        #expect(failure.problems.map(\.pointer) == ["/banners"])
        // Loaded, the same cards say what compiling them found.
        #expect(
            problems(text.replacingOccurrences(of: #""banners": 7, "#, with: "")).map(\.pointer) == [
                "/contentCards/1/id"
            ])
    }

    @Test func anEntryThatDoesNotParseIsReportedAsTheWholeTextsError() throws {
        let text = cards(700) { index in index == 600 ? #"{"id": "c600", "created": 1,}"# : card(index) }
        let bytes = Array(text.utf8)
        var expected: JSONParseError?
        do { _ = try JSON.parse(bytes) } catch { expected = error }
        let error = try #require(expected)
        guard case .failure(let failure) = Definitions.load(bytes) else {
            Issue.record("a document that does not parse must be refused")
            return
        }
        #expect(failure.problems.map { [$0.line, $0.column] } == [[error.line, error.column]])
        #expect(failure.problems.first?.line == 603)
        #expect(failure.problems.first?.message.contains(error.message) == true)
    }

    @Test func entriesGivenOutFromTheirTextAreTheParsedSectionsEntries() throws {
        let text = #"[{"a": [1, "],"]}, "\u00e9", 2, {"b": {"c": null}}, [[]]]"#
        let bytes = Array(text.utf8)
        let spans = try #require(bytes.withUnsafeBytes { JSONElementSpans.elements(of: $0, in: 0..<$0.count) })
        let fromText = SectionEntries(text: DocumentText(bytes), spans: spans, section: "banners")
        let whole = try #require(try JSON.parse(bytes).arrayValue)
        let fromTree = SectionEntries(parsed: whole)
        #expect(fromText.count == 5 && fromTree.count == 5)
        for range in [0..<2, 2..<5] {
            let parsed = try fromText.batch(range)
            #expect(parsed == Array(whole[range]))
            #expect(try fromTree.batch(range) == parsed)
        }
    }

    /// Checking an entry as the one entry of its section finds what checking
    /// it in place finds only while the sections' schema says nothing of the
    /// array itself but its type and its items.
    @Test func theItemSectionsSchemaSaysOnlyTheirTypeAndTheirItems() throws {
        let schema = try JSON.parse(PackageResources.definitions_schema_compact_json)
        for section in ["banners", "contentCards"] {
            let keys = try #require(schema["properties"]?[section]?.objectValue?.keys)
            #expect(Set(keys) == ["type", "items"], "\(section)")
        }
    }
}
