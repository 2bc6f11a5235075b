import BuntingCore
import BuntingJSON
import BuntingRuntime

/// An engine on a loop run by hand, with a manual clock, a scripted source
/// (and stream, when given), a recording sink and an in-memory store; it
/// records every notification.
final class EngineHarness {
    let clock = ManualClock(unixTime: 1_750_000_000)
    let loop: EventLoop
    let source: ScriptedSource
    let sink = RecordingSink()
    let store: MemoryStore
    /// The engine's store: `store`, recording the caches' texts.
    let recordingStore: TextRecordingStore
    let engine: Engine
    private let recorder = NotificationRecorder()

    static let startTime = 1_750_000_000.0

    init(
        _ document: JSON, store: MemoryStore = MemoryStore(), withSink: Bool = true, localSource: Bool = true,
        settleAtStart: Bool = true, sourceFailures: [SourceError] = [], stream: ScriptedStream? = nil,
        worker: any Worker = InlineWorker(), configure: (inout Engine.Configuration) -> Void = { _ in }
    ) {
        loop = EventLoop(clock: clock)
        source = ScriptedSource(document, isLocal: localSource)
        for failure in sourceFailures { source.fail(failure) }
        self.store = store
        recordingStore = TextRecordingStore(store)
        var configuration = Engine.Configuration()
        configuration.pollInterval = nil
        configuration.flushInterval = 1_000_000
        configuration.retry = RetryPolicy(initialDelay: 1, maxDelay: 30, maxRetries: 3)
        configure(&configuration)
        let recorder = self.recorder
        engine = Engine(
            configuration: configuration, loop: loop, worker: worker, source: source,
            compile: StaticDefinitions.compile, stream: stream, sink: withSink ? sink : nil, store: recordingStore,
            random: SplitMix64(seed: 7)
        ) { event in recorder.record(event) }
        recordingStore.notificationsSent = { recorder.recordedCount }
        engine.start()
        if settleAtStart { loop.runPending() }
    }

    /// Runs queued jobs and due timers.
    func settle() { loop.runPending() }

    /// Finishes what is due now, then moves the clock and runs what became due.
    func advance(_ seconds: Double) {
        loop.runPending()
        clock.advance(by: seconds)
        loop.runPending()
    }

    /// The notifications sent since the last call, each as one readable line:
    /// `sub-1 DATA_UPDATED featureFlags AUTO_SERVER_REFRESH [a,b] sync=…`.
    func take() -> [String] {
        settle()
        return recorder.take().map(Self.summary)
    }

    /// The notifications sent since the last call, without running the loop:
    /// what a request's own handling emitted.
    func takeWithoutRunning() -> [String] {
        recorder.take().map(Self.summary)
    }

    /// The events sent since the last call.
    func takeRaw() -> [EngineEvent] {
        settle()
        return recorder.take()
    }

    static func summary(_ event: EngineEvent) -> String {
        guard let target = event.target else {
            guard case .definitions(let id, let notice) = event else { return "?" }
            switch notice {
            case .ready: return "\(id) definitions READY"
            case .changed(_, let flags): return "\(id) definitions CHANGED [\(flags.joined(separator: ","))]"
            case .error(let error, let stale): return "\(id) definitions ERROR \(name(error.reason)) stale=\(stale)"
            }
        }
        var parts = [target.subscriptionId]
        func snapshot(_ type: String, _ snapshot: ChannelSnapshot, _ reason: String?) {
            parts += [type, target.channel.rawValue]
            if let reason { parts.append(reason) }
            parts.append(items(snapshot.data))
            parts.append("sync=\(syncText(snapshot.lastSyncAt))")
        }
        switch event {
        case .definitions:
            return "?"
        case .updates(_, let data):
            return "\(target.subscriptionId) updates \(target.channel.rawValue) \(items(data.data))"
        case .cacheReplay(_, let data): snapshot("CACHE_REPLAY", data, nil)
        case .cacheLoad(_, let data): snapshot("CACHE_LOAD", data, nil)
        case .dataUpdated(_, let data, let reason): snapshot("DATA_UPDATED", data, name(reason))
        case .error(_, let error):
            parts += ["ERROR", target.channel.rawValue, name(error.reason), name(error.retryState)]
            if let until = error.rateLimitedUntil { parts.append("until=+\(Int(until - startTime))") }
        case .analytics(_, let notice):
            parts += [notice.kind.rawValue.uppercased(), target.channel.rawValue]
            parts.append(notice.action == .enqueued ? "ENQUEUED" : "FLUSHED")
            parts.append(notice.item["id"]?.stringValue ?? "?")
            if let button = notice.buttonId { parts.append("button=\(button)") }
        }
        return parts.joined(separator: " ")
    }

    static func name(_ reason: DataUpdatedReason) -> String {
        switch reason {
        case .autoServerRefresh: "AUTO_SERVER_REFRESH"
        case .manualServerRefresh: "MANUAL_SERVER_REFRESH"
        case .clientAction: "CLIENT_ACTION"
        }
    }

    static func name(_ reason: ErrorReason) -> String {
        switch reason {
        case .serverError: "SERVER_ERROR"
        case .clientError: "CLIENT_ERROR"
        case .rateLimited: "RATE_LIMITED"
        case .sdkDisabled: "SDK_DISABLED"
        case .invalidServerData: "INVALID_SERVER_DATA"
        case .featureDisabled: "FEATURE_DISABLED"
        }
    }

    static func name(_ state: RetryState) -> String {
        switch state {
        case .sdkWillRetry: "SDK_WILL_RETRY"
        case .integratorMayRetry: "INTEGRATOR_MAY_RETRY"
        case .doNotRetry: "DO_NOT_RETRY"
        }
    }

    /// `[a,b]`: the ids in a channel's data (cards, flags, or placement:banner).
    static func items(_ data: JSON) -> String {
        if let flags = data.arrayValue {
            return "[" + flags.compactMap { $0["id"]?.stringValue }.joined(separator: ",") + "]"
        }
        if let cards = data["cards"]?.arrayValue {
            return "[" + cards.compactMap { $0["id"]?.stringValue }.joined(separator: ",") + "]"
        }
        if let banners = data.objectValue {
            return "[" + banners.map { "\($0.key):\($0.value["id"]?.stringValue ?? "?")" }.joined(separator: ",") + "]"
        }
        return "[?]"
    }

    static func syncText(_ value: Double?) -> String {
        guard let seconds = value else { return "null" }
        return seconds == 0 ? "0" : "+\(Int(seconds - startTime))"
    }
}

/// Events in the order they were sent.
final class NotificationRecorder: @unchecked Sendable {
    private var events: [EngineEvent] = []
    /// Every notification recorded so far, taken or not.
    private(set) var recordedCount = 0

    func record(_ event: EngineEvent) {
        events.append(event)
        recordedCount += 1
    }

    func take() -> [EngineEvent] {
        defer { events.removeAll() }
        return events
    }
}
