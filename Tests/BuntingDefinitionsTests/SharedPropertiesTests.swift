import BuntingCore
@testable import BuntingDefinitions
import BuntingJSON
import Testing

/// Banners' properties and cards' extras written alike share one copy; each
/// is served as its entry wrote it, those `JSON`'s `==` takes as equal too.
@Suite struct SharedPropertiesTests {
    @Test func propertiesAndExtrasAreServedAsEachEntryWroteThem() throws {
        // Banners' typed properties, and cards' extras (strings).
        let properties = [
            (#"{"n": {"type": "number", "value": 1}}"#, #"{"n": {"type": "number", "value": 1.0}}"#),
            (#"{"n": {"type": "number", "value": 0.0}}"#, #"{"n": {"type": "number", "value": -0.0}}"#),
            (#"{"s": {"type": "string", "value": "\u00e9"}}"#, #"{"s": {"type": "string", "value": "e\u0301"}}"#),
            (
                #"{"a": {"type": "boolean", "value": true}, "b": {"type": "string", "value": "x"}}"#,
                #"{"b": {"type": "string", "value": "x"}, "a": {"type": "boolean", "value": true}}"#
            ),
        ].flatMap { [$0.0, $0.1, $0.0] }
        let extras = [
            (#"{"a": "\u00e9"}"#, #"{"a": "e\u0301"}"#), (#"{"a": "1", "b": "2"}"#, #"{"b": "2", "a": "1"}"#),
        ]
        .flatMap { [$0.0, $0.1, $0.0] }
        let banners = properties.enumerated().map { index, value in
            #"{"id": "b\#(index)", "placementId": "p\#(index)", "html": "h", "priority": 1, "properties": \#(value)}"#
        }
        let cards = extras.enumerated().map { index, value in
            #"{"id": "c\#(index)", "type": "classic", "title": "t", "created": \#(index), "extras": \#(value)}"#
        }
        let definitions = try load(
            #"{"banners": ["# + banners.joined(separator: ",") + #"], "contentCards": ["#
                + cards.joined(separator: ",") + "]}")
        #expect(definitions.problems.isEmpty)
        let shown = definitions.banners(for: user("u"), at: now)
        for (index, value) in properties.enumerated() {
            let written = try JSON.parse(Array(value.utf8)).encoded()
            #expect(shown[ExactString("p\(index)")].map { JSON.object($0.properties).encoded() } == written, "\(value)")
        }
        let listed = definitions.contentCards(for: user("u"), at: now)
        #expect(listed.count == extras.count)
        for (index, value) in extras.enumerated() {
            let written = try JSON.parse(Array(value.utf8)).encoded()
            #expect(listed.first { $0.id == "c\(index)" }.map { JSON.object($0.extras).encoded() } == written)
        }
    }
}
