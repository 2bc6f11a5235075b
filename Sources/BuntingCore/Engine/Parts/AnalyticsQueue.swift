import BuntingJSON
import BuntingRuntime

/// What the queue needs of the engine it works for.
protocol AnalyticsQueueDelegate: AnyObject {
    var isSDKEnabled: Bool { get }
    /// ENQUEUED or FLUSHED of one event, to the subscriptions it concerns.
    func sendAnalytics(_ channel: Channel, _ notice: AnalyticsNotice)
    func sendError(_ channel: Channel, _ error: ChannelProblem)
}

/// A `flush` waiting for the sink: how many of its events went out so far.
struct FlushRequest {
    /// Keep flushing until the queue is empty (explicit flush, shutdown), or
    /// send one batch (the periodic flush sends the rest on its next tick).
    let all: Bool
    var flushed = 0
    let done: (_ flushed: Int, _ pending: Int) -> Void
}

/// The analytics queue: events stored before their ENQUEUED, delivered to
/// the sink in batches (FLUSHED once it accepted them), retried as the
/// failure model says, bounded with the oldest dropped loudly, and events
/// the sink refuses on their own found and dropped. Owned by the engine's
/// loop; the queue itself is in the store, so it survives a crash.
///
/// `@unchecked Sendable`: confined to the loop; captured by jobs that the
/// worker posts back to that loop only.
final class AnalyticsQueue: @unchecked Sendable {
    private let store: any Store
    private let sink: (any AnalyticsSink)?
    private let worker: any Worker
    private let loop: EventLoop
    private let retry: RetryPolicy
    private let flushInterval: Double
    private let maxBatchSize: Int
    private let maxQueuedEvents: Int
    private let random: RandomSource
    weak var delegate: (any AnalyticsQueueDelegate)?

    // MARK: State

    private var inFlight = false
    private var failedTries = 0
    private var retryTimer: EventLoop.TimerToken?
    private var flushTimer: EventLoop.TimerToken?
    /// Monotonic time before which the periodic flush waits: the sink's last
    /// Retry-After outlives the retry cycle that gave up.
    private var periodicFlushWaitsUntil: Double?
    private var requests: [FlushRequest] = []
    /// Events the sink accepted whose FLUSHED waits for the flush's reply.
    private var flushedAwaitingReply: [AnalyticsEvent] = []
    /// A refused batch being searched for the events the sink refuses.
    private var isolation: BatchIsolation?
    private var isShutDown = false

    init(
        store: any Store, sink: (any AnalyticsSink)?, worker: any Worker, loop: EventLoop, retry: RetryPolicy,
        flushInterval: Double, maxBatchSize: Int, maxQueuedEvents: Int, random: RandomSource
    ) {
        self.store = store
        self.sink = sink
        self.worker = worker
        self.loop = loop
        self.retry = retry
        self.flushInterval = flushInterval
        self.maxBatchSize = maxBatchSize
        self.maxQueuedEvents = maxQueuedEvents
        self.random = random
    }

    var hasSink: Bool { sink != nil }
    var count: Int { store.queuedEventCount }
    private var now: Double { loop.clock.unixTime() }

    // MARK: - Queueing

    /// Stores `event` (so it survives a crash), first dropping the oldest
    /// when the queue is full; the caller then tells its ENQUEUED.
    func enqueue(_ event: AnalyticsEvent) throws(StoreError) {
        dropOldestIfFull()
        do {
            try store.enqueue(event)
        } catch {
            log.error("analytics event refused: \(error.message)")
            throw error
        }
    }

    /// Keeps the queue within its limit by dropping the oldest events, never
    /// silently: a log line and an ERROR to the channels that lost events.
    private func dropOldestIfFull() {
        let excess = store.queuedEventCount - maxQueuedEvents + 1
        guard excess > 0 else { return }
        let dropped = store.queuedEvents(limit: excess)
        do {
            try store.removeEvents(dropped.map(\.eventId))
        } catch {
            log.error("cannot drop old events: \(error.message)")
            return
        }
        log.warning("analytics queue full (\(maxQueuedEvents) events): dropped the \(dropped.count) oldest")
        for channel in Self.channels(of: dropped) {
            delegate?.sendError(
                channel,
                ChannelProblem(.clientError, .doNotRetry, message: "analytics queue full: dropped the oldest events")
            )
        }
    }

    // MARK: - Flushing

    /// Starts the periodic flush.
    func start() {
        scheduleFlush()
    }

    /// No more periodic flushes or retries; a flush asked for still runs.
    func shutDown() {
        isShutDown = true
        for timer in [flushTimer, retryTimer].compactMap({ $0 }) { loop.cancel(timer) }
        flushTimer = nil
        retryTimer = nil
    }

    /// The SDK was turned off: nothing is retried.
    func pause() {
        if let retryTimer { loop.cancel(retryTimer) }
        retryTimer = nil
    }

    /// Sends queued events to the sink and calls `done` with how many went out
    /// and how many are still queued, once the sink answered. Without a sink
    /// nothing is sent and everything stays queued. A flush asked for tries at
    /// once, rather than waiting for a retry that is scheduled.
    func flush(all: Bool = true, _ done: @escaping (_ flushed: Int, _ pending: Int) -> Void) {
        guard sink != nil, delegate?.isSDKEnabled ?? false, store.queuedEventCount > 0 else {
            return done(0, store.queuedEventCount)
        }
        requests.append(FlushRequest(all: all, done: done))
        if let retry = retryTimer {
            loop.cancel(retry)
            retryTimer = nil
        }
        if !inFlight { sendBatch() }
    }

    private func scheduleFlush() {
        guard sink != nil, !isShutDown else { return }
        flushTimer = loop.schedule(after: flushInterval) { [self] in
            if let until = periodicFlushWaitsUntil, loop.clock.monotonicTime() < until {
                // The sink asked to be left alone until then.
            } else if store.queuedEventCount > 0 && !inFlight && retryTimer == nil && (delegate?.isSDKEnabled ?? false)
            {
                periodicFlushWaitsUntil = nil
                flush(all: true) { _, _ in }
            }
            scheduleFlush()
        }
    }

    private func sendBatch() {
        let batch = isolation?.segments.popLast() ?? store.queuedEvents(limit: maxBatchSize)
        guard !batch.isEmpty else { return finishRequests() }
        deliver(batch)
    }

    private func deliver(_ batch: [AnalyticsEvent]) {
        guard let sink else { return }
        inFlight = true
        worker.run(
            { () -> SinkError? in
                do throws(SinkError) {
                    try sink.deliver(batch)
                    return nil
                } catch {
                    return error
                }
            },
            then: { [self] failure in
                inFlight = false
                if let failure {
                    batchFailed(batch, failure)
                } else {
                    batchAccepted(batch)
                }
            }, on: loop)
    }

    private func batchAccepted(_ batch: [AnalyticsEvent]) {
        failedTries = 0
        do {
            try store.removeEvents(batch.map(\.eventId))
        } catch {
            // They were delivered; a re-send after restart carries the same ids.
            log.error("cannot remove sent events from the queue: \(error.message)")
        }
        // A flush's reply comes before the FLUSHED events it caused: they wait for it.
        flushedAwaitingReply += batch
        for index in requests.indices { requests[index].flushed += batch.count }
        if isolation != nil {
            isolation?.accepted = true
            return continueIsolating()
        }
        let wantsMore = requests.contains { $0.all }
        if wantsMore && store.queuedEventCount > 0 {
            sendBatch()
        } else {
            finishRequests()
        }
    }

    /// The sink refused: ERROR to each channel in the batch, answer waiting
    /// flushes, and retry later unless the failure says not to.
    private func batchFailed(_ batch: [AnalyticsEvent], _ received: SinkError) {
        // A Retry-After is taken up to --retry-max-delay from now (see DefinitionsFetcher).
        let failure = received.clampingRetryAfter(to: now + retry.maxDelay)
        if case .refusedContent = failure {
            // The sink refused what the batch holds: find the events it refuses.
            if isolation == nil {
                log.info(
                    "the analytics sink \(sink?.location ?? "") refused "
                        + "a batch of \(batch.count) (\(failure.message)); "
                        + "sending it in smaller parts to find the events it refuses")
                isolation = BatchIsolation(failure: failure)
            }
            if batch.count > 1 {
                let half = batch.count / 2
                isolation?.segments += [Array(batch[half...]), Array(batch[..<half])]
            } else {
                isolation?.suspects += batch
            }
            return continueIsolating()
        }
        isolation = nil
        failedTries += 1
        log.warning("the analytics sink \(sink?.location ?? "") failed: \(failure.message)")
        let willRetry = failure.isRetried && retry.retries(afterFailedTries: failedTries)
        let until = failure.retryAfter
        for channel in Self.channels(of: batch) {
            delegate?.sendError(
                channel,
                ChannelProblem(
                    failure.errorReason, willRetry ? .sdkWillRetry : failure.givenUpState, rateLimitedUntil: until,
                    message: "analytics not delivered: \(failure.message)"))
        }
        finishRequests()
        if willRetry {
            let delay = until.map { max(0, $0 - now) } ?? random.delay(retry, beforeRetry: failedTries)
            retryTimer = loop.schedule(after: delay) { [self] in
                retryTimer = nil
                guard delegate?.isSDKEnabled ?? false, !isShutDown else { return }
                flush(all: true) { _, _ in }
            }
        } else {
            // The periodic flush tries again later with a fresh count, once
            // the time the sink asked for has passed.
            failedTries = 0
            if let until { periodicFlushWaitsUntil = loop.clock.monotonicTime() + max(0, until - now) }
        }
    }

    private func finishRequests() {
        let finished = requests
        requests.removeAll()
        let pending = store.queuedEventCount
        for request in finished { request.done(request.flushed, pending) }
        let flushed = flushedAwaitingReply
        flushedAwaitingReply.removeAll()
        for event in flushed {
            delegate?.sendAnalytics(
                event.channel,
                AnalyticsNotice(
                    kind: event.kind, action: .flushed, eventId: event.eventId, item: event.item,
                    buttonId: event.buttonId))
        }
    }

    // MARK: - Refused events

    /// Sends the next part of a refused batch, or, when every part has been
    /// tried, deals with the events refused alone: when the sink accepted
    /// others meanwhile, they are the ones it cannot take — each is dropped,
    /// with an ERROR and a log line, instead of blocking the queue for ever;
    /// when it accepted none, the sink refuses everything and the events stay
    /// queued, reported as any refusal is.
    private func continueIsolating() {
        guard var isolation else { return }
        if !isolation.segments.isEmpty { return sendBatch() }
        self.isolation = nil
        if isolation.accepted {
            do {
                try store.removeEvents(isolation.suspects.map(\.eventId))
            } catch {
                log.error("cannot drop refused events: \(error.message)")
            }
            for event in isolation.suspects {
                log.warning(
                    "the analytics sink refused event \(event.eventId) "
                        + "(\(event.kind.rawValue) of \(event.itemId)): "
                        + "\(isolation.failure.message); it is dropped")
                delegate?.sendError(
                    event.channel,
                    ChannelProblem(
                        .clientError, .doNotRetry,
                        message: "analytics event \(event.eventId) (\(event.kind.rawValue) of \(event.itemId)) "
                            + "was refused by the sink (\(isolation.failure.message)) and dropped"))
            }
            isolation.suspects.removeAll()
            let wantsMore = requests.contains { $0.all }
            return wantsMore && store.queuedEventCount > 0 ? sendBatch() : finishRequests()
        }
        batchFailed(isolation.suspects, .clientError(isolation.failure.message))
    }

    /// The distinct channels of `events`, in first-seen order.
    private static func channels(of events: [AnalyticsEvent]) -> [Channel] {
        var channels: [Channel] = []
        for event in events where !channels.contains(event.channel) { channels.append(event.channel) }
        return channels
    }
}

/// A batch the sink refused for what it holds, cut in halves until the
/// events it refuses stand alone.
struct BatchIsolation {
    let failure: SinkError
    /// Parts still to send; the last is sent next.
    var segments: [[AnalyticsEvent]] = []
    /// Events refused on their own.
    var suspects: [AnalyticsEvent] = []
    /// The sink accepted at least one part: it can take events, so the ones
    /// it refuses alone are at fault.
    var accepted = false
}
