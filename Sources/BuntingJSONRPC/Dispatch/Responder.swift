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
    /// A result whose text would be longer is answered `REPLY_TOO_LARGE`.
    public let maxResultBytes: Int
    private var deliver: ((Result<EncodedJSON, RPCError>) -> Void)?
    /// Writes the notifications held for this request's reply so far; nil
    /// inside a batch, whose array comes before the notifications of all its items.
    private let releaseHeldNotifications: (() -> Void)?

    init(
        method: String, id: RequestID?, maxResultBytes: Int = .max, releaseHeldNotifications: (() -> Void)? = nil,
        deliver: @escaping (Result<EncodedJSON, RPCError>) -> Void
    ) {
        self.method = method
        self.id = id
        self.maxResultBytes = maxResultBytes
        self.releaseHeldNotifications = releaseHeldNotifications
        self.deliver = deliver
    }

    public var isAnswered: Bool { deliver == nil }

    /// Answers with `result`, or with `REPLY_TOO_LARGE` when its text would
    /// pass `maxResultBytes` (told before the text is written).
    public func succeed(_ result: JSON) {
        guard result.encodedSize(isAtMost: maxResultBytes) else { return fail(tooLarge) }
        succeed(encoded: EncodedJSON(result))
    }

    /// Answers with a result already written as text.
    public func succeed(encoded result: EncodedJSON) {
        guard result.bytes.count <= maxResultBytes else { return fail(tooLarge) }
        answer(.success(result))
    }

    private var tooLarge: RPCError {
        .invalidRequest(
            "the result of this request would pass \(maxResultBytes) "
                + "bytes, the most one reply may hold; nothing was sent "
                + "(ask for less at a time, or raise --max-reply-size)",
            reason: "REPLY_TOO_LARGE")
    }
    public func fail(_ error: RPCError) { answer(.failure(error)) }

    /// Answers after the notifications the request caused so far, rather
    /// than before them: for a reply that says what it caused is over (a
    /// manual clock moved past timers whose events must be seen first).
    /// Inside a batch the batch's order holds: its array comes first.
    public func succeedAfterItsNotifications(_ result: JSON) {
        if !isAnswered { releaseHeldNotifications?() }
        succeed(result)
    }

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
