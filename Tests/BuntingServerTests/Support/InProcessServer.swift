import BuntingCore
import BuntingDefinitions
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime
import BuntingServer
import Foundation
import Synchronization

/// A Bunting server in this process, assembled as `bunting serve` assembles
/// it (`ServerAssembly`), on a loop run by hand and a manual clock, fed the
/// text a client writes, with every message it writes recorded in order: the
/// protocol's ordering rules (a reply before its events, ENQUEUED after the
/// commit, SHUTTING_DOWN after `shutdown`), its answers and its limits are
/// tested in milliseconds, with no process and no pipes. What needs a
/// process (pipes, framing on real descriptors, signals, kill -9, stdout
/// redirection, the real sources, sinks and storage) stays end-to-end.
///
/// Input goes through the real framer in the chunks `InputChannel` reads,
/// with the limits of `StdioServer.Options`, as `--framing`,
/// `--max-message-size` and `--max-reply-size` set them. Each `send` is one
/// turn of the loop: the text is framed and handled, the jobs and timers it
/// makes due run, then the store commits and the staged messages are
/// written, as `StdioServer` writes them at a turn's end.
final class InProcessServer {
    let clock = ManualClock(unixTime: 1_750_000_000)
    let loop: EventLoop
    let context: ServerContext
    let assembly: ServerAssembly
    let source: TestDefinitionsSource
    let sink: TestSink
    let store: any Store
    /// How `send` frames what it is given, as the client writes it.
    let framing: Framing
    private var connection: RPCConnection!
    private var framer: MessageFramer
    private let options: StdioServer.Options
    private var staged: [OutgoingMessage] = []
    /// Every message written, in order, parsed.
    private(set) var received: [JSON] = []
    /// The same messages as the text written.
    private(set) var receivedText: [String] = []
    /// How many times the store was asked to commit before output.
    private(set) var commitsBeforeOutput = 0
    /// Called with each message as it is written (after the turn's commit).
    var onWrite: ((JSON) -> Void)?
    /// The exit status, once the server ended (end of input, `shutdown`, a termination signal).
    private(set) var exitStatus: Int32?
    /// Set once the server stopped reading (shutting down): later input is never read.
    private var inputStopped = false
    private var inputEnded = false
    private var nextId: Int64 = 1000

    /// What `InputChannel` reads at once: messages that straddle two reads are framed as they are from a pipe.
    static let readChunkBytes = 1 << 16

    /// - Parameters:
    ///   - definitions: the document the source holds.
    ///   - framing: how `send` frames what it is given.
    ///   - options: the framing the server reads (auto-detected by default,
    ///     as `bunting serve` does) and its limits.
    ///   - configure: changes the engine's configuration (no polls, no
    ///     periodic flushes by default: tests move the clock themselves).
    ///   - testing: as `serve --clock manual` (`setClock`, `advanceClock` on
    ///     `clock`) and `serve --faults` (`injectFault`, its source and sink
    ///     decorated as `serve` decorates them); neither by default.
    init(
        definitions: String = InProcessServer.document, framing: Framing = .ndjson,
        options: StdioServer.Options = StdioServer.Options(), store: any Store = MemoryStore(), withSink: Bool = true,
        testing: Controls = [], configure: (inout Engine.Configuration) -> Void = { _ in }
    ) {
        loop = EventLoop(clock: clock)
        source = TestDefinitionsSource(definitions)
        sink = TestSink()
        self.store = store
        self.framing = framing
        self.options = options
        framer = MessageFramer(choice: options.framing, maxMessageBytes: options.maxMessageBytes)
        var exit: ((Int32) -> Void)?
        var stopInput: (() -> Void)?
        context = ServerContext(loop: loop, stopInput: { stopInput?() }) { status in exit?(status) }
        var configuration = Engine.Configuration()
        configuration.pollInterval = nil
        configuration.flushInterval = 1_000_000
        configuration.retry = RetryPolicy(initialDelay: 1, maxDelay: 30, maxRetries: 3)
        configure(&configuration)
        let parts = ServerAssembly.Parts(
            configuration: configuration, worker: InlineWorker(), source: source, compile: Definitions.compiler,
            sink: withSink ? sink : nil, store: store, random: SplitMix64(seed: 7))
        assembly = ServerAssembly(context: context, parts: testing.parts(parts, clock: clock, loop: loop))
        exit = { [unowned self] status in exitStatus = status }
        stopInput = { [unowned self] in inputStopped = true }
        connection = RPCConnection(methods: assembly.table, limits: options.limits) { [unowned self] message in
            staged.append(message)
        }
        context.attach(connection)
        assembly.start()
        settle()
    }

    var engine: Engine { assembly.engine }

    // MARK: - Sending

    /// Writes `text` as the client would (framed as the server reads it),
    /// and runs the turn it starts.
    func send(_ text: String) {
        feed(frame(text))
    }

    /// `text` framed in the framing the client writes.
    func frame(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return framing == .lsp ? Array("Content-Length: \(bytes.count)\r\n\r\n".utf8) + bytes : bytes + [10]
    }

    /// Writes raw bytes, framing and all, and runs the turn. The server
    /// reads them as `InputChannel` does, a chunk at a time, until it stops
    /// reading (shutting down).
    func feed(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count, !inputStopped, !inputEnded {
            let end = min(offset + Self.readChunkBytes, bytes.count)
            bytes[offset..<end].withUnsafeBytes { framer.feed($0, deliver) }
            offset = end
            settle()
        }
    }

    private func deliver(_ event: MessageFramer.Event) {
        switch event {
        case .problem(let problem): connection.receive(.brokenFrame(problem))
        case .message(let message):
            let limits = options.limits
            connection.receive(.parse(message, maxDepth: options.maxDepth, maxBatchLength: limits.maxBatchLength))
        }
    }

    /// Sends a request and returns its reply (null when none came).
    @discardableResult
    func request(_ method: String, params: JSON? = nil, id: JSON? = nil) -> JSON {
        let id = id ?? .integer(nextRequestId())
        var message: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { message["params"] = params }
        let before = received.count
        send(JSON.object(message).encodedString())
        return received[before...].first { $0["id"] == id && $0["method"] == nil } ?? .null
    }

    /// The result of a request that must succeed; an error reply is recorded as a failure by the caller.
    func call(_ method: String, _ params: JSON? = nil) -> JSON {
        request(method, params: params)["result"] ?? .null
    }

    /// Sends a notification (no reply owed).
    func notify(_ method: String, params: JSON? = nil) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { message["params"] = params }
        send(JSON.object(message).encodedString())
    }

    /// End of input, as `InputChannel` meets it: what the framer still holds
    /// is reported, then the server finishes what it started and ends.
    func closeInput() {
        guard !inputEnded else { return }
        inputEnded = true
        if !inputStopped { framer.finish(deliver) }
        context.shutDown()
        settle()
    }

    /// What SIGTERM, SIGINT or SIGHUP does: the server finishes what it started and ends.
    func terminate() {
        context.shutDown()
        settle()
    }

    // MARK: - Time

    /// Moves the clock and runs what became due, turn by turn.
    func advance(_ seconds: Double) {
        clock.advance(by: seconds)
        settle()
    }

    /// Moves the clock `step` seconds at a time until `condition` holds of
    /// the messages written from `index` on, at most `limit` seconds;
    /// returns the first message that satisfies `matches`, with its index.
    @discardableResult
    func advance(
        from index: Int = 0, step: Double = 0.5, limit: Double = 600, until matches: (JSON) -> Bool
    ) -> (index: Int, message: JSON)? {
        var waited = 0.0
        while true {
            if let found = message(from: index, where: matches) { return found }
            guard waited < limit else { return nil }
            advance(step)
            waited += step
        }
    }

    /// Runs jobs and due timers until none is left, then ends the turn; once
    /// the server ended nothing more runs (its loop stopped).
    func settle() {
        repeat {
            guard exitStatus == nil else { break }
            loop.runPending()
            endTurn()
        } while exitStatus == nil && loop.runPending() > 0
        endTurn()
    }

    private func endTurn() {
        guard !staged.isEmpty else { return }
        commitsBeforeOutput += 1
        context.beforeOutput?()
        // What the commit itself sent (an ERROR for events not kept) comes after.
        let messages = staged
        staged.removeAll()
        for message in messages {
            let text = String(decoding: message.encoded, as: UTF8.self)
            receivedText.append(text)
            let parsed = (try? JSON.parse(message.encoded)) ?? .null
            received.append(parsed)
            onWrite?(parsed)
        }
        if !staged.isEmpty { endTurn() }
    }

    private func nextRequestId() -> Int64 {
        defer { nextId += 1 }
        return nextId
    }

    // MARK: - Reading what was written

    /// The event notifications written so far (their params).
    var events: [JSON] { received.filter { $0["method"] == "event" }.compactMap { $0["params"] } }

    /// The first message from `index` on that `matches`, with its position.
    func message(from index: Int = 0, where matches: (JSON) -> Bool) -> (index: Int, message: JSON)? {
        guard index < received.count else { return nil }
        return received.indices[index...].lazy.map { ($0, self.received[$0]) }.first { matches($0.1) }
    }

    /// `TYPE channel` plus the reason, retry state or action, of each event written from `index` on.
    func eventSummaries(from index: Int = 0) -> [String] {
        received.dropFirst(index).filter { $0["method"] == "event" }.compactMap { $0["params"] }.map { event in
            var parts = [event["type"]?.stringValue ?? "?", event["channel"]?.stringValue ?? "?"]
            for key in ["reason", "retryState", "action"] {
                if let value = event[key]?.stringValue { parts.append(value) }
            }
            return parts.joined(separator: " ")
        }
    }

    /// Messages written that are not a JSON object or array: what would
    /// corrupt the client's stream.
    var protocolViolations: [String] {
        zip(received, receivedText).filter { $0.0.objectValue == nil && $0.0.arrayValue == nil }
            .map { String($0.1.prefix(200)) }
    }

    /// A small document with a flag for gold users, a banner and two cards.
    static let document = """
        {"flags": {"checkout": {"state": "ENABLED", "variants": {"new": true, "old": false}, "defaultVariant": "old",
                                "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "new", "old"]}}},
         "banners": [{"id": "spring", "placementId": "home", "html": "<p>Spring</p>", "priority": 1, "properties": {}}],
         "contentCards": [
           {"id": "welcome", "type": "classic", "title": "Welcome", "extras": {"feed": "inbox"}, "created": 1700000000},
           {"id": "sale", "type": "classic", "title": "Sale", "extras": {"feed": "promo"}, "created": 1700000100}]}
        """

    /// The example `bunting serve` serves without `--definitions` (built into the binary from this file).
    static var bundledExample: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = root.appendingPathComponent("examples/definitions/bunting.json")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }
}

/// A definitions source whose document and failures the test sets.
final class TestDefinitionsSource: DefinitionsSource {
    private struct State {
        var bytes: [UInt8]
        var version = 1
        var failures: [SourceError] = []
        /// Every fetch fails so until the document is set again (a file removed, a server down).
        var outage: SourceError?
        var fetches = 0
    }

    let location = "test://definitions"
    let isLocal: Bool
    private let state: Mutex<State>

    init(_ document: String, isLocal: Bool = true) {
        self.isLocal = isLocal
        state = Mutex(State(bytes: Array(document.utf8)))
    }

    var fetchCount: Int { state.withLock { $0.fetches } }

    /// A new document, as a file replaced or a server's new version; it ends an outage.
    func setDocument(_ document: String) {
        state.withLock {
            $0.bytes = Array(document.utf8)
            $0.version += 1
            $0.outage = nil
        }
    }

    /// The next fetches fail, one failure each.
    func fail(_ failures: SourceError...) {
        state.withLock { $0.failures += failures }
    }

    /// Every fetch fails with `failure` until `setDocument` (a definitions file removed).
    func failUntilReplaced(_ failure: SourceError) {
        state.withLock { $0.outage = failure }
    }

    func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        state.withLock { state in
            state.fetches += 1
            if !state.failures.isEmpty { return .failed(state.failures.removeFirst()) }
            if let outage = state.outage { return .failed(outage) }
            if version?.fingerprint == "\(state.version)" { return .unchanged }
            return .fetched(state.bytes, SourceVersion(fingerprint: "\(state.version)"))
        }
    }
}

/// A sink that keeps what it accepted and can be told to fail.
final class TestSink: AnalyticsSink {
    let location = "test://sink"
    private let state = Mutex<(accepted: [AnalyticsEvent], failures: [SinkError])>(([], []))

    var accepted: [AnalyticsEvent] { state.withLock { $0.accepted } }

    /// What it accepted as an NDJSON sink writes it, one object an event.
    var lines: [JSON] { accepted.map(\.sinkJSON) }

    func fail(_ failures: SinkError...) {
        state.withLock { $0.failures += failures }
    }

    func deliver(_ events: [AnalyticsEvent]) throws(SinkError) {
        let failure = state.withLock { state -> SinkError? in
            if !state.failures.isEmpty { return state.failures.removeFirst() }
            state.accepted += events
            return nil
        }
        if let failure { throw failure }
    }
}

/// The lines a server in process logs (to stderr, in `bunting serve`) while
/// a test's body runs, on the test's task alone: tests running beside it
/// log lines of their own.
final class LogCapture: Sendable {
    private let captured = Mutex<[String]>([])

    var lines: [String] { captured.withLock { $0 } }

    /// Whether any line contains `text`.
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// Runs `body` with what it logs captured.
    static func during<Result>(_ body: (LogCapture) throws -> Result) rethrows -> Result {
        let capture = LogCapture()
        return try Logger.$taskObserver.withValue({ line in capture.captured.withLock { $0.append(line) } }) {
            try body(capture)
        }
    }
}
