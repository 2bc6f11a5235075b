import BuntingCore
import BuntingJSON
import BuntingJSONRPC
import Testing

/// The methods and events this version adds, over the server as
/// `bunting serve` assembles it.
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

    @Test func typedEvaluationMetadataAndBulk() {
        LogCapture.during { log in
            let server = InProcessServer(definitions: Self.document)
            let typed = server.request(
                "evaluateFlag", params: ["flagKey": "limit", "context": ["tier": "gold"], "type": "integer"])
            #expect(
                typed["result"] == [
                    "value": 50, "variant": "high", "reason": "TARGETING_MATCH", "metadata": ["owner": "growth"],
                ])
            let mismatch = server.request(
                "evaluateFlag", params: ["flagKey": "banner-copy", "context": [:], "type": "boolean"], id: 2)
            #expect(mismatch["result"]?["errorCode"] == "TYPE_MISMATCH" && mismatch["result"]?["value"] == .null)
            let broken = server.request("evaluateFlag", params: ["flagKey": "broken", "context": [:]], id: 3)
            #expect(broken["result"]?["errorCode"] == "PARSE_ERROR")
            let bulk = server.request("evaluateFlags", params: ["context": ["targetingKey": "u"]], id: 4)
            #expect(bulk["result"]?["flags"]?.objectValue?.keys.sorted() == ["banner-copy", "broken", "limit"])
            #expect(bulk["result"]?["flags"]?["banner-copy"]?["metadata"] == ["owner": "growth", "version": 3])
            #expect(bulk["result"]?["metadata"] == ["owner": "growth"])
            let status = server.request("status", id: 5)
            #expect(
                status["result"]?["definitions"]?["problems"]?.arrayValue?.first?["pointer"] == "/flags/broken/state")
            #expect(log.contains("loaded with"), "the problem is logged")
            server.closeInput()
            #expect(server.exitStatus == 0)
        }
    }

    @Test func readsSayWhyTheyFindNothingAndFeedsChooseCards() throws {
        let server = InProcessServer(definitions: Self.document)
        let early = server.request("getFeatureFlag", params: ["id": "x"])
        #expect(early["error"]?["code"] == -32008 && early["error"]?["data"]?["reason"] == "NOT_SYNCED")
        let off = server.request("getBanner", params: ["placementId": "home"], id: 2)
        #expect(off["error"]?["code"] == -32009 && off["error"]?["data"]?["channel"] == "banners")
        server.request("subscribe", params: ["channel": "contentCards", "extras": ["feed": "inbox"]], id: 3)
        server.request("changeUser", params: ["userId": "ada"], id: 4)
        let feed = try #require(server.message { isEvent($0, "DATA_UPDATED") })
        #expect(snapshotIds(feed.message) == ["a"])
        let promo = server.request(
            "getSnapshot", params: ["channel": "contentCards", "extras": ["feed": "promo"]], id: 5)
        #expect(promo["result"]?["contentCards"]?["cards"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["b"])
        #expect(promo["result"]?["contentCards"]?["unviewedCount"] == 1)
        let wrong = server.request("getSnapshot", params: ["channel": "featureFlags", "extras": [:]], id: 6)
        #expect(wrong["error"]?["code"] == -32602)
        server.closeInput()
        #expect(server.exitStatus == 0)
    }

    @Test func aTrackedEventReachesTheSinkOnce() throws {
        let server = InProcessServer(definitions: InProcessServer.bundledExample, framing: .lsp)
        server.request("subscribe", params: ["channel": "featureFlags"])
        let tracked = server.request(
            "track", params: ["name": "purchase", "value": 9.5, "details": ["sku": "x1"]], id: 2)
        let eventId = try #require(tracked["result"]?["eventId"]?.stringValue)
        let enqueued = try #require(server.message { isEvent($0, "CUSTOM") })
        #expect(enqueued.message["params"]?["eventId"] == .string(eventId))
        #expect(enqueued.message["params"]?["event"] == ["name": "purchase", "value": 9.5, "details": ["sku": "x1"]])
        #expect(server.request("flush", id: 3)["result"] == ["flushed": 1, "pending": 0])
        #expect(server.message(from: enqueued.index + 1) { isEvent($0, "CUSTOM") } != nil, "CUSTOM FLUSHED")
        server.closeInput()
        #expect(server.exitStatus == 0)
        let lines = server.sink.lines
        #expect(lines.count == 1)
        #expect(
            lines.first?["eventId"] == .string(eventId) && lines.first?["kind"] == "custom"
                && lines.first?["name"] == "purchase")
        #expect(lines.first?["value"] == 9.5 && lines.first?["details"] == ["sku": "x1"])
    }

    @Test func trackedEventsKeepTheUserTheyName() throws {
        let server = InProcessServer(definitions: InProcessServer.bundledExample)
        server.request("changeUser", params: ["userId": "ada"])
        // Three targeting keys, interleaved, none of them switching the current user.
        let calls: [(user: String, tier: String)] = [
            ("grace", "gold"), ("linus", "free"), ("ada", "gold"), ("grace", "silver"), ("linus", "gold"),
        ]
        var expected: [String: (user: String, tier: String)] = [:]
        for (index, call) in calls.enumerated() {
            let tracked = server.request(
                "track",
                params: ["name": "checkout", "userId": .string(call.user), "attributes": ["tier": .string(call.tier)]],
                id: .int(index + 2))
            expected[try #require(tracked["result"]?["eventId"]?.stringValue)] = call
        }
        let refused = server.request(
            "track", params: ["name": "checkout", "attributes": ["targetingKey": "x"]], id: 20)
        #expect(refused["error"]?["data"]?["field"] == "attributes")
        #expect(server.request("status", id: 21)["result"]?["userId"] == "ada", "the current user stays")
        #expect(server.request("flush", id: 22)["result"] == ["flushed": 5, "pending": 0])
        server.closeInput()
        #expect(server.exitStatus == 0)
        let lines = server.sink.lines
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
        let server = InProcessServer(definitions: Self.document) { $0.pollInterval = 1 }
        let reply = server.request("subscribeToDefinitions")
        #expect(reply["result"]?["subscriptionId"] == "sub-1")
        let ready = try #require(server.message { $0["method"] == "definitions" })
        #expect(ready.message["params"]?["type"] == "READY" && ready.message["params"]?["loadedAt"]?.isNumber == true)
        server.source.setDocument(Self.document.replacingOccurrences(of: #""high": 50"#, with: #""high": 500"#))
        let changed = try #require(server.advance(from: ready.index + 1) { $0["method"] == "definitions" })
        #expect(
            changed.message["params"]?["type"] == "CHANGED" && changed.message["params"]?["flagsChanged"] == ["limit"])
        // What the file source answers once the file is removed.
        server.source.failUntilReplaced(.serverError("cannot read test://definitions: No such file or directory"))
        let stale = try #require(server.advance(from: changed.index + 1) { $0["method"] == "definitions" })
        #expect(stale.message["params"]?["type"] == "ERROR" && stale.message["params"]?["stale"] == true)
        server.closeInput()
        #expect(server.exitStatus == 0)
    }
}
