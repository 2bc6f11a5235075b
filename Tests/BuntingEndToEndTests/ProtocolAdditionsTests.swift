import BuntingJSON
import Foundation
import Testing

/// The methods and events this version adds, through the built binary.
@Suite struct ProtocolAdditionsTests {
    static let document = """
        {
          "metadata": {"owner": "growth"},
          "channels": {"banners": false},
          "flags": {
            "banner-copy": {"state": "ENABLED", "variants": {"a": "Hello", "b": "Hi"}, "defaultVariant": "a", "metadata": {"version": 3}},
            "limit": {"state": "ENABLED", "variants": {"low": 5, "high": 50}, "defaultVariant": "low",
                      "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "high", null]}},
            "broken": {"state": "ON", "variants": {"on": true}, "defaultVariant": "on"}
          },
          "contentCards": [
            {"id": "a", "type": "classic", "title": "A", "extras": {"feed": "inbox"}, "created": 3},
            {"id": "b", "type": "classic", "title": "B", "extras": {"feed": "promo"}, "created": 2}
          ]
        }
        """

    @Test func typedEvaluationMetadataAndBulk() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.document)
        let server = try ServerProcess(framing: .ndjson, arguments: ["--definitions", workspace.definitions.path])
        let typed = try server.request(
            "evaluateFlag", params: ["flagKey": "limit", "context": ["tier": "gold"], "type": "integer"])
        #expect(
            typed["result"] == [
                "value": 50, "variant": "high", "reason": "TARGETING_MATCH", "metadata": ["owner": "growth"],
            ])
        let mismatch = try server.request(
            "evaluateFlag", params: ["flagKey": "banner-copy", "context": [:], "type": "boolean"], id: 2)
        #expect(mismatch["result"]?["errorCode"] == "TYPE_MISMATCH" && mismatch["result"]?["value"] == .null)
        let broken = try server.request("evaluateFlag", params: ["flagKey": "broken", "context": [:]], id: 3)
        #expect(broken["result"]?["errorCode"] == "PARSE_ERROR")
        let bulk = try server.request("evaluateFlags", params: ["context": ["targetingKey": "u"]], id: 4)
        #expect(bulk["result"]?["flags"]?.objectValue?.keys.sorted() == ["banner-copy", "broken", "limit"])
        #expect(bulk["result"]?["flags"]?["banner-copy"]?["metadata"] == ["owner": "growth", "version": 3])
        #expect(bulk["result"]?["metadata"] == ["owner": "growth"])
        let status = try server.request("status", id: 5)
        #expect(status["result"]?["definitions"]?["problems"]?.arrayValue?.first?["pointer"] == "/flags/broken/state")
        #expect(server.waitForStderr { $0.contains("loaded with") }, "the problem is logged")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    @Test func readsSayWhyTheyFindNothingAndFeedsChooseCards() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.document)
        let server = try ServerProcess(framing: .ndjson, arguments: ["--definitions", workspace.definitions.path])
        let early = try server.request("getFeatureFlag", params: ["id": "x"])
        #expect(early["error"]?["code"] == -32008 && early["error"]?["data"]?["reason"] == "NOT_SYNCED")
        let off = try server.request("getBanner", params: ["placementId": "home"], id: 2)
        #expect(off["error"]?["code"] == -32009 && off["error"]?["data"]?["channel"] == "banners")
        _ = try server.request("subscribe", params: ["channel": "contentCards", "extras": ["feed": "inbox"]], id: 3)
        _ = try server.request("changeUser", params: ["userId": "ada"], id: 4)
        let feed = try server.waitForMessage("the feed's DATA_UPDATED") { isEvent($0, "DATA_UPDATED") }
        #expect(snapshotIds(feed.message) == ["a"])
        let promo = try server.request(
            "getSnapshot", params: ["channel": "contentCards", "extras": ["feed": "promo"]], id: 5)
        #expect(promo["result"]?["contentCards"]?["cards"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["b"])
        #expect(promo["result"]?["contentCards"]?["unviewedCount"] == 1)
        let wrong = try server.request("getSnapshot", params: ["channel": "featureFlags", "extras": [:]], id: 6)
        #expect(wrong["error"]?["code"] == -32602)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    @Test func aTrackedEventReachesTheSinkOnce() throws {
        let workspace = try Workspace()
        let server = try ServerProcess(framing: .lsp, arguments: ["--sink", workspace.sink.path])
        _ = try server.request("subscribe", params: ["channel": "featureFlags"])
        let tracked = try server.request(
            "track", params: ["name": "purchase", "value": 9.5, "details": ["sku": "x1"]], id: 2)
        let eventId = try #require(tracked["result"]?["eventId"]?.stringValue)
        let enqueued = try server.waitForMessage("CUSTOM ENQUEUED") { isEvent($0, "CUSTOM") }
        #expect(enqueued.message["params"]?["eventId"] == .string(eventId))
        #expect(enqueued.message["params"]?["event"] == ["name": "purchase", "value": 9.5, "details": ["sku": "x1"]])
        #expect(try server.request("flush", id: 3)["result"] == ["flushed": 1, "pending": 0])
        _ = try server.waitForMessage(from: enqueued.index + 1, "CUSTOM FLUSHED") { isEvent($0, "CUSTOM") }
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        let lines = try workspace.sinkLines()
        #expect(lines.count == 1)
        #expect(
            lines.first?["eventId"] == .string(eventId) && lines.first?["kind"] == "custom"
                && lines.first?["name"] == "purchase")
        #expect(lines.first?["value"] == 9.5 && lines.first?["details"] == ["sku": "x1"])
    }

    @Test func trackedEventsKeepTheUserTheyName() throws {
        let workspace = try Workspace()
        let server = try ServerProcess(framing: .ndjson, arguments: ["--sink", workspace.sink.path])
        _ = try server.request("changeUser", params: ["userId": "ada"])
        // Three targeting keys, interleaved, none of them switching the current user.
        let calls: [(user: String, tier: String)] = [
            ("grace", "gold"), ("linus", "free"), ("ada", "gold"), ("grace", "silver"), ("linus", "gold"),
        ]
        var expected: [String: (user: String, tier: String)] = [:]
        for (index, call) in calls.enumerated() {
            let tracked = try server.request(
                "track",
                params: ["name": "checkout", "userId": .string(call.user), "attributes": ["tier": .string(call.tier)]],
                id: .int(index + 2))
            expected[try #require(tracked["result"]?["eventId"]?.stringValue)] = call
        }
        let refused = try server.request(
            "track", params: ["name": "checkout", "attributes": ["targetingKey": "x"]], id: 20)
        #expect(refused["error"]?["data"]?["field"] == "attributes")
        #expect(try server.request("status", id: 21)["result"]?["userId"] == "ada", "the current user stays")
        #expect(try server.request("flush", id: 22)["result"] == ["flushed": 5, "pending": 0])
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        let lines = try workspace.sinkLines()
        #expect(lines.count == calls.count)
        for line in lines {
            let call = try #require(expected[line["eventId"]?.stringValue ?? ""])
            #expect(line["userId"] == .string(call.user) && line["attributes"] == ["tier": .string(call.tier)])
            #expect(
                (line["sessionId"] != nil) == (call.user == "ada"),
                "only the current user's events carry its session")
        }
    }

    @Test func aDefinitionsSubscriptionHearsReadyThenTheChangedFlags() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(Self.document)
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions.path, "--poll-interval", "0.02"])
        let reply = try server.request("subscribeToDefinitions")
        #expect(reply["result"]?["subscriptionId"] == "sub-1")
        let ready = try server.waitForMessage("READY") { $0["method"] == "definitions" }
        #expect(ready.message["params"]?["type"] == "READY" && ready.message["params"]?["loadedAt"]?.isNumber == true)
        try workspace.writeDefinitions(Self.document.replacingOccurrences(of: #""high": 50"#, with: #""high": 500"#))
        let changed = try server.waitForMessage(from: ready.index + 1, "CHANGED") { $0["method"] == "definitions" }
        #expect(
            changed.message["params"]?["type"] == "CHANGED" && changed.message["params"]?["flagsChanged"] == ["limit"])
        try FileManager.default.removeItem(at: workspace.definitions)
        let stale = try server.waitForMessage(from: changed.index + 1, "ERROR") { $0["method"] == "definitions" }
        #expect(stale.message["params"]?["type"] == "ERROR" && stale.message["params"]?["stale"] == true)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }
}
