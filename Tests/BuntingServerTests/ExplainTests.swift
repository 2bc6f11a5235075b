import BuntingCore
import BuntingJSON
import Testing

/// `explain: true`: why a flag resolves as it does, and why each banner
/// and card is or is not in the snapshot.
@Suite struct ExplainTests {
    static let document = """
        {"flags": {
           "checkout": {"state": "ENABLED", "variants": {"new": true, "old": false}, "defaultVariant": "old",
                        "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "new", null]}},
           "plain": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"},
           "off": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"},
           "limit": {"state": "ENABLED", "variants": {"low": 10}, "defaultVariant": "low"}},
         "banners": [
           {"id": "top", "placementId": "home", "html": "<p>1</p>", "priority": 9, "properties": {},
            "targeting": {"==": [{"var": "tier"}, "gold"]}},
           {"id": "fallback", "placementId": "home", "html": "<p>2</p>", "priority": 1, "properties": {}},
           {"id": "later", "placementId": "side", "html": "<p>3</p>", "priority": 1, "properties": {}, "schedule": {"start": 1750003600}}],
         "contentCards": [
           {"id": "welcome", "type": "classic", "title": "Welcome", "extras": {}, "created": 1700000000, "dismissible": true},
           {"id": "old", "type": "classic", "title": "Old", "extras": {}, "created": 1700000000, "expiresAt": 1740000000},
           {"id": "held", "type": "classic", "title": "Held", "extras": {}, "created": 1700000000, "controlShare": 1},
           {"id": "broken", "type": "classic", "title": "Broken", "extras": {}, "created": 1700000000, "targeting": {"nope": 1}}]}
        """

    @Test func evaluateFlagSaysWhyAndWhichRuleDecided() {
        let server = InProcessServer(definitions: Self.document)
        func explain(_ key: String, _ context: JSON = ["targetingKey": "ada"]) -> JSON? {
            server.call("evaluateFlag", ["flagKey": .string(key), "context": context, "explain": true])["explain"]
        }
        #expect(
            explain("checkout", ["targetingKey": "ada", "tier": "gold"])
                == ["rule": "/flags/checkout/targeting", "why": #"the targeting chose variant "new""#, "listed": true])
        #expect(explain("checkout")?["why"] == #"the targeting gave null: the default variant "old""#)
        #expect(explain("plain")?["why"] == #"no targeting: the default variant "on""#)
        #expect(explain("off")?["why"] == "the flag's state is DISABLED: no variant")
        #expect(explain("limit")?["listed"] == false)
        #expect(explain("limit")?["why"]?.stringValue?.contains("not in the featureFlags channel") == true)
        #expect(explain("nothing")?["why"]?.stringValue?.hasPrefix("FLAG_NOT_FOUND") == true)
        let plain = server.call("evaluateFlag", ["flagKey": "plain", "context": ["targetingKey": "ada"]])
        #expect(plain["explain"] == nil, "only when asked")
    }

    @Test func getSnapshotSaysWhyEachBannerIsInOrOut() {
        let server = InProcessServer(definitions: Self.document)
        server.request("subscribe", params: ["channel": "banners"])
        server.request("changeUser", params: ["userId": "ada", "attributes": ["tier": "gold"]])
        let explained =
            server.call("getSnapshot", ["channel": "banners", "explain": true])["explain"]?.arrayValue ?? []
        #expect(explained.map { $0["outcome"] } == ["SHOWN", "OUTRANKED", "NOT_STARTED"])
        #expect(explained.map { $0["in"] } == [true, false, false])
        #expect(
            explained[1]["why"]?.stringValue?.contains(#"banner "top" (priority 9) fills placement "home""#) == true)
        server.request("setUserAttributes", params: ["attributes": ["tier": "silver"]])
        let stale = server.call("getSnapshot", ["channel": "banners", "explain": true])["explain"]?.arrayValue ?? []
        #expect(stale.first?["outcome"] == "NOT_TARGETED")
        #expect(stale.first?["in"] == true, "the snapshot is the last refresh's")
        #expect(stale.first?["why"]?.stringValue?.contains("the next refresh takes it out") == true)
    }

    @Test func getSnapshotSaysWhyEachCardIsInOrOut() {
        let server = InProcessServer(definitions: Self.document)
        server.request("subscribe", params: ["channel": "contentCards"])
        server.request("changeUser", params: ["userId": "ada"])
        server.request("logDismiss", params: ["channel": "contentCards", "id": "welcome"])
        let snapshot = server.call("getSnapshot", ["channel": "contentCards", "explain": true])
        let explained = snapshot["explain"]?.arrayValue ?? []
        #expect(explained.map { $0["outcome"] } == ["DISMISSED", "EXPIRED", "CONTROL", "INVALID"])
        #expect(explained.map { $0["in"] } == [false, false, true, false])
        #expect(explained.last?["pointer"] == "/contentCards/3")
        #expect(explained.last?["why"]?.stringValue?.contains("unknown property") == true)
        #expect(snapshot["contentCards"]?["cards"]?.arrayValue?.count == 1, "the snapshot itself unchanged")
        #expect(server.call("getSnapshot", ["channel": "contentCards"])["explain"] == nil)
    }

    @Test func getSnapshotOfFlagsListsEachFlag() {
        let server = InProcessServer(definitions: Self.document)
        server.request("subscribe", params: ["channel": "featureFlags"])
        server.request("changeUser", params: ["userId": "ada"])
        let explained =
            server.call("getSnapshot", ["channel": "featureFlags", "explain": true])["explain"]?.arrayValue ?? []
        #expect(explained.compactMap { $0["id"]?.stringValue } == ["checkout", "plain", "off", "limit"])
        #expect(explained.map { $0["in"] } == [true, true, false, false])
        #expect(explained.map { $0["outcome"] } == ["DEFAULT", "STATIC", "DISABLED", "STATIC"])
    }
}
