import BuntingJSON
import Foundation
import Testing

/// A definitions file and a sink file in a fresh directory of their own.
final class Workspace {
    let directory: URL
    var definitions: URL { directory.appendingPathComponent("definitions.json") }
    var sink: URL { directory.appendingPathComponent("events.ndjson") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bunting-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Replaces the definitions file at once (write aside, then rename), as editors do.
    func writeDefinitions(_ text: String) throws {
        let temporary = directory.appendingPathComponent("definitions.tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, definitions.path) == 0 else {
            throw HarnessError(description: "cannot rename \(temporary.path): errno \(errno)")
        }
    }

    func sinkLines() throws -> [JSON] {
        guard let data = try? Data(contentsOf: sink) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSON.parse(String($0)) }
    }
}

/// Definitions for the end-to-end tests: a flag for gold users, a banner, two cards.
func e2eDefinitions(cardTitle: String = "Welcome", bannersEnabled: Bool = true) -> String {
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

/// The ids of the items in an event's snapshot.
func snapshotIds(_ event: JSON) -> [String] {
    let channel = event["params"]?["channel"]?.stringValue ?? ""
    let data = event["params"]?["cacheSnapshot"]?[channel]
    if let cards = data?["cards"]?.arrayValue { return cards.compactMap { $0["id"]?.stringValue } }
    if let flags = data?.arrayValue { return flags.compactMap { $0["id"]?.stringValue } }
    return data?.objectValue?.keys.sorted() ?? []
}

func isEvent(_ message: JSON, _ type: String, _ channel: String? = nil) -> Bool {
    message["method"] == "event" && message["params"]?["type"]?.stringValue == type
        && (channel == nil || message["params"]?["channel"]?.stringValue == channel)
}

@Suite struct ChannelEventTests {
    /// The common flows of the README, over real pipes, in both framings.
    @Test(arguments: ServerProcess.WireFraming.allCases)
    func subscribeChangeUserRefreshLogFlushAndDismiss(framing: ServerProcess.WireFraming) throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions())
        let server = try ServerProcess(
            framing: framing,
            arguments: [
                "--definitions", workspace.definitions.path, "--sink", workspace.sink.path, "--storage", ":memory:",
            ])
        // subscribe: the reply, then CACHE_REPLAY (reading the definitions at start is not a sync).
        let subscribed = try server.request("subscribe", params: ["channel": "contentCards"], id: 1)
        let subscription = try #require(subscribed["result"]?["subscriptionId"]?.stringValue)
        let replay = try server.waitForMessage("CACHE_REPLAY") { isEvent($0, "CACHE_REPLAY") }
        #expect(server.received.firstIndex { $0["id"] == 1 }! < replay.index)
        #expect(replay.message["params"]?["subscriptionId"] == .string(subscription))
        #expect(replay.message["params"]?["cacheSnapshot"]?["lastSyncAt"] == 0)

        // changeUser: CACHE_LOAD for the new user, then the session's refresh.
        _ = try server.request("changeUser", params: ["userId": "alice", "attributes": ["tier": "gold"]], id: 2)
        let load = try server.waitForMessage(from: replay.index + 1, "CACHE_LOAD") { isEvent($0, "CACHE_LOAD") }
        #expect(snapshotIds(load.message).isEmpty)
        let updated = try server.waitForMessage(from: load.index, "DATA_UPDATED") { isEvent($0, "DATA_UPDATED") }
        #expect(updated.message["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        #expect(snapshotIds(updated.message) == ["welcome", "terms"])
        #expect((updated.message["params"]?["cacheSnapshot"]?["lastSyncAt"]?.doubleValue ?? 0) > 1_700_000_000)

        // A manual refresh reports MANUAL_SERVER_REFRESH even without change.
        _ = try server.request("refresh", params: ["channel": "contentCards"], id: 3)
        let manual = try server.waitForMessage(from: updated.index + 1, "manual DATA_UPDATED") {
            isEvent($0, "DATA_UPDATED") && $0["params"]?["reason"] == "MANUAL_SERVER_REFRESH"
        }

        // logImpression: ENQUEUED after the reply; flush answers, then FLUSHED.
        let impression = try server.request(
            "logImpression", params: ["channel": "contentCards", "id": "welcome"], id: 4)
        #expect(impression["result"] == .object([:]))
        let enqueued = try server.waitForMessage(from: manual.index + 1, "ENQUEUED") { isEvent($0, "IMPRESSION") }
        #expect(enqueued.message["params"]?["action"] == "ENQUEUED")
        #expect(enqueued.message["params"]?["card"]?["viewed"] == true)
        let flushed = try server.request("flush", id: 5)
        #expect(flushed["result"] == .object(["flushed": 1, "pending": 0]))
        let flushedEvent = try server.waitForMessage(from: enqueued.index + 1, "FLUSHED") {
            isEvent($0, "IMPRESSION") && $0["params"]?["action"] == "FLUSHED"
        }
        #expect(server.received.firstIndex { $0["id"] == 5 }! < flushedEvent.index)
        let lines = try workspace.sinkLines()
        #expect(lines.count == 1)
        #expect(
            lines.first?["kind"] == "impression" && lines.first?["itemId"] == "welcome"
                && lines.first?["userId"] == "alice")

        // logDismiss: DISMISS/ENQUEUED, then DATA_UPDATED/CLIENT_ACTION without the card.
        _ = try server.request("logDismiss", params: ["channel": "contentCards", "id": "welcome"], id: 6)
        let dismissed = try server.waitForMessage(from: flushedEvent.index + 1, "DISMISS") { isEvent($0, "DISMISS") }
        let afterDismiss = try server.waitForMessage(from: dismissed.index + 1, "CLIENT_ACTION") {
            isEvent($0, "DATA_UPDATED")
        }
        #expect(afterDismiss.message["params"]?["reason"] == "CLIENT_ACTION")
        #expect(snapshotIds(afterDismiss.message) == ["terms"])

        // Reads answer from the cache.
        let snapshot = try server.request("getSnapshot", params: ["channel": "contentCards"], id: 7)
        #expect(snapshot["result"]?["contentCards"]?["unviewedCount"] == 1)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        server.expectCleanProtocol()
    }

    /// A dismissed banner leaves its placement empty until a refresh, which
    /// fills it with the next eligible banner.
    @Test func aRefreshFillsADismissedBannersPlacementWithTheNextOne() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(
            """
            {"banners": [
              {"id": "spring", "placementId": "home", "html": "<p>Spring</p>", "priority": 5, "properties": {}},
              {"id": "always", "placementId": "home", "html": "<p>Always</p>", "priority": 1, "properties": {}}
            ]}
            """)
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions.path, "--storage", ":memory:"])
        _ = try server.request("subscribe", params: ["channel": "banners"], id: 1)
        _ = try server.request("changeUser", params: ["userId": "ada"], id: 2)
        #expect(try server.request("getBanner", params: ["placementId": "home"], id: 3)["result"]?["id"] == "spring")
        _ = try server.request("logDismiss", params: ["channel": "banners", "id": "home"], id: 4)
        #expect(try server.request("getBanner", params: ["placementId": "home"], id: 5)["result"] == .null)
        let replied = try server.request("refresh", params: ["channel": "banners"], id: 6)
        #expect(replied["result"] == .object([:]))
        let refreshed = try server.waitForMessage("manual refresh") {
            isEvent($0, "DATA_UPDATED") && $0["params"]?["reason"] == "MANUAL_SERVER_REFRESH"
        }
        #expect(refreshed.message["params"]?["cacheSnapshot"]?["banners"]?["home"]?["id"] == "always")
        #expect(try server.request("getBanner", params: ["placementId": "home"], id: 7)["result"]?["id"] == "always")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    @Test(arguments: ServerProcess.WireFraming.allCases)
    func editingTheFileRefreshesAndBreakingItKeepsTheCache(framing: ServerProcess.WireFraming) throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions())
        let server = try ServerProcess(
            framing: framing,
            arguments: [
                "--definitions", workspace.definitions.path, "--poll-interval", "0.02",
                "--retry-initial-delay", "0.01", "--retry-max-attempts", "2",
            ])
        _ = try server.request("subscribe", params: ["channel": "contentCards"], id: 1)
        _ = try server.request("openSession", id: 2)
        let first = try server.waitForMessage("first DATA_UPDATED") { isEvent($0, "DATA_UPDATED") }

        try workspace.writeDefinitions(e2eDefinitions(cardTitle: "Hello again"))
        let edited = try server.waitForMessage(from: first.index + 1, "DATA_UPDATED after the edit") {
            isEvent($0, "DATA_UPDATED")
        }
        #expect(edited.message["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        #expect(edited.message["params"]?["cacheSnapshot"]?["contentCards"]?["cards"]?[0]?["title"] == "Hello again")

        // A document whose structure is wrong is refused as a whole (a broken
        // flag or card would not be: the others would serve).
        try workspace.writeDefinitions("{\"contentCards\": \"not a list\"}")
        let invalid = try server.waitForMessage(from: edited.index + 1, "INVALID_SERVER_DATA") { isEvent($0, "ERROR") }
        #expect(invalid.message["params"]?["reason"] == "INVALID_SERVER_DATA")
        #expect(invalid.message["params"]?["retryState"] == "DO_NOT_RETRY")
        #expect(invalid.message["params"]?["message"]?.stringValue?.contains("/contentCards") == true)
        let kept = try server.request("getSnapshot", params: ["channel": "contentCards"], id: 3)
        #expect(kept["result"]?["contentCards"]?["cards"]?[0]?["title"] == "Hello again")

        try FileManager.default.removeItem(at: workspace.definitions)
        let unreadable = try server.waitForMessage(from: invalid.index + 1, "SERVER_ERROR") {
            isEvent($0, "ERROR") && $0["params"]?["reason"] == "SERVER_ERROR"
        }
        #expect(unreadable.message["params"]?["retryState"] == "SDK_WILL_RETRY")
        let gaveUp = try server.waitForMessage(from: unreadable.index + 1, "INTEGRATOR_MAY_RETRY") {
            isEvent($0, "ERROR") && $0["params"]?["retryState"] == "INTEGRATOR_MAY_RETRY"
        }
        let retries = server.received[unreadable.index...gaveUp.index].filter { isEvent($0, "ERROR") }
        #expect(
            retries.map { $0["params"]?["retryState"]?.stringValue } == [
                "SDK_WILL_RETRY", "SDK_WILL_RETRY", "INTEGRATOR_MAY_RETRY",
            ])

        try workspace.writeDefinitions(e2eDefinitions(cardTitle: "Back"))
        let restored = try server.waitForMessage(from: gaveUp.index + 1, "DATA_UPDATED after restoring") {
            isEvent($0, "DATA_UPDATED")
        }
        #expect(restored.message["params"]?["cacheSnapshot"]?["contentCards"]?["cards"]?[0]?["title"] == "Back")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
        server.expectCleanProtocol()
    }

    @Test func aChannelTurnedOffInTheFileIsDisabledAndComesBack() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions(bannersEnabled: false))
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions.path, "--poll-interval", "0.02"])
        _ = try server.request("subscribe", params: ["channel": "banners"], id: 1)
        let disabled = try server.waitForMessage("FEATURE_DISABLED") { isEvent($0, "ERROR") }
        #expect(disabled.message["params"]?["reason"] == "FEATURE_DISABLED")
        #expect(
            try server.request("getSnapshot", params: ["channel": "banners"], id: 2)["result"]?["lastSyncAt"] == .null)
        try workspace.writeDefinitions(e2eDefinitions(bannersEnabled: true))
        let back = try server.waitForMessage(from: disabled.index + 1, "DATA_UPDATED") { isEvent($0, "DATA_UPDATED") }
        #expect(snapshotIds(back.message) == ["home"])
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    @Test func manualRefreshesAreRateLimited() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions())
        let server = try ServerProcess(
            framing: .ndjson,
            arguments: ["--definitions", workspace.definitions.path, "--refresh-rate-limit", "1/1000"])
        _ = try server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        _ = try server.request("refresh", params: ["channel": "featureFlags"], id: 2)
        _ = try server.request("refresh", params: ["channel": "featureFlags"], id: 3)
        let limited = try server.waitForMessage("RATE_LIMITED") { isEvent($0, "ERROR") }
        #expect(limited.message["params"]?["reason"] == "RATE_LIMITED")
        #expect(limited.message["params"]?["retryState"] == "INTEGRATOR_MAY_RETRY")
        #expect((limited.message["params"]?["rateLimitedUntil"]?.doubleValue ?? 0) > 1_700_000_000)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    @Test func whileDisabledTheSDKRefusesAndComesBackWhenEnabled() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions())
        let server = try ServerProcess(framing: .ndjson, arguments: ["--definitions", workspace.definitions.path])
        _ = try server.request("subscribe", params: ["channel": "featureFlags"], id: 1)
        _ = try server.request("disableSDK", id: 2)
        #expect(try server.request("subscribe", params: ["channel": "featureFlags"], id: 3)["result"] == .null)
        let refused = try server.request("logImpression", params: ["channel": "featureFlags", "id": "checkout"], id: 4)
        #expect(refused["error"]?["code"] == -32004)
        #expect(refused["error"]?["data"]?["method"] == "logImpression")
        _ = try server.request("refresh", params: ["channel": "featureFlags"], id: 5)
        let error = try server.waitForMessage("SDK_DISABLED") { isEvent($0, "ERROR") }
        #expect(error.message["params"]?["reason"] == "SDK_DISABLED")
        _ = try server.request("enableSDK", id: 6)
        let back = try server.waitForMessage(from: error.index + 1, "DATA_UPDATED") { isEvent($0, "DATA_UPDATED") }
        #expect(back.message["params"]?["reason"] == "AUTO_SERVER_REFRESH")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    /// Bad input gets a JSON-RPC error with data.reason, and changes nothing.
    @Test func badRequestsAreRefusedWithAReason() throws {
        let workspace = try Workspace()
        try workspace.writeDefinitions(e2eDefinitions())
        let server = try ServerProcess(
            framing: .ndjson, arguments: ["--definitions", workspace.definitions.path, "--sink", workspace.sink.path])
        _ = try server.request("subscribe", params: ["channel": "contentCards"], id: 0)
        _ = try server.request("changeUser", params: ["userId": "bob"], id: 1)
        try server.waitForMessage("cards refreshed") { isEvent($0, "DATA_UPDATED") }
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
            let reply = try server.request(method, params: params, id: .integer(Int64(100 + index)))
            #expect(reply["error"]?["code"]?.integerValue == code, "\(method) \(params.encodedString())")
            #expect(reply["error"]?["data"]?["reason"]?.stringValue == reason, "\(method) \(params.encodedString())")
        }
        let flushed = try server.request("flush", id: 200)
        #expect(flushed["result"] == .object(["flushed": 0, "pending": 0]))
        #expect(try workspace.sinkLines().isEmpty)
        try server.closeInput()
        #expect(try server.waitForExit() == 0)
    }

    /// Every method of the OpenRPC document answers something other than NOT_IMPLEMENTED.
    @Test func everyDocumentedMethodIsImplemented() throws {
        let server = try ServerProcess(framing: .ndjson)
        let document = try server.request("rpc.discover", id: 1)
        let methods = try #require(document["result"]?["methods"]?.arrayValue)
        for (index, method) in methods.enumerated() {
            let name = try #require(method["name"]?.stringValue)
            guard name != "shutdown" else { continue }
            #expect(method["x-implemented"] == true)
            let reply = try server.request(name, params: [:], id: .integer(Int64(10 + index)))
            #expect(reply["error"]?["data"]?["reason"] != "NOT_IMPLEMENTED", "\(name)")
        }
        _ = try server.request("shutdown", id: 999)
        #expect(try server.waitForExit() == 0)
    }
}
