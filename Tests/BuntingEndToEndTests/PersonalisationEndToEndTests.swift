import BuntingJSON
import Foundation
import Testing

/// Personalised text through the built binary: `validate` and the log name
/// each template that does not parse at its place in the document, a
/// template past a limit leaves its item out while the server goes on
/// answering, and the channels carry each user's text.
@Suite struct PersonalisationEndToEndTests {
    static let document = """
        {
          "contentBlocks": {"signoff": "-- the {{${tier} | default: 'Bunting'}} team"},
          "contentCards": [
            {"id": "welcome", "type": "classic", "created": 3, "extras": {"feed": "inbox"},
             "title": "Hi {{${first_name} | default: 'there'}}", "description": "{{content_blocks.${signoff}}}"},
            {"id": "huge", "type": "classic", "created": 2, "extras": {},
             "title": "{% for i in (1..${repeats}) %}{% for j in (1..1000) %}{% endfor %}{% endfor %}done"},
            {"id": "broken", "type": "classic", "created": 1, "extras": {},
             "title": "ok so far\\n{{ name | shout }}"},
            {"id": "remote", "type": "classic", "created": 0, "extras": {},
             "title": "{% connected_content https://example.com/profile :save profile %}{{ profile.name }}"}
          ]
        }
        """

    @Test func validateNamesEachTemplateThatDoesNotParseAtItsPlace() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.document)
        let validate = try runBunting(["validate", workspace.definitions.path])
        #expect(validate.status == 1)
        let lines = validate.stdout.split(separator: "\n").map(String.init)
        // `{{ name | shout }}`: line 2 of the template, at the filter's name, is line 9 of the document.
        let line = String(Self.document.split(separator: "\n")[8])
        let column =
            line.unicodeScalars.distance(from: line.startIndex, to: try #require(line.range(of: "shout")).lowerBound)
            + 1
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(workspace.definitions.path):9:\(column): /contentCards/2/title: the template does not parse (INVALID_TEMPLATE at 2:11"
                )
                    && $0.contains("unknown filter 'shout'")
            }, "\(lines)")
        #expect(
            lines.contains { $0.contains("/contentCards/3/title") && $0.contains("would reach the network") },
            "\(lines)")
        #expect(lines.contains { $0.contains("would serve it") })
    }

    @Test func aTemplatePastALimitLeavesItsItemOutAndTheServerAnswers() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.document)
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions.path, "--log-level", "info"])
        _ = try server.request("subscribe", params: ["channel": "contentCards"])
        _ = try server.request(
            "changeUser",
            params: ["userId": "ada", "attributes": ["first_name": "Ada", "tier": "gold", "repeats": 1000]], id: 2)
        let updated = try server.waitForMessage("DATA_UPDATED") { isEvent($0, "DATA_UPDATED") }
        let cards = updated.message["params"]?["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue ?? []
        #expect(cards.map(\.["id"]) == ["welcome"])
        #expect(cards.first?["title"] == "Hi Ada" && cards.first?["description"] == "-- the gold team")
        let status = try server.request("status", id: 3)
        let aborted = status["result"]?["definitions"]?["aborted"]?.arrayValue ?? []
        #expect(aborted.map(\.["id"]) == ["huge"] && aborted.first?["reason"] == "TEMPLATE_LIMIT")
        #expect(
            (status["result"]?["definitions"]?["problems"]?.arrayValue ?? []).map(\.["pointer"]) == [
                "/contentCards/2/title", "/contentCards/3/title",
            ])
        #expect(
            server.waitForStderr { $0.contains("\"huge\"") && $0.contains("TEMPLATE_LIMIT") }, "the failure is logged")
        // The same user with a loop the item's budget allows: the card is back at the next refresh.
        _ = try server.request("setUserAttributes", params: ["attributes": ["repeats": 2]], id: 4)
        _ = try server.request("openSession", id: 5)
        let again = try server.waitForMessage(from: updated.index + 1, "the next DATA_UPDATED") {
            isEvent($0, "DATA_UPDATED")
        }
        #expect(
            (again.message["params"]?["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue ?? []).map(\.["id"]) == [
                "welcome", "huge",
            ])
        let rendered = try server.request(
            "renderTemplate", params: ["template": "{{${first_name}}}, {{content_blocks.${signoff}}}"], id: 6)
        #expect(rendered["result"] == ["text": "Ada, -- the gold team"])
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        server.expectCleanProtocol()
    }

    /// The README's Personalisation section: its session gives its answers,
    /// and its document gives each user the text it says.
    @Test func theReadmesExamplesHold() throws {
        let transcript = try Transcript.fromMarkdown("README.md", after: "## Personalisation")
        #expect(transcript.inputs.count == 2 && transcript.expected.count == 2)
        let session = try ServerProcess(framing: .ndjson)
        try session.sendRaw(transcript.inputs.flatMap { ServerProcess.WireFraming.ndjson.frame(Array($0.utf8)) })
        try session.closeInput()
        #expect(try session.waitForExit() == 0)
        #expect(transcript.differences(session.receivedText).isEmpty, "\(transcript.differences(session.receivedText))")

        let readme = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Personalisation"))
        let open = try #require(readme.range(of: "```json\n", range: section.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "```", range: open.upperBound..<readme.endIndex))
        let workspace = try Workspace()
        try workspace.writeDefinitions(String(readme[open.upperBound..<close.lowerBound]))
        let server = try ServerProcess(framing: .ndjson, arguments: ["--definitions", workspace.definitions.path])
        _ = try server.request("subscribe", params: ["channel": "contentCards"])
        _ = try server.request(
            "changeUser", params: ["userId": "ada", "attributes": ["first_name": "Ada", "tier": "gold"]], id: 2)
        let forAda = try server.request("getSnapshot", params: ["channel": "contentCards"], id: 3)
        let adasCards = forAda["result"]?["contentCards"]?["cards"]?.arrayValue ?? []
        #expect(adasCards.map(\.["id"]) == ["welcome", "lounge"])
        #expect(adasCards.first?["title"] == "Hi Ada!" && adasCards.first?["description"] == "See you soon, Ada.")
        _ = try server.request("changeUser", params: ["userId": "someone"], id: 4)
        let forSomeone = try server.request("getSnapshot", params: ["channel": "contentCards"], id: 5)
        let theirCards = forSomeone["result"]?["contentCards"]?["cards"]?.arrayValue ?? []
        #expect(theirCards.map(\.["id"]) == ["welcome"] && theirCards.first?["title"] == "Hi there!")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }
}
