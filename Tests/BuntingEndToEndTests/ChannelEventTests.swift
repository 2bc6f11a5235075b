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

/// The event flows of the README that need a real file under a running
/// process: the file source sees an edit, a broken document and a removed
/// file. (The flows themselves are checked in process,
/// `BuntingServerTests.ChannelEventTests`.)
@Suite struct ChannelEventTests {
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
}
