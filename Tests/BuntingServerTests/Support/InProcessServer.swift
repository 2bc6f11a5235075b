import BuntingCore
import BuntingDefinitions
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime
import BuntingServer
import Synchronization

/// A Bunting server in this process, assembled as `bunting serve` assembles
/// it (`ServerAssembly`), on a loop run by hand and a manual clock, fed the
/// text a client writes, with every message it writes recorded in order: the
/// protocol's ordering rules (a reply before its events, ENQUEUED after the
/// commit, SHUTTING_DOWN after `shutdown`) are tested in milliseconds, with
/// no process and no pipes. What needs a process (pipes, framing on real
/// descriptors, signals, kill -9, the real sinks) stays end-to-end.
///
/// Each `send` is one turn of the loop: the text is framed and handled, the
/// jobs and timers it makes due run, then the store commits and the staged
/// messages are written, as `StdioServer` writes them at a turn's end.
final class InProcessServer {
    let clock = ManualClock(unixTime: 1_750_000_000)
    let loop: EventLoop
    let context: ServerContext
    let assembly: ServerAssembly
    let source: TestDefinitionsSource
    let sink: TestSink
    let store: any Store
    private var connection: RPCConnection!
    private var framer: MessageFramer
    private var staged: [OutgoingMessage] = []
    /// Every message written, in order, parsed.
    private(set) var received: [JSON] = []
    /// The same messages as the text written.
    private(set) var receivedText: [String] = []
    /// How many times the store was asked to commit before output.
    private(set) var commitsBeforeOutput = 0
    /// Called with each message as it is written (after the turn's commit).
    var onWrite: ((JSON) -> Void)?
    /// The exit status, once the server ended (end of input, `shutdown`).
    private(set) var exitStatus: Int32?
    private var nextId: Int64 = 1000

    /// - Parameters:
    ///   - definitions: the document the source holds.
    ///   - framing: how `send` frames what it is given.
    ///   - configure: changes the engine's configuration (no polls, no
    ///     periodic flushes by default: tests move the clock themselves).
    init(
        definitions: String = InProcessServer.document, framing: Framing = .ndjson, store: any Store = MemoryStore(),
        withSink: Bool = true, configure: (inout Engine.Configuration) -> Void = { _ in }
    ) {
        loop = EventLoop(clock: clock)
        source = TestDefinitionsSource(definitions)
        sink = TestSink()
        self.store = store
        framer = MessageFramer(choice: framing == .ndjson ? .ndjson : .lsp, maxMessageBytes: 16 << 20)
        var exit: ((Int32) -> Void)?
        context = ServerContext(loop: loop, stopInput: {}) { status in exit?(status) }
        var configuration = Engine.Configuration()
        configuration.pollInterval = nil
        configuration.flushInterval = 1_000_000
        configuration.retry = RetryPolicy(initialDelay: 1, maxDelay: 30, maxRetries: 3)
        configure(&configuration)
        assembly = ServerAssembly(
            context: context,
            parts: ServerAssembly.Parts(
                configuration: configuration, worker: InlineWorker(), source: source, compile: Definitions.compiler,
                sink: withSink ? sink : nil, store: store, random: SplitMix64(seed: 7)))
        exit = { [unowned self] status in exitStatus = status }
        connection = RPCConnection(methods: assembly.table) { [unowned self] message in staged.append(message) }
        context.attach(connection)
        assembly.start()
        settle()
    }

    var engine: Engine { assembly.engine }

    // MARK: - Sending

    /// Writes `text` as the client would (framed as the server reads it),
    /// and runs the turn it starts.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        let framed =
            framer.framing == .lsp ? Array("Content-Length: \(bytes.count)\r\n\r\n".utf8) + bytes : bytes + [10]
        feed(framed)
    }

    /// Writes raw bytes, framing and all, and runs the turn.
    func feed(_ bytes: [UInt8]) {
        let connection = self.connection!
        let handle: MessageFramer.Emit = { event in
            switch event {
            case .problem(let problem): connection.receive(.brokenFrame(problem))
            case .message(let message):
                connection.receive(.parse(message, maxDepth: JSON.defaultMaxDepth, maxBatchLength: 1000))
            }
        }
        bytes.withUnsafeBytes { framer.feed($0, handle) }
        settle()
    }

    /// Sends a request and returns its reply.
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

    /// End of input: the server finishes what it started, then ends.
    func closeInput() {
        context.shutDown()
        settle()
    }

    // MARK: - Time

    /// Moves the clock and runs what became due, turn by turn.
    func advance(_ seconds: Double) {
        clock.advance(by: seconds)
        settle()
    }

    /// Runs jobs and due timers until none is left, then ends the turn.
    func settle() {
        repeat {
            loop.runPending()
            endTurn()
        } while loop.runPending() > 0
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

    /// A small document with a flag for gold users, a banner and two cards.
    static let document = """
        {"flags": {"checkout": {"state": "ENABLED", "variants": {"new": true, "old": false}, "defaultVariant": "old",
                                "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "new", "old"]}}},
         "banners": [{"id": "spring", "placementId": "home", "html": "<p>Spring</p>", "priority": 1, "properties": {}}],
         "contentCards": [
           {"id": "welcome", "type": "classic", "title": "Welcome", "extras": {"feed": "inbox"}, "created": 1700000000},
           {"id": "sale", "type": "classic", "title": "Sale", "extras": {"feed": "promo"}, "created": 1700000100}]}
        """
}

/// A definitions source whose document and failures the test sets.
final class TestDefinitionsSource: DefinitionsSource {
    private struct State {
        var bytes: [UInt8]
        var version = 1
        var failures: [SourceError] = []
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

    func setDocument(_ document: String) {
        state.withLock {
            $0.bytes = Array(document.utf8)
            $0.version += 1
        }
    }

    func fail(_ failures: SourceError...) {
        state.withLock { $0.failures += failures }
    }

    func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        state.withLock { state in
            state.fetches += 1
            if !state.failures.isEmpty { return .failed(state.failures.removeFirst()) }
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
