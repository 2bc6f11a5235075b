import BuntingJSON
import BuntingRuntime

/// Answers one request exactly once.
///
/// Handlers that finish at once return their result; handlers that finish
/// later (a flush waits for the sink) keep the responder and answer through
/// it. Answering twice is a bug and fails loudly; a responder dropped without
/// an answer sends an internal error, so the client is never left waiting.
///
/// `@unchecked Sendable`: used only on the event loop that owns the connection;
/// it crosses threads only inside jobs posted back to that loop.
public final class Responder: @unchecked Sendable {
    public let method: String
    /// Nil for a notification: whatever it is answered is dropped.
    public let id: RequestID?
    private var deliver: ((Result<EncodedJSON, RPCError>) -> Void)?

    init(method: String, id: RequestID?, deliver: @escaping (Result<EncodedJSON, RPCError>) -> Void) {
        self.method = method
        self.id = id
        self.deliver = deliver
    }

    public var isAnswered: Bool { deliver == nil }

    public func succeed(_ result: JSON) { answer(.success(EncodedJSON(result))) }
    /// Answers with a result already written as text.
    public func succeed(encoded result: EncodedJSON) { answer(.success(result)) }
    public func fail(_ error: RPCError) { answer(.failure(error)) }

    public func answer(_ outcome: Result<EncodedJSON, RPCError>) {
        guard let deliver else {
            log.error("\(method) (id \(id?.description ?? "none")) was answered twice; the second answer is dropped")
            assertionFailure("request answered twice")
            return
        }
        self.deliver = nil
        deliver(outcome)
    }

    deinit {
        if let deliver {
            log.error("\(method) (id \(id?.description ?? "none")) finished without an answer")
            deliver(.failure(.internalError("\(method) finished without an answer")))
        }
    }
}
