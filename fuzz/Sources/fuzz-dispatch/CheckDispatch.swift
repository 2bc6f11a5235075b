import BuntingCore
import BuntingDefinitions
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime
import BuntingServer
import FuzzSupport

/// A small document with something in every channel, so that requests reach
/// the engine's paths rather than stopping at "not found".
private let document = Array("""
    {"flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                     "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "on", "off"]}}},
     "banners": [{"id": "b", "placementId": "p", "html": "x", "priority": 1, "properties": {}}],
     "contentCards": [{"id": "c", "type": "classic", "title": "T", "extras": {"feed": "inbox"}, "created": 1}]}
    """.utf8)

/// A source that always holds `document`.
private final class FixedSource: DefinitionsSource {
    let location = "(fuzz)"
    var isLocal: Bool { true }
    func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        version == nil ? .fetched(document, SourceVersion(fingerprint: "fuzz")) : .unchanged
    }
}

/// Runs the input as what a client writes on stdin, through the framer, the
/// parser, the connection and Bunting's real methods over an engine with an
/// in-memory store, on a loop run by hand. Checks:
/// - every request gets exactly one reply (one array per batch, with one
///   entry per request in it), notifications none;
/// - every message written is JSON that parses back;
/// - the engine answers `status` afterwards.
func checkDispatch(_ bytes: UnsafeRawBufferPointer) {
    let loop = EventLoop(clock: ManualClock())
    let engine = Engine(
        configuration: Engine.Configuration(), loop: loop, worker: InlineWorker(), source: FixedSource(),
        compile: Definitions.compiler, sink: nil, store: MemoryStore()) { _ in }
    engine.start()
    let context = ServerContext(loop: loop, stopInput: {}) { _ in }
    var written: [[UInt8]] = []
    let connection = RPCConnection(methods: BuntingMethods.table(engine: engine, context: context)) { written.append($0.encoded) }
    var expected = 0
    var framer = MessageFramer(choice: .auto, maxMessageBytes: 1 << 20)
    let handle: MessageFramer.Emit = { event in
        switch event {
        case .problem(let problem):
            expected += 1
            connection.receive(.brokenFrame(problem))
        case .message(let message):
            let item = InboundItem.parse(message, maxDepth: JSON.defaultMaxDepth, maxBatchLength: 1000)
            expected += repliesOwed(item)
            connection.receive(item)
        }
    }
    framer.feed(bytes, handle)
    framer.finish(handle)
    loop.runPending()
    require(written.count == expected, "\(written.count) messages written for \(expected) owed")
    for message in written {
        let parsed = try? JSON.parse(message)
        require(parsed != nil, "a written message is not JSON: \(String(decoding: message.prefix(200), as: UTF8.self))")
    }
    require(engine.status()["sdkEnabled"] != nil, "the engine answers status afterwards")
    // Ends the engine's timers, which hold it, so that nothing outlives the input.
    engine.shutDown {}
    loop.runPending()
}

/// How many messages an item owes: one reply per request or invalid message,
/// none per notification; a batch owes one array if anything in it does.
private func repliesOwed(_ item: InboundItem) -> Int {
    switch item {
    case .message(.array(let elements), _):
        guard !elements.isEmpty else { return 1 }
        return elements.contains { owesReply(IncomingMessage($0)) } ? 1 : 0
    case .message(let value, _):
        return owesReply(IncomingMessage(value)) ? 1 : 0
    case .unparsable, .brokenFrame, .batchTooLarge:
        return 1
    }
}

private func owesReply(_ message: IncomingMessage) -> Bool {
    if case .notification = message { return false }
    return true
}
