import BuntingJSON
import BuntingRuntime
import Foundation
import Testing

/// A directory for one durability test's server: its storage, a small
/// definitions document and an NDJSON sink, removed with everything in it at the end.
///
/// The sink path goes through a symbolic link (`sink` → `sink-files`), so a
/// test can make the sink fail and recover without touching the file:
/// pointing the link at a directory that does not exist makes every write
/// fail (ENOENT, for root too), pointing it back makes the file reachable again.
final class StorageWorkspace {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("bunting-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/sink-files", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/sink", withDestinationPath: "sink-files")
        try Data(Self.definitions.utf8).write(to: URL(fileURLWithPath: definitions))
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var storage: String { root + "/state" }
    var database: String { storage + "/bunting.sqlite3" }
    var definitions: String { root + "/definitions.json" }
    var sink: String { root + "/sink/events.ndjson" }

    /// `serve` options for this workspace; `sink: false` leaves the sink out
    /// (events then stay queued).
    func arguments(sink withSink: Bool = true, _ more: [String] = []) -> [String] {
        var arguments = [
            "--framing", "ndjson", "--storage", storage, "--definitions", definitions, "--log-level", "info",
        ]
        if withSink { arguments += ["--sink", sink] }
        return arguments + more
    }

    func startServer(sink: Bool = true, _ more: [String] = []) throws -> ServerProcess {
        try ServerProcess(framing: .ndjson, arguments: arguments(sink: sink, more))
    }

    /// Makes the sink unreachable (true) or reachable again (false), atomically.
    func setSinkFailing(_ failing: Bool) throws {
        let temporary = root + "/sink.next"
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.createSymbolicLink(
            atPath: temporary, withDestinationPath: failing ? "nowhere" : "sink-files")
        guard rename(temporary, root + "/sink") == 0 else {
            throw HarnessError(description: "cannot switch the sink link")
        }
    }

    /// The lines of the sink file: the event ids of those that parse, and
    /// how many do not (a line torn by a kill in the middle of a write).
    func sinkContents() throws -> (ids: [String], tornLines: Int) {
        var reader = SinkReader()
        try reader.readNewLines(of: self)
        return (reader.ids, reader.tornLines)
    }

    /// Reads the sink file as it grows, parsing each complete line once.
    struct SinkReader {
        private(set) var ids: [String] = []
        private(set) var tornLines = 0
        private var offset: UInt64 = 0

        mutating func readNewLines(of workspace: StorageWorkspace) throws {
            guard let handle = FileHandle(forReadingAtPath: workspace.root + "/sink-files/events.ndjson") else {
                return
            }
            defer { try? handle.close() }
            try handle.seek(toOffset: offset)
            let data = try handle.readToEnd() ?? Data()
            guard let end = data.lastIndex(of: UInt8(ascii: "\n")) else { return }
            for line in data[..<end].split(separator: UInt8(ascii: "\n")) {
                if let id = (try? JSON.parse(Array(line)))?["eventId"]?.stringValue {
                    ids.append(id)
                } else {
                    tornLines += 1
                }
            }
            offset += UInt64(end - data.startIndex + 1)
        }
    }

    func names(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// Two cards, a banner on placement `top`, and a flag, for every user.
    static let definitions = """
        {
          "channels": {"featureFlags": true, "banners": {"enabled": true}, "contentCards": {"enabled": true}},
          "flags": {"f1": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on"}},
          "banners": [{"id": "b1", "placementId": "top", "html": "<p>B</p>", "priority": 1, "properties": {}}],
          "contentCards": [
            {"id": "c1", "type": "classic", "title": "One", "created": 1764374400, "extras": {}},
            {"id": "c2", "type": "classic", "title": "Two", "created": 1764374500, "extras": {}}
          ]
        }
        """
}

extension ServerProcess {
    /// Sends `method` with a fresh id and waits for its reply.
    func call(_ method: String, _ params: JSONObject? = nil) throws -> JSON {
        try request(method, params: params.map(JSON.object), id: .string(UUID().uuidString))
    }

    /// Sends `method` as a request without waiting for the reply.
    func post(_ method: String, _ params: JSONObject? = nil) throws {
        var message: JSONObject = ["jsonrpc": "2.0", "id": .string(UUID().uuidString), "method": .string(method)]
        if let params { message["params"] = .object(params) }
        try send(.object(message))
    }

    /// The event notifications received so far (their params).
    var events: [JSON] {
        received.filter { $0["method"] == "event" }.compactMap { $0["params"] }
    }

    /// Waits for an event notification of `type` on `channel`, from the `start`th message on.
    @discardableResult
    func waitForEvent(
        _ type: String, _ channel: String, from start: Int = 0, where matches: (JSON) -> Bool = { _ in true }
    ) throws -> JSON {
        let found = try waitForMessage(from: start, "\(type) on \(channel)") { message in
            guard message["method"] == "event", let params = message["params"] else { return false }
            return params["type"]?.stringValue == type && params["channel"]?.stringValue == channel && matches(params)
        }
        return found.message["params"] ?? .null
    }

    /// The ids of the events this server reported with `action` (ENQUEUED or FLUSHED).
    func eventIds(_ action: String) -> [String] {
        events.filter { $0["action"]?.stringValue == action }.compactMap { $0["eventId"]?.stringValue }
    }

    /// Whether stderr holds `text`, waiting a little for it: stderr is drained
    /// by a thread of its own, which may lag behind stdout.
    func stderrContains(_ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !stderr.contains(text) {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// SIGKILL: the server dies at once, wherever it is; returns when it is gone.
    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.endsWithin(ServerProcess.deadline)
    }

    /// `shutdown`, then the exit status.
    func shutDown() throws -> Int32 {
        _ = try call("shutdown")
        return try waitForExit()
    }
}
