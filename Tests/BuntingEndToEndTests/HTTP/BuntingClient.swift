import BuntingJSON
import Foundation
import Testing

/// A `bunting serve` child for the HTTP tests: requests by name, and its
/// event notifications as short lines such as
/// `ERROR featureFlags SERVER_ERROR SDK_WILL_RETRY`, so that a test compares
/// the exact sequence a failure produced.
final class BuntingClient: @unchecked Sendable {
    let process: ServerProcess
    private var nextId: Int64 = 1

    /// Retries quickly so that a whole failure cycle takes a fraction of a second,
    /// never polls unless asked, and never refuses a manual refresh.
    static let quickRetries = [
        "--retry-initial-delay", "0.02", "--retry-max-delay", "0.1", "--retry-max-attempts", "2",
        "--poll-interval", "3600", "--flush-interval", "3600", "--refresh-rate-limit", "1000/1",
    ]

    /// `arguments` override the matching `quickRetries` (an option may be given once).
    init(_ arguments: [String], environment: [String: String] = BuntingClient.environmentWithoutProxies) throws {
        var defaults: [String] = []
        for index in stride(from: 0, to: Self.quickRetries.count, by: 2)
        where !arguments.contains(Self.quickRetries[index]) {
            defaults += Self.quickRetries[index...(index + 1)]
        }
        process = try ServerProcess(framing: .ndjson, arguments: defaults + arguments, environment: environment)
    }

    /// This environment without proxy settings, so that loopback requests go
    /// straight to the test's server on any machine.
    static var environmentWithoutProxies: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
    }

    /// Sends a request and returns its result; an error reply throws.
    @discardableResult
    func call(_ method: String, _ params: JSONObject? = nil) throws -> JSON {
        let id = JSON.integer(nextId)
        nextId += 1
        let reply = try process.request(method, params: params.map(JSON.object), id: id)
        guard let result = reply["result"] else {
            throw HarnessError(description: "\(method) failed: \(reply.encodedString())")
        }
        return result
    }

    /// The event notifications so far.
    var events: [JSON] { Self.events(in: process.received) }

    static func events(in messages: [JSON]) -> [JSON] {
        messages.filter { $0["method"] == "event" }.compactMap { $0["params"] }
    }

    /// Waits until the events after the first `start` satisfy `done`; returns those events.
    func waitForEvents(after start: Int, _ what: String, until done: @escaping ([JSON]) -> Bool) throws -> [JSON] {
        let messages = try process.waitUntil(what) { done(Array(Self.events(in: $0).dropFirst(start))) }
        return Array(Self.events(in: messages).dropFirst(start))
    }

    /// Waits for the events that follow the first `start` up to and including
    /// the first one `isLast` accepts; returns their summaries.
    func summaries(after start: Int, through isLast: @escaping (String) -> Bool) throws -> [String] {
        let events = try waitForEvents(after: start, "the event that ends the sequence") {
            $0.map(Self.summary).contains(where: isLast)
        }
        let lines = events.map(Self.summary)
        return Array(lines[...lines.firstIndex(where: isLast)!])
    }

    /// `TYPE channel REASON RETRY_STATE`, `TYPE channel REASON` or `TYPE channel ACTION`.
    static func summary(_ event: JSON) -> String {
        let type = event["type"]?.stringValue ?? "?"
        var parts = [type, event["channel"]?.stringValue ?? "?"]
        for key in ["reason", "retryState", "action"] {
            if let value = event[key]?.stringValue { parts.append(value) }
        }
        return parts.joined(separator: " ")
    }

    /// Subscribes to `channel` and waits until it holds the source's document,
    /// then makes `alice` the user, which syncs her: `DATA_UPDATED`.
    /// Before the first fetch arrives a channel reports FEATURE_DISABLED and
    /// then DATA_UPDATED; after it, the subscription gets CACHE_REPLAY.
    func startSynced(_ channel: String = "featureFlags") throws {
        try call("subscribe", ["channel": .string(channel)])
        _ = try waitForEvents(after: 0, "the first document") { events in
            events.contains { $0["type"] == "DATA_UPDATED" || ($0["type"] == "CACHE_REPLAY") }
        }
        let start = events.count
        try call("changeUser", ["userId": "alice"])
        _ = try summaries(after: start) { $0.hasPrefix("DATA_UPDATED") }
    }

    /// The value of the `text` property of flag `greeting`: which document is in use.
    func greeting() throws -> String? {
        try call("getFeatureFlag", ["id": "greeting"])["properties"]?["text"]?["value"]?.stringValue
    }

    func snapshot(_ channel: String = "featureFlags") throws -> JSON {
        try call("getSnapshot", ["channel": .string(channel)])
    }
}

/// A definitions document whose one flag tells which version it is.
func definitions(_ version: String, extraFlags: Int = 0) -> String {
    var flags: JSONObject = [
        "greeting": [
            "state": "ENABLED", "defaultVariant": "on",
            "variants": [
                "on": ["enabled": true, "properties": ["text": ["type": "string", "value": .string(version)]]]
            ],
        ]
    ]
    for index in 0..<extraFlags {
        flags["padding-\(index)"] = [
            "state": "ENABLED", "defaultVariant": "off", "variants": ["on": true, "off": false],
        ]
    }
    let document: JSON = [
        "channels": ["featureFlags": true, "banners": true, "contentCards": true],
        "flags": .object(flags),
    ]
    return document.encodedString()
}
