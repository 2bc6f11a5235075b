import BuntingCore
import BuntingJSON
import BuntingRuntime

/// An engine on a loop run by hand, with a manual clock, a scripted source,
/// a recording sink and an in-memory store; it records every notification.
final class EngineHarness {
    let clock = ManualClock(unixTime: 1_750_000_000)
    let loop: EventLoop
    let source: ScriptedSource
    let sink = RecordingSink()
    let store: MemoryStore
    let engine: Engine
    private let recorder = NotificationRecorder()

    static let startTime = 1_750_000_000.0

    init(
        _ document: JSON, store: MemoryStore = MemoryStore(), withSink: Bool = true, localSource: Bool = true,
        settleAtStart: Bool = true, sourceFailures: [SourceFailure] = [],
        configure: (inout Engine.Configuration) -> Void = { _ in }
    ) {
        loop = EventLoop(clock: clock)
        source = ScriptedSource(document, isLocal: localSource)
        for failure in sourceFailures { source.fail(failure) }
        self.store = store
        var configuration = Engine.Configuration()
        configuration.pollInterval = nil
        configuration.flushInterval = 1_000_000
        configuration.retry = RetryPolicy(initialDelay: 1, maxDelay: 30, maxRetries: 3)
        configure(&configuration)
        let recorder = self.recorder
        engine = Engine(
            configuration: configuration, loop: loop, worker: InlineWorker(), source: source,
            compile: StaticDefinitions.compile, sink: withSink ? sink : nil, store: store,
            random: SplitMix64(seed: 7)) { method, params in recorder.record(method, params) }
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

    /// The raw notifications sent since the last call.
    func takeRaw() -> [JSON] {
        settle()
        return recorder.take().map(\.params)
    }

    static func summary(_ notification: (method: String, params: JSON)) -> String {
        let params = notification.params
        let id = params["subscriptionId"]?.stringValue ?? "?"
        let channel = params["channel"]?.stringValue ?? "?"
        if notification.method == "updates" {
            return "\(id) updates \(channel) \(items(params[channel] ?? .null))"
        }
        let type = params["type"]?.stringValue ?? "?"
        var parts = [id, type, channel]
        switch type {
        case "CACHE_REPLAY", "CACHE_LOAD", "DATA_UPDATED":
            if let reason = params["reason"]?.stringValue { parts.append(reason) }
            let snapshot = params["cacheSnapshot"] ?? .null
            parts.append(items(snapshot[channel] ?? .null))
            parts.append("sync=\(syncText(snapshot["lastSyncAt"]))")
        case "ERROR":
            parts.append(params["reason"]?.stringValue ?? "?")
            parts.append(params["retryState"]?.stringValue ?? "?")
            if let until = params["rateLimitedUntil"]?.doubleValue { parts.append("until=+\(Int(until - startTime))") }
        default:
            parts.append(params["action"]?.stringValue ?? "?")
            let item = params["card"] ?? params["banner"] ?? params["flag"] ?? .null
            parts.append(item["id"]?.stringValue ?? "?")
            if let button = params["buttonId"]?.stringValue { parts.append("button=\(button)") }
        }
        return parts.joined(separator: " ")
    }

    /// `[a,b]`: the ids in a channel's data (cards, flags, or placement:banner).
    static func items(_ data: JSON) -> String {
        if let flags = data.arrayValue { return "[" + flags.compactMap { $0["id"]?.stringValue }.joined(separator: ",") + "]" }
        if let cards = data["cards"]?.arrayValue { return "[" + cards.compactMap { $0["id"]?.stringValue }.joined(separator: ",") + "]" }
        if let banners = data.objectValue {
            return "[" + banners.map { "\($0.key):\($0.value["id"]?.stringValue ?? "?")" }.joined(separator: ",") + "]"
        }
        return "[?]"
    }

    static func syncText(_ value: JSON?) -> String {
        guard let seconds = value?.doubleValue else { return "null" }
        return seconds == 0 ? "0" : "+\(Int(seconds - startTime))"
    }
}

/// Notifications in the order they were sent.
final class NotificationRecorder: @unchecked Sendable {
    private var notifications: [(method: String, params: JSON)] = []

    func record(_ method: String, _ params: JSON) { notifications.append((method, params)) }

    func take() -> [(method: String, params: JSON)] {
        defer { notifications.removeAll() }
        return notifications
    }
}
