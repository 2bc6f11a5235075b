import BuntingJSON
import Foundation
import Testing

/// Where the package's built products are: next to this test bundle.
enum BuiltProducts {
    static var directory: URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }

    static var bunting: URL { directory.appendingPathComponent("bunting") }

    /// The package root, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}

/// Failures of the harness itself, reported as test issues.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// A `bunting` child process driven through real pipes.
///
/// A thread drains stdout the whole time (a child writing more than a pipe
/// buffer would otherwise block) and cuts it into messages with the framing
/// under test; another drains stderr. Waiting for a message is bounded by a
/// generous deadline that only matters when something is broken.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let framing: WireFraming
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var messages: [JSON] = []
    /// The same messages as the text the server wrote.
    private var texts: [String] = []
    /// Guarded by `condition`: bytes of stdout not yet cut into a message.
    private var unframed: [UInt8] = []
    /// Guarded by `condition`.
    private var stdoutClosed = false
    /// Guarded by `condition`: anything on stdout that is not a framed JSON message.
    private(set) var protocolViolations: [String] = []
    private let stderrData = LockedData()
    static let deadline: TimeInterval = 60

    enum WireFraming: String, CaseIterable, Sendable {
        case ndjson, lsp

        func frame(_ body: [UInt8]) -> [UInt8] {
            switch self {
            case .ndjson: body + [UInt8(ascii: "\n")]
            case .lsp: Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
            }
        }
    }

    /// With `readingOutput: false` nobody reads stdout until `startReadingOutput()`.
    /// Without a `--storage` argument the server keeps its state in memory, so
    /// that tests running side by side never share (and fight over) a
    /// directory — unless the environment names XDG_STATE_HOME, the default's
    /// home. `launcher` (e.g. a shell that sets a limit) runs the server as
    /// `launcher + [bunting, serve, ...]`.
    /// With `readingStderr: false` nobody reads stderr until `startReadingStderr()`.
    init(
        framing: WireFraming, arguments: [String] = [], environment: [String: String]? = nil,
        readingOutput: Bool = true,
        readingStderr: Bool = true, launcher: [String] = []
    ) throws {
        self.framing = framing
        _ = Self.pipesDoNotKill
        let usesDefault = arguments.contains("--storage") || environment?["XDG_STATE_HOME"] != nil
        let storage = usesDefault ? [] : ["--storage", ":memory:"]
        let command = [BuiltProducts.bunting.path, "serve"] + storage + arguments
        process.executableURL = URL(fileURLWithPath: (launcher + command)[0])
        process.arguments = Array((launcher + command).dropFirst())
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        if var environment {
            // The sanitizers' settings (scripts/sanitize) reach the server whatever the test sets.
            for (name, value) in ProcessInfo.processInfo.environment
            where name.hasSuffix("SAN_OPTIONS") && environment[name] == nil {
                environment[name] = value
            }
            process.environment = environment
        }
        try process.run()
        if readingOutput { startReadingOutput() }
        if readingStderr { startReadingStderr() }
    }

    func startReadingStderr() {
        let stderrHandle = stderrPipe.fileHandleForReading
        Thread.detachNewThread { [stderrData] in
            while true {
                let data = stderrHandle.availableData
                if data.isEmpty { break }
                stderrData.append(data)
            }
            stderrData.markClosed()
        }
    }

    /// A write to the stdin of a server that has ended (killed by a test,
    /// or gone by shutdown) is an EPIPE error the test sees, not a SIGPIPE
    /// that ends the whole test process. Set once, before the first server.
    static let pipesDoNotKill: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Sends SIGTERM and says how long the process took to end, in seconds
    /// (nil: still running after `deadline` seconds, and then killed).
    func terminateAndTime(deadline: TimeInterval = 10) -> TimeInterval? {
        let start = Date()
        process.terminate()
        guard process.endsWithin(deadline) else { return nil }
        return Date().timeIntervalSince(start)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    func startReadingOutput() {
        let stdoutHandle = stdoutPipe.fileHandleForReading
        Thread.detachNewThread { [self] in drainStdout(stdoutHandle) }
    }

    var stderr: String { String(decoding: stderrData.value, as: UTF8.self) }

    /// Waits, up to the deadline, until stderr satisfies `condition`.
    func waitForStderr(_ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(Self.deadline)
        while !condition(stderr) {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    // MARK: - Sending

    /// The descriptor the test writes the server's stdin through.
    var stdinDescriptor: Int32 { stdinPipe.fileHandleForWriting.fileDescriptor }

    func sendRaw(_ bytes: [UInt8]) throws {
        try stdinPipe.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    func sendRaw(_ text: String) throws { try sendRaw(Array(text.utf8)) }

    /// Sends one message body in the framing under test.
    func send(_ body: String) throws { try sendRaw(framing.frame(Array(body.utf8))) }

    func send(_ message: JSON) throws { try sendRaw(framing.frame(message.encoded())) }

    /// Sends a request and waits for the reply with its id.
    func request(_ method: String, params: JSON? = nil, id: JSON = 1) throws -> JSON {
        var message: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = params }
        try send(.object(message))
        return try waitForReply(id: id)
    }

    func closeInput() throws {
        try stdinPipe.fileHandleForWriting.close()
    }

    // MARK: - Receiving

    /// Waits until `count` messages have arrived in all and returns them.
    func waitForMessages(count: Int) throws -> [JSON] {
        let deadline = Date().addingTimeInterval(Self.deadline)
        condition.lock()
        defer { condition.unlock() }
        while messages.count < count {
            if stdoutClosed {
                throw HarnessError(
                    description: "stdout closed after \(messages.count) of \(count) messages; stderr: \(stderr)")
            }
            if !condition.wait(until: deadline) {
                throw HarnessError(
                    description: "only \(messages.count) of \(count) messages arrived; stderr: \(stderr)")
            }
        }
        return messages
    }

    /// Waits for the reply whose id is `id`.
    func waitForReply(id: JSON) throws -> JSON {
        let deadline = Date().addingTimeInterval(Self.deadline)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let reply = messages.first(where: { $0["id"] == id && $0["method"] == nil }) { return reply }
            if stdoutClosed {
                throw HarnessError(
                    description: "stdout closed before the reply to \(id.encodedString()); stderr: \(stderr)")
            }
            if !condition.wait(until: deadline) {
                throw HarnessError(description: "no reply to \(id.encodedString()); stderr: \(stderr)")
            }
        }
    }

    /// Waits until `condition` holds for the messages received so far and
    /// returns them; `what` names the wait in the error when it never does.
    func waitUntil(_ what: String, _ condition: ([JSON]) -> Bool) throws -> [JSON] {
        let deadline = Date().addingTimeInterval(Self.deadline)
        self.condition.lock()
        defer { self.condition.unlock() }
        while !condition(messages) {
            if stdoutClosed {
                throw HarnessError(description: "stdout closed while waiting for \(what); stderr: \(stderr)")
            }
            if !self.condition.wait(until: deadline) {
                throw HarnessError(description: "timed out waiting for \(what); stderr: \(stderr)")
            }
        }
        return messages
    }

    /// Waits for the first message at or after `index` that satisfies
    /// `matches`, and returns it with its index.
    @discardableResult
    func waitForMessage(from index: Int = 0, _ description: String, where matches: (JSON) -> Bool) throws -> (
        index: Int, message: JSON
    ) {
        let deadline = Date().addingTimeInterval(Self.deadline)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if index < messages.count, let found = messages[index...].firstIndex(where: matches) {
                return (found, messages[found])
            }
            if stdoutClosed {
                throw HarnessError(description: "stdout closed before \(description); stderr: \(stderr)")
            }
            if !condition.wait(until: deadline) {
                throw HarnessError(
                    description: "no \(description) in \(messages.count) messages: "
                        + "\(messages.suffix(5).map { $0.encodedString() }); stderr: \(stderr)")
            }
        }
    }

    /// Every message received so far.
    var received: [JSON] {
        condition.lock()
        defer { condition.unlock() }
        return messages
    }

    /// Every message so far, as the text the server wrote.
    var receivedText: [String] {
        condition.lock()
        defer { condition.unlock() }
        return texts
    }

    /// Waits for the process to end (after end of input or shutdown) and
    /// returns its exit status; stdout must be closed by then.
    func waitForExit() throws -> Int32 {
        let deadline = Date().addingTimeInterval(Self.deadline)
        condition.lock()
        while !stdoutClosed {
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw HarnessError(description: "the server did not close stdout; stderr: \(stderr)")
            }
        }
        condition.unlock()
        try process.waitForExit(
            within: max(1, deadline.timeIntervalSinceNow),
            "the server (pid \(process.processIdentifier)), its stdout closed,")
        // All of stderr, read by its own thread, before a test looks at it.
        guard stderrData.waitUntilClosed(deadline: deadline) else {
            throw HarnessError(description: "the server exited but stderr stayed open; stderr: \(stderr)")
        }
        return process.terminationStatus
    }

    /// Checks that stdout carried framed JSON messages and nothing else.
    func expectCleanProtocol(sourceLocation: SourceLocation = #_sourceLocation) {
        condition.lock()
        let violations = protocolViolations
        let leftover = unframed
        condition.unlock()
        #expect(violations.isEmpty, "stdout carried non-protocol bytes: \(violations)", sourceLocation: sourceLocation)
        #expect(leftover.isEmpty, "stdout ended inside a message", sourceLocation: sourceLocation)
    }

    private func drainStdout(_ handle: FileHandle) {
        while true {
            let data = handle.availableData
            condition.lock()
            if data.isEmpty {
                stdoutClosed = true
                condition.broadcast()
                condition.unlock()
                return
            }
            unframed.append(contentsOf: data)
            cutMessages()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Cuts complete frames off `unframed`; called with the lock held.
    private func cutMessages() {
        while true {
            switch framing {
            case .ndjson:
                guard let newline = unframed.firstIndex(of: UInt8(ascii: "\n")) else { return }
                accept(Array(unframed[..<newline]))
                unframed.removeSubrange(...newline)
            case .lsp:
                let separator: [UInt8] = Array("\r\n\r\n".utf8)
                guard let end = unframed.firstRange(of: separator) else { return }
                let header = String(decoding: unframed[..<end.lowerBound], as: UTF8.self)
                guard header.hasPrefix("Content-Length: "), let length = Int(header.dropFirst(16)) else {
                    protocolViolations.append("bad header \(header.debugDescription)")
                    unframed.removeAll()
                    return
                }
                guard unframed.count >= end.upperBound + length else { return }
                accept(Array(unframed[end.upperBound..<(end.upperBound + length)]))
                unframed.removeSubrange(..<(end.upperBound + length))
            }
        }
    }

    private func accept(_ body: [UInt8]) {
        guard let message = try? JSON.parse(body), message.objectValue != nil || message.arrayValue != nil else {
            protocolViolations.append(String(decoding: body.prefix(200), as: UTF8.self))
            return
        }
        messages.append(message)
        texts.append(String(decoding: body, as: UTF8.self))
    }
}

/// Bytes appended from one thread and read from another.
final class LockedData: @unchecked Sendable {
    private let lock = NSCondition()
    private var data = Data()
    private var closed = false

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    /// The writer saw end of file: nothing more will come.
    func markClosed() {
        lock.lock()
        closed = true
        lock.broadcast()
        lock.unlock()
    }

    func waitUntilClosed(deadline: Date) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while !closed {
            if !lock.wait(until: deadline) { return closed }
        }
        return true
    }

    var value: Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
