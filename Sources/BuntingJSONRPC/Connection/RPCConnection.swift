import BuntingJSON
import BuntingRuntime

/// JSON-RPC 2.0 over one connection: turns inbound items into calls of the
/// method table and writes exactly one reply per request, none per
/// notification, one array per batch.
///
/// Owned by the event loop: every method runs on the loop's thread.
///
/// Order: notifications sent while a message is being answered are held and
/// written right after its reply (a batch's: after the whole batch array),
/// so a reply always comes before the events its request caused.
///
/// Bounds: a batch of more than `maxBatchLength` messages is refused whole,
/// before it runs; once a batch's replies pass `maxBatchReplyBytes`, the
/// requests of it not yet run are answered `REPLY_TOO_LARGE` instead of run,
/// so that one batch cannot make the server's memory grow without bound; a
/// result whose text would pass `maxReplyBytes` is answered `REPLY_TOO_LARGE`
/// instead, found out before its text is written (a 1 MB request could ask
/// for a 1 GB reply).
public final class RPCConnection {
    public struct Limits: Sendable {
        public var maxBatchLength = 1000
        public var maxBatchReplyBytes = 16 << 20
        /// The text of one result: a snapshot of 100,000 cards fits.
        public var maxReplyBytes = 64 << 20

        public init() {}
    }

    /// Where messages go, in order (the output channel).
    private let send: (OutgoingMessage) -> Void
    private let methods: MethodTable
    public let limits: Limits
    /// How many replies (single or batch) are being put together now.
    private var holds = 0
    private var heldNotifications: [OutgoingMessage] = []
    /// Set once `shutdown` was answered: later requests are refused.
    public private(set) var isShuttingDown = false

    public init(methods: MethodTable, limits: Limits = Limits(), send: @escaping (OutgoingMessage) -> Void) {
        self.methods = methods
        self.limits = limits
        self.send = send
    }

    /// Sends a notification, after any reply being put together now.
    public func notify(method: String, params: SplicedJSON) {
        let message = OutgoingMessage.notification(method: method, params: params)
        if holds > 0 {
            heldNotifications.append(message)
        } else {
            send(message)
        }
    }

    public func notify(method: String, params: EncodedJSON) {
        notify(method: method, params: SplicedJSON(params))
    }

    public func notify(method: String, params: JSON) {
        notify(method: method, params: EncodedJSON(params))
    }

    /// Refuses every request from now on with `SHUTTING_DOWN`.
    public func beginShutdown() {
        isShuttingDown = true
    }

    public func receive(_ item: InboundItem) {
        switch item {
        case .brokenFrame(let problem):
            log.info("framing: \(problem.message)")
            send(.failure(id: nil, error: .framing(problem)))
        case .unparsable(let error):
            log.info("unparsable message: \(error.description)")
            send(.failure(id: nil, error: .parseError(error)))
        case .batchTooLarge(let count, let limit):
            send(
                .failure(
                    id: nil,
                    error: .invalidRequest(
                        "a batch of \(count > limit ? "more than \(limit)" : "\(count)") "
                            + "messages; at most \(limit) are allowed, and none of this one ran",
                        reason: "BATCH_TOO_LARGE")))
        case .message(.array(let elements), let texts):
            receiveBatch(elements, texts)
        case .message(let value, let texts):
            hold()
            // Released once, when the reply is out or when the handler returns,
            // whichever comes first: a method that answers before the rest of
            // its work (changeUser, before its refresh) lets what it sent so
            // far follow the reply at once.
            var held = true
            handle(IncomingMessage(value, idText: texts[0]), alone: true) { [self] reply in
                if let reply { send(reply) }
                if held {
                    held = false
                    release()
                }
            }
            if held {
                held = false
                release()
            }
        }
    }

    private func receiveBatch(_ elements: [JSON], _ texts: IDTexts) {
        guard !elements.isEmpty else {
            send(.failure(id: nil, error: .invalidRequest("an empty batch is not a request", reason: "EMPTY_BATCH")))
            return
        }
        guard elements.count <= limits.maxBatchLength else {
            receive(.batchTooLarge(count: elements.count, limit: limits.maxBatchLength))
            return
        }
        hold()
        let batch = BatchReplies(count: elements.count) { [self] replies in
            if !replies.isEmpty { send(.batch(replies)) }
            release()
        }
        for (index, element) in elements.enumerated() {
            let message = IncomingMessage(element, idText: texts[index])
            if batch.replyBytes > limits.maxBatchReplyBytes, case .request(let id, _, _) = message {
                let error = RPCError.invalidRequest(
                    "the replies of this batch passed \(limits.maxBatchReplyBytes) "
                        + "bytes; this request did not run (send it in a smaller batch)",
                    reason: "REPLY_TOO_LARGE")
                batch.fill(index, with: .failure(id: id, error: error))
                continue
            }
            handle(message, alone: false) { reply in batch.fill(index, with: reply) }
        }
    }

    /// Handles one message; `reply` is called exactly once, with nil for a
    /// notification. `alone`: not part of a batch.
    private func handle(_ message: IncomingMessage, alone: Bool, reply: @escaping (OutgoingMessage?) -> Void) {
        switch message {
        case .invalid(let id, let error):
            reply(.failure(id: id, error: error))
        case .notification(let method, let params):
            let responder = Responder(method: method, id: nil) { outcome in
                if case .failure(let error) = outcome {
                    log.debug("notification \(method) failed: \(error.message)")
                }
            }
            dispatch(method, params, responder)
            reply(nil)
        case .request(let id, let method, let params):
            let responder = Responder(
                method: method, id: id, maxResultBytes: limits.maxReplyBytes,
                releaseHeldNotifications: alone ? { [unowned self] in sendHeldNotifications() } : nil
            ) { outcome in
                switch outcome {
                case .success(let result): reply(.success(id: id, result: result))
                case .failure(let error): reply(.failure(id: id, error: error))
                }
            }
            dispatch(method, params, responder)
        }
    }

    private func dispatch(_ name: String, _ rawParams: JSON?, _ responder: Responder) {
        if isShuttingDown {
            responder.fail(
                RPCError(code: .shuttingDown, reason: "SHUTTING_DOWN", message: "the server is shutting down"))
            return
        }
        guard let method = methods[name] else {
            responder.fail(.methodNotFound(name, suggestion: methods.closestName(to: name)))
            return
        }
        do throws(RPCError) {
            let params = try Params(rawParams, declared: method.params)
            switch method.handler {
            case .immediate(let handler):
                responder.succeed(try handler(params))
            case .immediateEncoded(let handler):
                responder.succeed(encoded: try handler(params))
            case .deferred(let handler):
                try handler(params, responder)
            case .notImplemented:
                throw .notImplemented(name)
            }
        } catch {
            if responder.isAnswered {
                log.error("\(name) threw after answering: \(error.message)")
            } else {
                responder.fail(error)
            }
        }
    }

    private func hold() {
        holds += 1
    }

    private func release() {
        holds -= 1
        guard holds == 0 else { return }
        sendHeldNotifications()
    }

    private func sendHeldNotifications() {
        guard !heldNotifications.isEmpty else { return }
        let released = heldNotifications
        heldNotifications.removeAll()
        for message in released { send(message) }
    }
}

/// Collects the replies of one batch in request order, each encoded as it
/// comes in, and hands them over when the last one is in (notifications
/// leave their slot empty).
private final class BatchReplies {
    private var slots: [[UInt8]?]
    private var missing: Int
    /// The bytes of the replies so far.
    private(set) var replyBytes = 0
    private let complete: ([[UInt8]]) -> Void

    init(count: Int, complete: @escaping ([[UInt8]]) -> Void) {
        slots = Array(repeating: nil, count: count)
        missing = count
        self.complete = complete
    }

    func fill(_ index: Int, with reply: OutgoingMessage?) {
        if let reply {
            let bytes = reply.encoded
            replyBytes += bytes.count
            slots[index] = bytes
        }
        missing -= 1
        if missing == 0 { complete(slots.compactMap { $0 }) }
    }
}
