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

/// Delivering queued analytics to the sink in batches: FLUSHED once it
/// accepted them, the failure model when it did not.
extension Engine {
    /// Sends queued events to the sink and calls `done` with how many went out
    /// and how many are still queued, once the sink answered. Without a sink
    /// nothing is sent and everything stays queued. A flush asked for tries at
    /// once, rather than waiting for a retry that is scheduled.
    public func flush(all: Bool = true, _ done: @escaping (_ flushed: Int, _ pending: Int) -> Void) {
        guard sink != nil, profile.sdkEnabled, store.queuedEventCount > 0 else {
            return done(0, store.queuedEventCount)
        }
        flushRequests.append(FlushRequest(all: all, done: done))
        if let retry = flushRetryTimer {
            loop.cancel(retry)
            flushRetryTimer = nil
        }
        if !flushInFlight { sendBatch() }
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
        let batch = isolation?.segments.popLast() ?? store.queuedEvents(limit: configuration.maxBatchSize)
        guard !batch.isEmpty else { return finishFlushRequests() }
        deliver(batch)
    }

    private func deliver(_ batch: [AnalyticsEvent]) {
        guard let sink else { return }
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
        if isolation != nil {
            isolation?.accepted = true
            return continueIsolating()
        }
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
        if case .refusedContent = failure {
            // The sink refused what the batch holds: find the events it refuses.
            if isolation == nil {
                log.info("the analytics sink \(sink?.location ?? "") refused a batch of \(batch.count) (\(failure.message)); "
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

    // MARK: - Refused events

    /// Sends the next part of a refused batch, or, when every part has been
    /// tried, deals with the events refused alone: when the sink accepted
    /// others meanwhile, they are the ones it cannot take — each is dropped,
    /// with an ERROR and a log line, instead of blocking the queue for ever;
    /// when it accepted none, the sink refuses everything and the events stay
    /// queued, reported as any refusal is.
    func continueIsolating() {
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
                log.warning("the analytics sink refused event \(event.eventId) (\(event.kind.rawValue) of \(event.itemId)): "
                    + "\(isolation.failure.message); it is dropped")
                sendError(event.channel, .clientError, .doNotRetry,
                          message: "analytics event \(event.eventId) (\(event.kind.rawValue) of \(event.itemId)) was refused by the sink (\(isolation.failure.message)) and dropped")
            }
            isolation.suspects.removeAll()
            let wantsMore = flushRequests.contains { $0.all }
            return wantsMore && store.queuedEventCount > 0 ? sendBatch() : finishFlushRequests()
        }
        batchFailed(isolation.suspects, .clientError(isolation.failure.message))
    }
}

/// A batch the sink refused for what it holds, cut in halves until the
/// events it refuses stand alone.
struct BatchIsolation {
    let failure: SinkFailure
    /// Parts still to send; the last is sent next.
    var segments: [[AnalyticsEvent]] = []
    /// Events refused on their own.
    var suspects: [AnalyticsEvent] = []
    /// The sink accepted at least one part: it can take events, so the ones
    /// it refuses alone are at fault.
    var accepted = false
}
