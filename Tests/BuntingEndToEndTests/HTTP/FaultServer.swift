import BuntingJSON
import Foundation

/// The fault-injecting HTTP server of `Tests/python/fault_server.py`, run as a
/// child process on a free loopback port and driven over its stdin/stdout:
/// documents, scripted answers (status, headers, delay, truncation, dropped
/// connections, held answers), and what it received.
final class FaultServer: @unchecked Sendable {
    /// One answer, as the server script takes it.
    struct Answer: Sendable {
        var fields: JSONObject

        static func status(_ status: Int, headers: JSONObject = [:], body: String = "") -> Answer {
            Answer(fields: ["status": .integer(Int64(status)), "headers": .object(headers), "body": .string(body)])
        }

        static let drop = Answer(fields: ["drop": true])

        func with(_ key: String, _ value: JSON) -> Answer {
            var copy = self
            copy.fields[key] = value
            return copy
        }

        var held: Answer { with("hold", true) }
        func delayed(_ seconds: Double) -> Answer { with("delay", .number(seconds)) }
        func truncated(to bytes: Int) -> Answer { with("truncate", .integer(Int64(bytes))) }
        /// The body without a length, then an open, silent connection (until `endStreams`).
        var streamed: Answer { with("stream", true) }
    }

    /// One request the server received.
    struct Received: Sendable {
        let json: JSON
        var method: String { json["method"]?.stringValue ?? "" }
        var target: String { json["target"]?.stringValue ?? "" }
        var client: String { json["client"]?.stringValue ?? "" }
        var time: Double { json["time"]?.doubleValue ?? 0 }
        var body: String { json["body"]?.stringValue ?? "" }
        var answer: JSON { json["answer"] ?? .null }
        func header(_ name: String) -> String? { json["headers"]?[name.lowercased()]?.stringValue }
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    /// Guarded by `lock`: stdout bytes after the last complete line.
    private var pending: [UInt8] = []
    private(set) var port = 0
    let scheme: String

    /// With `tls`, the server speaks HTTPS with that certificate and key (PEM files).
    init(tls: (certificate: String, key: String)? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = BuiltProducts.packageRoot.appendingPathComponent("Tests/python/fault_server.py").path
        process.arguments = ["python3", script] + (tls.map { ["--cert", $0.certificate, "--key", $0.key] } ?? [])
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        scheme = tls == nil ? "http" : "https"
        let first = try readLine()
        guard let port = first["port"]?.integerValue.map(Int.init) else {
            throw HarnessError(description: "fault server said \(first.encodedString())")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        // It ends at the end of its input; SIGKILL if it has not within 10 s.
        process.endsWithin(10)
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    // MARK: - Commands

    @discardableResult
    func command(_ message: JSONObject) throws -> JSON {
        lock.lock()
        defer { lock.unlock() }
        try input.fileHandleForWriting.write(contentsOf: Data(JSON.object(message).encoded() + [10]))
        let reply = try readLineLocked()
        if let error = reply["error"] { throw HarnessError(description: "fault server: \(error.encodedString())") }
        return reply
    }

    func setDocument(
        _ path: String, _ body: String, etag: String? = nil, lastModified: String? = nil,
        contentType: String? = nil, gzip: Bool = false, headers: JSONObject = [:]
    ) throws {
        var message: JSONObject = [
            "op": "document", "path": .string(path), "body": .string(body), "gzip": .bool(gzip),
            "headers": .object(headers),
        ]
        if let etag { message["etag"] = .string(etag) }
        if let lastModified { message["lastModified"] = .string(lastModified) }
        if let contentType { message["contentType"] = .string(contentType) }
        try command(message)
    }

    /// Queues answers for the next requests to `path`; `replacing` drops those still queued first.
    func script(_ path: String, _ answers: [Answer], replacing: Bool = false) throws {
        try command([
            "op": "script", "path": .string(path), "responses": .array(answers.map { .object($0.fields) }),
            "replace": .bool(replacing),
        ])
    }

    func setFallback(_ path: String, _ answer: Answer) throws {
        try command(["op": "fallback", "path": .string(path), "response": .object(answer.fields)])
    }

    func setKeepAlive(_ value: Bool) throws { try command(["op": "keepAlive", "value": .bool(value)]) }

    func release() throws { try command(["op": "release"]) }

    func endStreams() throws { try command(["op": "endStreams"]) }

    func requests(_ path: String) throws -> [Received] {
        try command(["op": "requests", "path": .string(path)])["requests"]?.arrayValue?.map(Received.init) ?? []
    }

    /// Waits until `count` requests to `path` arrived in all; returns them all.
    @discardableResult
    func waitForRequests(_ path: String, count: Int) throws -> [Received] {
        let reply = try command([
            "op": "wait", "path": .string(path), "count": .integer(Int64(count)),
            "timeout": .number(ServerProcess.deadline),
        ])
        let received = reply["requests"]?.arrayValue?.map(Received.init) ?? []
        guard received.count >= count else {
            throw HarnessError(description: "only \(received.count) of \(count) requests reached \(path)")
        }
        return received
    }

    // MARK: - Reading

    private func readLine() throws -> JSON {
        lock.lock()
        defer { lock.unlock() }
        return try readLineLocked()
    }

    private func readLineLocked() throws -> JSON {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return try JSON.parse(line)
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty {
                let stderr = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                throw HarnessError(description: "the fault server ended: \(stderr)")
            }
            pending.append(contentsOf: data)
        }
    }
}
