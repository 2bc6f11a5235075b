import BuntingCore
import BuntingDefinitions
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime
import BuntingServer
import FuzzSupport

/// A small document with something in every channel, so that requests reach
/// the engine's paths rather than stopping at "not found".
private let document = Array(
    """
    {"flags": {"f": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                     "targeting": {"if": [{"==": [{"var": "tier"}, "gold"]}, "on", "off"]}}},
     "contentBlocks": {"sig": "-- {{${tier} | default: 'team'}}"},
     "banners": [{"id": "b", "placementId": "p", "html": "x", "priority": 1, "properties": {}},
                 {"id": "g", "placementId": "p", "priority": 2, "properties": {},
                  "html": "{% if ${tier} != 'gold' %}{% abort_message('gold') %}{% endif %}Hi {{${name}}}"}],
     "contentCards": [{"id": "c", "type": "classic", "title": "T", "extras": {"feed": "inbox"}, "created": 1},
                      {"id": "t", "type": "classic", "title": "Hi {{${name} | default: 'you'}}",
                       "description": "{{content_blocks.${sig}}}", "extras": {"feed": "{{${tier}}}"}, "created": 2}]}
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
/// parser, the connection and Bunting's server as `bunting serve` assembles
/// it (`ServerAssembly`), over an in-memory store, on a loop run by hand.
/// Checks:
/// - every request gets exactly one reply (one array per batch, with one
///   entry per request in it), notifications none;
/// - every message written, the engine's notifications included, is JSON
///   that parses back, and every notification names a method the server sends;
/// - the server answers `status` afterwards.
func checkDispatch(_ bytes: UnsafeRawBufferPointer) {
    let loop = EventLoop(clock: ManualClock())
    var exited = false
    let context = ServerContext(loop: loop, stopInput: {}) { _ in exited = true }
    let assembly = ServerAssembly(
        context: context,
        parts: ServerAssembly.Parts(
            worker: InlineWorker(), source: FixedSource(), compile: Definitions.compiler, sink: nil,
            store: MemoryStore(),
            random: SplitMix64(seed: 1)))
    var written: [[UInt8]] = []
    let connection = RPCConnection(methods: assembly.table) { written.append($0.encoded) }
    context.attach(connection)
    assembly.start()
    loop.runPending()
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
    var replies = 0
    for message in written {
        let parsed = try? JSON.parse(message)
        require(parsed != nil, "a written message is not JSON: \(String(decoding: message.prefix(200), as: UTF8.self))")
        if let method = parsed?["method"]?.stringValue {
            require(
                ["event", "updates", "definitions"].contains(method),
                "a notification of an unknown method \(method)")
        } else {
            replies += 1
        }
    }
    require(replies == expected, "\(replies) replies written for \(expected) owed")
    if !exited && !context.isShuttingDown {
        require(assembly.engine.status()["sdkEnabled"] != nil, "the server answers status afterwards")
    }
    // Ends the engine's timers, which hold it, so that nothing outlives the input.
    context.shutDown()
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
