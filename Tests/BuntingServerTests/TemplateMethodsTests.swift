import BuntingCore
import BuntingJSON
import Testing

/// Personalised text over the protocol, in process: what the channels carry
/// for each user, `status.definitions.aborted`, and `renderTemplate`.
@Suite struct TemplateMethodsTests {
    static let document = """
        {
          "contentBlocks": {"signoff": "See you soon, {{${first_name} | default: 'friend'}}."},
          "flags": {
            "greeting": {"state": "ENABLED", "defaultVariant": "on", "variants": {
              "on": {"enabled": true, "properties": {"text": {"type": "string", "value": "Hi {{${first_name} | default: 'there'}}"}}}}}
          },
          "banners": [
            {"id": "gold", "placementId": "top", "priority": 10, "properties": {},
             "html": "<p>{{${first_name}}}, you are gold</p>{% unless ${tier} == 'gold' %}{% abort_message('gold only') %}{% endunless %}"},
            {"id": "everyone", "placementId": "top", "priority": 1, "properties": {}, "html": "<p>Welcome</p>"}
          ],
          "contentCards": [
            {"id": "welcome", "type": "classic", "created": 1700000002, "title": "Welcome, {{${first_name} | default: 'there'}}!",
             "description": "{{content_blocks.${signoff}}}", "extras": {"feed": "{{${tier} | default: 'none'}}"}},
            {"id": "gold-perks", "type": "classic", "created": 1700000001, "title": "Your perks",
             "description": "{% if ${tier} != 'gold' %}{% abort_message('not gold') %}{% endif %}Lounge access", "extras": {"feed": "gold"}},
            {"id": "plain", "type": "classic", "created": 1700000000, "title": "No markup here", "extras": {}}
          ]
        }
        """

    func subscribed() -> InProcessServer {
        let server = InProcessServer(definitions: Self.document)
        for channel in ["featureFlags", "banners", "contentCards"] {
            server.request("subscribe", params: ["channel": .string(channel)])
        }
        return server
    }

    func cards(_ server: InProcessServer, extras: JSON? = nil) -> [JSON] {
        var params: JSONObject = ["channel": "contentCards"]
        if let extras { params["extras"] = extras }
        return server.call("getSnapshot", .object(params))["contentCards"]?["cards"]?.arrayValue ?? []
    }

    @Test func snapshotsAndReadsCarryEachUsersText() {
        let server = subscribed()
        let before = server.received.count
        server.request("changeUser", params: ["userId": "ada", "attributes": ["first_name": "Ada", "tier": "gold"]])
        let updated = server.received[before...].filter { $0["params"]?["type"] == "DATA_UPDATED" }
        #expect(updated.count == 3)
        let snapshotCards = updated.first { $0["params"]?["channel"] == "contentCards" }?["params"]?["cacheSnapshot"]?[
            "contentCards"]?["cards"]
        #expect(snapshotCards?.arrayValue?.map { $0["title"] } == ["Welcome, Ada!", "Your perks", "No markup here"])
        #expect(server.call("getBanner", ["placementId": "top"])["html"] == "<p>Ada, you are gold</p>")
        #expect(server.call("getFeatureFlag", ["id": "greeting"])["properties"]?["text"]?["value"] == "Hi Ada")
        #expect(cards(server).first?["description"] == "See you soon, Ada.")
        // A feed filter reads the rendered extras.
        #expect(cards(server, extras: ["feed": "gold"]).map(\.["id"]) == ["welcome", "gold-perks"])

        server.request("changeUser", params: ["userId": "bo", "attributes": ["tier": "bronze"]])
        #expect(cards(server).map(\.["title"]) == ["Welcome, there!", "No markup here"])
        #expect(server.call("getBanner", ["placementId": "top"])["id"] == "everyone")
        #expect(server.call("getFeatureFlag", ["id": "greeting"])["properties"]?["text"]?["value"] == "Hi there")
    }

    @Test func statusListsWhatTheCurrentUsersTemplatesLeftOut() {
        let server = subscribed()
        server.request("changeUser", params: ["userId": "bo", "attributes": ["tier": "bronze"]])
        let aborted = server.call("status")["definitions"]?["aborted"]?.arrayValue ?? []
        #expect(aborted.map(\.["id"]) == ["gold", "gold-perks"])
        #expect(
            aborted.first == [
                "channel": "banners", "id": "gold", "pointer": "/banners/0/html", "reason": "TEMPLATE_ABORTED",
                "message": "aborted by abort_message: gold only", "line": 1, "column": 69,
            ])
        #expect(aborted.last?["pointer"] == "/contentCards/1/description")
        // Another user's refresh replaces them; none are left for a user they all render for.
        server.request("changeUser", params: ["userId": "ada", "attributes": ["tier": "gold"]])
        #expect(server.call("status")["definitions"]?["aborted"] == [])
    }

    /// `setUserAttributes` triggers no refresh (the protocol's rule): the
    /// text changes with the next refresh, which decides eligibility and
    /// text from the same attributes.
    @Test func newAttributesAreRenderedByTheNextRefresh() {
        let server = subscribed()
        server.request("changeUser", params: ["userId": "bo", "attributes": ["tier": "bronze"]])
        let before = server.received.count
        server.request("setUserAttributes", params: ["attributes": ["first_name": "Bo", "tier": "gold"]])
        #expect(server.received.count == before + 1, "the reply, and no event")
        #expect(server.call("getBanner", ["placementId": "top"])["id"] == "everyone")
        server.request("openSession")
        #expect(server.call("getBanner", ["placementId": "top"])["html"] == "<p>Bo, you are gold</p>")
        #expect(cards(server).map(\.["title"]) == ["Welcome, Bo!", "Your perks", "No markup here"])
    }

    @Test func renderTemplateRendersForTheCurrentUserOrWithWhatIsGiven() {
        let server = subscribed()
        server.request("changeUser", params: ["userId": "ada", "attributes": ["first_name": "Ada"]])
        #expect(
            server.call(
                "renderTemplate", ["template": "{{${first_name}}} ({{${user_id}}}) {{content_blocks.${signoff}}}"])
                == ["text": "Ada (ada) See you soon, Ada."])
        #expect(
            server.call(
                "renderTemplate", ["template": "{{${first_name} | default: 'nobody'}}", "attributes": ["tier": "gold"]])
                == ["text": "nobody"])
        #expect(
            server.call("renderTemplate", ["template": "{{ n | plus: 1 }} {{${first_name}}}", "data": ["n": 41]]) == [
                "text": "42 "
            ])
        // The server's clock: the harness's manual clock reads 2025-06-15 15:06:40 UTC.
        #expect(
            server.call(
                "renderTemplate",
                ["template": "{{ 'now' | time_zone: 'Asia/Tokyo' | date: '%Y-%m-%d %H:%M' }}", "data": [:]])
                == ["text": "2025-06-16 00:06"])
    }

    @Test(arguments: [
        ("{% bogus %}", "INVALID_TEMPLATE", 1, 1),
        ("ok\n{{ 1 | divided_by: 0 }}", "INVALID_TEMPLATE", 2, 8),
        ("{{ 9223372036854775807 | plus: 1 }}", "TEMPLATE_LIMIT", 1, 26),
        ("{% connected_content https://example.com :save x %}", "INVALID_TEMPLATE", 1, 1),
        ("a{% abort_message('not today') %}", "TEMPLATE_ABORTED", 1, 2),
    ])
    func aTemplateErrorIsAJSONRPCErrorWithItsReasonAndPlace(template: String, reason: String, line: Int, column: Int) {
        let server = subscribed()
        let reply = server.request("renderTemplate", params: ["template": .string(template), "data": [:]])
        #expect(reply["error"]?["code"] == -32012)
        let data = reply["error"]?["data"]
        #expect(data?["reason"] == .string(reason))
        #expect(data?["field"] == "template" && data?["why"]?.stringValue?.isEmpty == false)
        #expect(data?["line"] == .int(line) && data?["column"] == .int(column))
        #expect((data?["abortMessage"] != nil) == (reason == "TEMPLATE_ABORTED"))
        if reason == "TEMPLATE_ABORTED" { #expect(data?["abortMessage"] == "not today") }
    }

    @Test func beforeAnyDocumentRenderTemplateIsNotSynced() {
        let server = InProcessServer(definitions: "not a document")
        let reply = server.request("renderTemplate", params: ["template": "hi", "data": [:]])
        #expect(reply["error"]?["code"] == -32008 && reply["error"]?["data"]?["reason"] == "NOT_SYNCED")
    }

    @Test func badParamsAreInvalidParams() {
        let server = subscribed()
        #expect(server.request("renderTemplate", params: [:])["error"]?["data"]?["field"] == "template")
        #expect(server.request("renderTemplate", params: ["template": 1])["error"]?["code"] == -32602)
        #expect(
            server.request("renderTemplate", params: ["template": "x", "data": []])["error"]?["data"]?["field"]
                == "data")
    }
}
