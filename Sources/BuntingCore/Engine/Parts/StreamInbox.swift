import BuntingRuntime

/// What one stream connection reported since the loop last looked, gathered
/// on the connection's thread and taken by the loop in one go. It stays
/// small however fast events come: a count, the last document (the last one
/// wins: an older one would be replaced at once anyway), whether a fetch was
/// asked for, the last id and `retry:`; and at most one delivery to the loop
/// is waiting at any time, so 10,000 events a second cost the loop a few
/// turns, not 10,000 jobs, and buffer one document, not 10,000.
///
/// `@unchecked Sendable`: `batch` and `deliveryWaiting` are guarded by
/// `lock` (a pthread mutex, which ThreadSanitizer sees).
final class StreamInbox: @unchecked Sendable {
    /// What the loop takes: in the order it happened, `opened` first and `ended` last.
    struct Batch {
        var opened = false
        var events = 0
        /// The last event that carried a whole document.
        var document: [UInt8]?
        /// An event asked for the definitions to be fetched again.
        var refetch = false
        /// An event larger than the limit went by (the limit).
        var oversized: Int?
        var lastEventId: String?
        /// `retry:`, in seconds.
        var retry: Double?
        var ended: RemoteError?
    }

    /// What an event means for the definitions.
    enum Meaning: Equatable {
        case document
        case refetch
        case ignored
    }

    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var batch = Batch()
    /// Guarded by `lock`: a delivery is posted to the loop and has not taken the batch yet.
    private var deliveryWaiting = false
    private let loop: EventLoop
    private let deliver: @Sendable (StreamInbox) -> Void

    /// `deliver` runs on `loop`, given this inbox, and takes the batch.
    init(loop: EventLoop, deliver: @escaping @Sendable (StreamInbox) -> Void) {
        self.loop = loop
        self.deliver = deliver
    }

    /// From the connection's thread.
    func receive(_ report: StreamReport) {
        let post = lock.withLock { () -> Bool in
            switch report {
            case .opened:
                batch.opened = true
            case .event(let event):
                batch.events += 1
                switch Self.meaning(of: event) {
                case .document: batch.document = event.data
                case .refetch: batch.refetch = true
                case .ignored: break
                }
            case .lastEventId(let id):
                batch.lastEventId = id
            case .retry(let seconds):
                batch.retry = seconds
            case .oversized(let limit):
                batch.events += 1
                batch.oversized = limit
            case .ended(let failure):
                batch.ended = failure
            }
            guard !deliveryWaiting else { return false }
            deliveryWaiting = true
            return true
        }
        if post { loop.post { [self] in deliver(self) } }
    }

    /// On the loop: everything reported since the last call.
    func take() -> Batch {
        lock.withLock {
            defer {
                batch = Batch()
                deliveryWaiting = false
            }
            return batch
        }
    }

    /// GrowthBook's `features-updated` asks for a fetch; an event of the
    /// default type (`message`), `features` (GrowthBook's) or `definitions`
    /// carries a document, unless its data is an empty object, which also
    /// asks for a fetch; events of other types (pings, say) are not about
    /// the definitions.
    static func meaning(of event: StreamEvent) -> Meaning {
        switch event.type {
        case "features-updated":
            return .refetch
        case "message", "features", "definitions":
            // Only a short text can be empty; a document is not copied to find out.
            guard event.data.count <= 64 else { return .document }
            let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            let text = event.data.filter { !isSpace($0) }
            return text.isEmpty || text == Array("{}".utf8) ? .refetch : .document
        default:
            return .ignored
        }
    }
}
