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
public final class RPCConnection {
    /// Where framed-to-be messages go, in order (the writer).
    private let send: (JSON) -> Void
    private let methods: MethodTable
    /// How many replies (single or batch) are being put together now.
    private var holds = 0
    private var heldNotifications: [JSON] = []
    /// Set once `shutdown` was answered: later requests are refused.
    public private(set) var isShuttingDown = false

    public init(methods: MethodTable, send: @escaping (JSON) -> Void) {
        self.methods = methods
        self.send = send
    }

    /// Sends a notification, after any reply being put together now.
    public func notify(method: String, params: JSON) {
        let message = OutgoingMessage.notification(method: method, params: params)
        if holds > 0 {
            heldNotifications.append(message)
        } else {
            send(message)
        }
    }

    /// Refuses every request from now on with `SHUTTING_DOWN`.
    public func beginShutdown() {
        isShuttingDown = true
    }

    public func receive(_ item: InboundItem) {
        switch item {
        case .brokenFrame(let problem):
            log.info("framing: \(problem.message)")
            send(OutgoingMessage.failure(id: nil, error: .framing(problem)))
        case .unparsable(let error):
            log.info("unparsable message: \(error.description)")
            send(OutgoingMessage.failure(id: nil, error: .parseError(error)))
        case .message(.array(let elements)):
            receiveBatch(elements)
        case .message(let value):
            hold()
            handle(IncomingMessage(value)) { [self] reply in
                if let reply { send(reply) }
            }
            release()
        }
    }

    private func receiveBatch(_ elements: [JSON]) {
        guard !elements.isEmpty else {
            send(OutgoingMessage.failure(id: nil, error: .invalidRequest("an empty batch is not a request", reason: "EMPTY_BATCH")))
            return
        }
        hold()
        let batch = BatchReplies(count: elements.count) { [self] replies in
            if !replies.isEmpty { send(.array(replies)) }
            release()
        }
        for (index, element) in elements.enumerated() {
            handle(IncomingMessage(element)) { reply in batch.fill(index, with: reply) }
        }
    }

    /// Handles one message; `reply` is called exactly once, with nil for a
    /// notification.
    private func handle(_ message: IncomingMessage, reply: @escaping (JSON?) -> Void) {
        switch message {
        case .invalid(let id, let error):
            reply(OutgoingMessage.failure(id: id, error: error))
        case .notification(let method, let params):
            let responder = Responder(method: method, id: nil) { outcome in
                if case .failure(let error) = outcome {
                    log.debug("notification \(method) failed: \(error.message)")
                }
            }
            dispatch(method, params, responder)
            reply(nil)
        case .request(let id, let method, let params):
            let responder = Responder(method: method, id: id) { outcome in
                switch outcome {
                case .success(let result): reply(OutgoingMessage.success(id: id, result: result))
                case .failure(let error): reply(OutgoingMessage.failure(id: id, error: error))
                }
            }
            dispatch(method, params, responder)
        }
    }

    private func dispatch(_ name: String, _ rawParams: JSON?, _ responder: Responder) {
        if isShuttingDown {
            responder.fail(RPCError(code: .shuttingDown, reason: "SHUTTING_DOWN", message: "the server is shutting down"))
            return
        }
        guard let method = methods[name] else {
            responder.fail(.methodNotFound(name))
            return
        }
        do throws(RPCError) {
            let params = try Params(rawParams, declared: method.params)
            switch method.handler {
            case .immediate(let handler):
                responder.succeed(try handler(params))
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
        guard holds == 0, !heldNotifications.isEmpty else { return }
        let released = heldNotifications
        heldNotifications.removeAll()
        for message in released { send(message) }
    }
}

/// Collects the replies of one batch in request order and hands them over
/// when the last one is in (notifications leave their slot empty).
private final class BatchReplies {
    private var slots: [JSON?]
    private var missing: Int
    private let complete: ([JSON]) -> Void

    init(count: Int, complete: @escaping ([JSON]) -> Void) {
        slots = Array(repeating: nil, count: count)
        missing = count
        self.complete = complete
    }

    func fill(_ index: Int, with reply: JSON?) {
        slots[index] = reply
        missing -= 1
        if missing == 0 { complete(slots.compactMap { $0 }) }
    }
}
