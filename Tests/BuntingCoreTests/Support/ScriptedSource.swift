import BuntingCore
import BuntingJSON
import Synchronization

/// A definitions source whose document and failures the test sets, and which
/// counts fetches. Engine tests use it with the `InlineWorker`, so a fetch
/// happens at once and its outcome is handled at the loop's next run.
final class ScriptedSource: DefinitionsSource {
    struct State {
        var document: JSON
        var version = 1
        /// Failures returned by the next fetches, in order, before the document again.
        var failures: [SourceError] = []
        var fetches = 0
    }

    let location = "test://definitions"
    let isLocal: Bool
    private let state: Mutex<State>

    init(_ document: JSON, isLocal: Bool = true) {
        self.isLocal = isLocal
        state = Mutex(State(document: document))
    }

    var fetchCount: Int { state.withLock { $0.fetches } }

    /// What the source's server announces (GrowthBook's `x-sse-support`), once `announce` set it.
    private let announcement = Mutex<(any DefinitionsStreamSource)?>(nil)
    var announcedStream: (any DefinitionsStreamSource)? { announcement.withLock { $0 } }
    func announce(_ stream: any DefinitionsStreamSource) { announcement.withLock { $0 = stream } }

    func setDocument(_ document: JSON) {
        state.withLock {
            $0.document = document
            $0.version += 1
        }
    }

    func fail(_ failures: SourceError...) {
        state.withLock { $0.failures += failures }
    }

    func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        state.withLock { state in
            state.fetches += 1
            if !state.failures.isEmpty { return .failed(state.failures.removeFirst()) }
            if version?.fingerprint == "\(state.version)" { return .unchanged }
            return .fetched(state.document.encoded(), SourceVersion(fingerprint: "\(state.version)"))
        }
    }
}

/// A sink that records what it accepted and can be told to fail.
final class RecordingSink: AnalyticsSink {
    let location = "test://sink"
    private let state = Mutex<
        (accepted: [AnalyticsEvent], failures: [SinkError], refusedItems: Set<String>, batches: Int)
    >(([], [], [], 0))

    var accepted: [AnalyticsEvent] { state.withLock { $0.accepted } }
    /// How many deliveries were attempted.
    var batches: Int { state.withLock { $0.batches } }

    /// Refuses (HTTP 400) every batch that holds an event of one of these items.
    func refuse(itemIds: Set<String>) {
        state.withLock { $0.refusedItems = itemIds }
    }

    func fail(_ failures: SinkError...) {
        state.withLock { $0.failures += failures }
    }

    func deliver(_ events: [AnalyticsEvent]) throws(SinkError) {
        let failure: SinkError? = state.withLock { state in
            state.batches += 1
            if !state.failures.isEmpty { return state.failures.removeFirst() }
            if events.contains(where: { state.refusedItems.contains($0.itemId) }) { return .refusedContent("HTTP 400") }
            state.accepted += events
            return nil
        }
        if let failure { throw failure }
    }
}
