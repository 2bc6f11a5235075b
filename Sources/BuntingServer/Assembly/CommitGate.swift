import BuntingCore
import BuntingJSON
import BuntingRuntime

/// Commits the store before the client can see what its writes report, and
/// tells the client what the store could not keep.
///
/// An ENQUEUED is a promise that the next commit keeps: the gate notes each
/// one as the engine sends it, and when that commit fails, each subscription
/// that was told ENQUEUED of an event left in memory gets an ERROR
/// CLIENT_ERROR/DO_NOT_RETRY saying so; a damaged file the store replaced is
/// told to every subscription. Owned by the server's loop.
final class CommitGate {
    private let store: any Store
    /// The ENQUEUED events sent since the last commit, and to whom.
    private var promised: [(eventId: String, target: EventTarget)] = []

    init(store: any Store) {
        self.store = store
    }

    /// Notes what the engine sends, before it is staged.
    func sent(_ event: EngineEvent) {
        guard case .analytics(let target, let notice) = event, notice.action == .enqueued else { return }
        promised.append((notice.eventId, target))
    }

    /// Commits the writes made since the last call (before output reaches
    /// the client, and at the end of every turn), and tells what was not kept.
    func commit(engine: Engine, send: (EngineEvent) -> Void) {
        let trouble = store.commitPending()
        defer { promised.removeAll(keepingCapacity: true) }
        guard let trouble else { return }
        if let problem = trouble.storageProblem { engine.reportStorageProblem(problem) }
        guard !trouble.eventIdsInMemory.isEmpty else { return }
        let inMemory = Set(trouble.eventIdsInMemory)
        var told: [(target: EventTarget, count: Int)] = []
        for promise in promised where inMemory.contains(promise.eventId) {
            if let index = told.firstIndex(where: { $0.target == promise.target }) {
                told[index].count += 1
            } else {
                told.append((promise.target, 1))
            }
        }
        for (target, count) in told {
            send(.error(target, ChannelProblem(.clientError, .doNotRetry, message: trouble.message(forEvents: count))))
        }
    }
}
