import BuntingCore
import BuntingJSON
import BuntingJSONRPC
import Testing

/// Definitions of the event flows: a flag for gold users, a banner, two cards.
func channelDefinitions(cardTitle: String = "Welcome", bannersEnabled: Bool = true) -> String {
    """
    {
      "channels": {"banners": \(bannersEnabled)},
      "flags": {
        "checkout": {"state": "ENABLED", "variants": {"new": {"enabled": true, "properties": {"color": {"type": "string", "value": "green"}}}, "old": {"enabled": false}},
                     "defaultVariant": "old", "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "new", "old"]}}
      },
      "banners": [{"id": "spring", "placementId": "home", "html": "<p>Spring</p>", "priority": 1, "properties": {}}],
      "contentCards": [
        {"id": "welcome", "type": "classic", "title": "\(cardTitle)", "extras": {}, "created": 1700000000},
        {"id": "terms", "type": "classic", "title": "Terms", "extras": {}, "created": 1600000000, "dismissible": false}
      ]
    }
    """
}

/// The event flows of the README, over the server as `bunting serve`
/// assembles it. (A definitions file edited, broken and removed under a
/// running process stays end-to-end, for the file source.)
@Suite struct ChannelEventTests {
    /// The common flows of the README, in both framings.
    @Test(arguments: Framing.allCases)
    func subscribeChangeUserRefreshLogFlushAndDismiss(framing: Framing) throws {
        let server = InProcessServer(definitions: channelDefinitions(), framing: framing)
        // subscribe: the reply, then CACHE_REPLAY (reading the definitions at start is not a sync).
        let subscribed = server.request("subscribe", params: ["channel": "contentCards"], id: 1)
        let subscription = try #require(subscribed["result"]?["subscriptionId"]?.stringValue)
        let replay = try #require(server.message { isEvent($0, "CACHE_REPLAY") })
        #expect(server.received.firstIndex { $0["id"] == 1 }! < replay.index)
        #expect(replay.message["params"]?["subscriptionId"] == .string(subscription))
        #expect(replay.message["params"]?["cacheSnapshot"]?["lastSyncAt"] == 0)

        // changeUser: CACHE_LOAD for the new user, then the session's refresh.
        server.request("changeUser", params: ["userId": "alice", "attributes": ["tier": "gold"]], id: 2)
        let load = try #require(server.message(from: replay.index + 1) { isEvent($0, "CACHE_LOAD") })
        #expect(snapshotIds(load.message).isEmpty)
        let updated = try #require(server.message(from: load.index) { isEvent($0, "DATA_UPDATED") })
        #expect(updated.message["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        #expect(snapshotIds(updated.message) == ["welcome", "terms"])
        #expect((updated.message["params"]?["cacheSnapshot"]?["lastSyncAt"]?.doubleValue ?? 0) > 1_700_000_000)

        // A manual refresh reports MANUAL_SERVER_REFRESH even without change.
        server.request("refresh", params: ["channel": "contentCards"], id: 3)
        let manual = try #require(
            server.message(from: updated.index + 1) {
                isEvent($0, "DATA_UPDATED") && $0["params"]?["reason"] == "MANUAL_SERVER_REFRESH"
            })

        // logImpression: ENQUEUED after the reply; flush answers, then FLUSHED.
        let impression = server.request("logImpression", params: ["channel": "contentCards", "id": "welcome"], id: 4)
        #expect(impression["result"] == .object([:]))
        let enqueued = try #require(server.message(from: manual.index + 1) { isEvent($0, "IMPRESSION") })
        #expect(enqueued.message["params"]?["action"] == "ENQUEUED")
        #expect(enqueued.message["params"]?["card"]?["viewed"] == true)
        let flushed = server.request("flush", id: 5)
        #expect(flushed["result"] == .object(["flushed": 1, "pending": 0]))
        let flushedEvent = try #require(
            server.message(from: enqueued.index + 1) {
                isEvent($0, "IMPRESSION") && $0["params"]?["action"] == "FLUSHED"
            })
        #expect(server.received.firstIndex { $0["id"] == 5 }! < flushedEvent.index)
        let lines = server.sink.lines
        #expect(lines.count == 1)
        #expect(
            lines.first?["kind"] == "impression" && lines.first?["itemId"] == "welcome"
                && lines.first?["userId"] == "alice")

        // logDismiss: DISMISS/ENQUEUED, then DATA_UPDATED/CLIENT_ACTION without the card.
        server.request("logDismiss", params: ["channel": "contentCards", "id": "welcome"], id: 6)
        let dismissed = try #require(server.message(from: flushedEvent.index + 1) { isEvent($0, "DISMISS") })
        let afterDismiss = try #require(server.message(from: dismissed.index + 1) { isEvent($0, "DATA_UPDATED") })
        #expect(afterDismiss.message["params"]?["reason"] == "CLIENT_ACTION")
        #expect(snapshotIds(afterDismiss.message) == ["terms"])

        // Reads answer from the cache.
        let snapshot = server.request("getSnapshot", params: ["channel": "contentCards"], id: 7)
        #expect(snapshot["result"]?["contentCards"]?["unviewedCount"] == 1)
        server.closeInput()
        #expect(server.exitStatus == 0)
        server.expectCleanProtocol()
    }

    /// A dismissed banner leaves its placement empty until a refresh, which
    /// fills it with the next eligible banner.
    @Test func aRefreshFillsADismissedBannersPlacementWithTheNextOne() throws {
        let server = InProcessServer(
            definitions: """
                {"banners": [
                  {"id": "spring", "placementId": "home", "html": "<p>Spring</p>", "priority": 5, "properties": {}},
                  {"id": "always", "placementId": "home", "html": "<p>Always</p>", "priority": 1, "properties": {}}
                ]}
                """)
        server.request("subscribe", params: ["channel": "banners"], id: 1)
        server.request("changeUser", params: ["userId": "ada"], id: 2)
        #expect(server.request("getBanner", params: ["placementId": "home"], id: 3)["result"]?["id"] == "spring")
        server.request("logDismiss", params: ["channel": "banners", "id": "home"], id: 4)
        #expect(server.request("getBanner", params: ["placementId": "home"], id: 5)["result"] == .null)
        let replied = server.request("refresh", params: ["channel": "banners"], id: 6)
        #expect(replied["result"] == .object([:]))
        let refreshed = try #require(
            server.message {
                isEvent($0, "DATA_UPDATED") && $0["params"]?["reason"] == "MANUAL_SERVER_REFRESH"
            })
        #expect(refreshed.message["params"]?["cacheSnapshot"]?["banners"]?["home"]?["id"] == "always")
        #expect(server.request("getBanner", params: ["placementId": "home"], id: 7)["result"]?["id"] == "always")
        server.closeInput()
        #expect(server.exitStatus == 0)
    }

    @Test func aChannelTurnedOffInTheDefinitionsIsDisabledAndComesBack() throws {
        let server = InProcessServer(definitions: channelDefinitions(bannersEnabled: false)) { $0.pollInterval = 1 }
        server.request("subscribe", params: ["channel": "banners"], id: 1)
        let disabled = try #require(server.message { isEvent($0, "ERROR") })
        #expect(disabled.message["params"]?["reason"] == "FEATURE_DISABLED")
        #expect(server.request("getSnapshot", params: ["channel": "banners"], id: 2)["result"]?["lastSyncAt"] == .null)
        server.source.setDocument(channelDefinitions(bannersEnabled: true))
        let back = try #require(server.advance(from: disabled.index + 1) { isEvent($0, "DATA_UPDATED") })
        #expect(snapshotIds(back.message) == ["home"])
        server.closeInput()
        #expect(server.exitStatus == 0)
    }

    @Test func manualRefreshesAreRateLimited() throws {
        // As `--refresh-rate-limit 1/1000` sets them.
        let server = InProcessServer(definitions: channelDefinitions()) { configuration in
            for channel in Channel.allCases {
                let perSession = TokenBucket.defaultRules[channel]?.refillsPerSession ?? false
                configuration.refreshRules[channel] = TokenBucket.Rule(
                    capacity: 1, refillInterval: 1000, refillsPerSession: perSession)
            }
        }
        server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        server.request("refresh", params: ["channel": "featureFlags"], id: 2)
        server.request("refresh", params: ["channel": "featureFlags"], id: 3)
        let limited = try #require(server.message { isEvent($0, "ERROR") })
        #expect(limited.message["params"]?["reason"] == "RATE_LIMITED")
        #expect(limited.message["params"]?["retryState"] == "INTEGRATOR_MAY_RETRY")
        #expect((limited.message["params"]?["rateLimitedUntil"]?.doubleValue ?? 0) > 1_700_000_000)
        server.closeInput()
        #expect(server.exitStatus == 0)
    }

    @Test func whileDisabledTheSDKRefusesAndComesBackWhenEnabled() throws {
        let server = InProcessServer(definitions: channelDefinitions())
        server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        server.request("disableSDK", id: 2)
        #expect(server.request("subscribe", params: ["channel": "featureFlags"], id: 3)["result"] == .null)
        let refused = server.request("logImpression", params: ["channel": "featureFlags", "id": "checkout"], id: 4)
        #expect(refused["error"]?["code"] == -32004)
        #expect(refused["error"]?["data"]?["method"] == "logImpression")
        server.request("refresh", params: ["channel": "featureFlags"], id: 5)
        let error = try #require(server.message { isEvent($0, "ERROR") })
        #expect(error.message["params"]?["reason"] == "SDK_DISABLED")
        server.request("enableSDK", id: 6)
        let back = try #require(server.message(from: error.index + 1) { isEvent($0, "DATA_UPDATED") })
        #expect(back.message["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        server.closeInput()
        #expect(server.exitStatus == 0)
    }

    /// Bad input gets a JSON-RPC error with data.reason, and changes nothing.
    @Test func badRequestsAreRefusedWithAReason() throws {
        let server = InProcessServer(definitions: channelDefinitions())
        server.request("subscribe", params: ["channel": "contentCards"], id: 0)
        server.request("changeUser", params: ["userId": "bob"], id: 1)
        try #require(server.message { isEvent($0, "DATA_UPDATED") } != nil, "cards refreshed")
        let cases: [(String, JSON, Int64, String)] = [
            ("subscribe", ["channel": "news"], -32602, "INVALID_PARAMS"),
            ("logImpression", ["channel": "contentCards", "ids": ["welcome", "nope"]], -32002, "NOT_FOUND"),
            ("logClick", ["channel": "featureFlags", "id": "checkout"], -32602, "INVALID_PARAMS"),
            ("logDismiss", ["channel": "contentCards", "id": "terms"], -32003, "NOT_ALLOWED"),
            ("logDismiss", ["channel": "contentCards", "id": 5], -32602, "INVALID_PARAMS"),
            (
                "logImpression", ["channel": "contentCards", "id": "welcome", "ids": ["welcome"]], -32602,
                "INVALID_PARAMS"
            ),
            (
                "refresh", ["channel": "banners", "placementIds": .array((0..<11).map { .string("p\($0)") })], -32602,
                "INVALID_PARAMS"
            ),
            ("changeUser", ["userId": ""], -32602, "INVALID_PARAMS"),
            ("setUserAttributes", ["attributes": ["targetingKey": "x"]], -32602, "INVALID_PARAMS"),
            ("evaluate", ["rule": ["bogus": [1]]], -32005, "INVALID_RULE"),
        ]
        for (index, (method, params, code, reason)) in cases.enumerated() {
            let reply = server.request(method, params: params, id: .integer(Int64(100 + index)))
            #expect(reply["error"]?["code"]?.integerValue == code, "\(method) \(params.encodedString())")
            #expect(reply["error"]?["data"]?["reason"]?.stringValue == reason, "\(method) \(params.encodedString())")
        }
        let flushed = server.request("flush", id: 200)
        #expect(flushed["result"] == .object(["flushed": 0, "pending": 0]))
        #expect(server.sink.lines.isEmpty)
        server.closeInput()
        #expect(server.exitStatus == 0)
    }

    /// Every method of the OpenRPC document answers something other than NOT_IMPLEMENTED.
    @Test func everyDocumentedMethodIsImplemented() throws {
        let server = InProcessServer(definitions: InProcessServer.bundledExample)
        let document = server.request("rpc.discover", id: 1)
        let methods = try #require(document["result"]?["methods"]?.arrayValue)
        for (index, method) in methods.enumerated() {
            let name = try #require(method["name"]?.stringValue)
            guard name != "shutdown" else { continue }
            #expect(method["x-implemented"] == true)
            let reply = server.request(name, params: [:], id: .integer(Int64(10 + index)))
            #expect(reply["error"]?["data"]?["reason"] != "NOT_IMPLEMENTED", "\(name)")
        }
        server.request("shutdown", id: 999)
        #expect(server.exitStatus == 0)
    }
}
