import BuntingJSON
import BuntingRuntime

/// A `flush` waiting for the sink: how many of its events went out so far.
struct FlushRequest {
    /// Keep flushing until the queue is empty (explicit flush, shutdown), or
    /// send one batch (the periodic flush sends the rest on its next tick).
    let all: Bool
    var flushed = 0
    let done: (_ flushed: Int, _ pending: Int) -> Void
}

/// Impressions, clicks and dismissals: checked, stored before ENQUEUED is
/// sent, delivered to the sink in batches, and FLUSHED once it accepted them.
/// Delivering queued analytics to the sink in batches: FLUSHED once it
/// accepted them, the failure model when it did not.
extension Engine {
    /// Sends queued events to the sink and calls `done` with how many went out
    /// and how many are still queued, once the sink answered. Without a sink
    /// nothing is sent and everything stays queued.
    public func flush(all: Bool = true, _ done: @escaping (_ flushed: Int, _ pending: Int) -> Void) {
        guard sink != nil, profile.sdkEnabled, store.queuedEventCount > 0 else {
            return done(0, store.queuedEventCount)
        }
        flushRequests.append(FlushRequest(all: all, done: done))
        if !flushInFlight && flushRetryTimer == nil { sendBatch() }
    }

    func scheduleFlush() {
        guard sink != nil, !isShutDown else { return }
        flushTimer = loop.schedule(after: configuration.flushInterval) { [self] in
            if store.queuedEventCount > 0 && !flushInFlight && flushRetryTimer == nil && profile.sdkEnabled {
                flush(all: true) { _, _ in }
            }
            scheduleFlush()
        }
    }

    func sendBatch() {
        guard let sink else { return }
        let batch = store.queuedEvents(limit: configuration.maxBatchSize)
        guard !batch.isEmpty else { return finishFlushRequests() }
        flushInFlight = true
        worker.run({ () -> SinkFailure? in
            do throws(SinkFailure) {
                try sink.deliver(batch)
                return nil
            } catch {
                return error
            }
        }, then: { [self] failure in
            flushInFlight = false
            if let failure {
                batchFailed(batch, failure)
            } else {
                batchAccepted(batch)
            }
        }, on: loop)
    }

    func batchAccepted(_ batch: [AnalyticsEvent]) {
        flushFailedTries = 0
        do {
            try store.removeEvents(batch.map(\.eventId))
        } catch {
            // They were delivered; a re-send after restart carries the same ids.
            log.error("cannot remove sent events from the queue: \(error.message)")
        }
        // A flush's reply comes before the FLUSHED events it caused: they wait for it.
        flushedAwaitingReply += batch
        for index in flushRequests.indices { flushRequests[index].flushed += batch.count }
        let wantsMore = flushRequests.contains { $0.all }
        if wantsMore && store.queuedEventCount > 0 {
            sendBatch()
        } else {
            finishFlushRequests()
        }
    }

    /// The sink refused: ERROR to each channel in the batch, answer waiting
    /// flushes, and retry later unless the failure says not to.
    func batchFailed(_ batch: [AnalyticsEvent], _ failure: SinkFailure) {
        flushFailedTries += 1
        log.warning("the analytics sink \(sink?.location ?? "") failed: \(failure.message)")
        let willRetry = failure.isRetried && configuration.retry.retries(afterFailedTries: flushFailedTries)
        let until = failure.retryAfter
        var channels: [Channel] = []
        for event in batch where !channels.contains(event.channel) { channels.append(event.channel) }
        for channel in channels {
            sendError(channel, failure.errorReason, willRetry ? .sdkWillRetry : failure.givenUpState, until: until, message: "analytics not delivered: \(failure.message)")
        }
        finishFlushRequests()
        if willRetry {
            let delay = retryDelay(for: failure, afterFailedTries: flushFailedTries)
            flushRetryTimer = loop.schedule(after: delay) { [self] in
                flushRetryTimer = nil
                guard profile.sdkEnabled, !isShutDown else { return }
                flush(all: true) { _, _ in }
            }
        } else {
            // The periodic flush tries again later with a fresh count.
            flushFailedTries = 0
        }
    }

    func finishFlushRequests() {
        let requests = flushRequests
        flushRequests.removeAll()
        let pending = store.queuedEventCount
        for request in requests { request.done(request.flushed, pending) }
        let flushed = flushedAwaitingReply
        flushedAwaitingReply.removeAll()
        for event in flushed {
            sendAnalytics(event.channel, AnalyticsNotice(
                kind: event.kind, action: .flushed, eventId: event.eventId, item: event.item, buttonId: event.buttonId))
        }
    }
}
