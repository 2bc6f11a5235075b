import BuntingCore
import BuntingJSON

/// An in-memory store that says which analytics events a commit made
/// durable, so that a test can check that no ENQUEUED is written before the
/// commit of its event.
final class CommitRecordingStore: Store {
    private let memory = MemoryStore()
    /// Ids of events enqueued since the last commit.
    private var pending: [String] = []
    /// Ids of every event a commit covered.
    private(set) var committed: Set<String> = []
    private(set) var commits = 0

    func loadProfile() -> StoredProfile? { memory.loadProfile() }
    func saveProfile(_ profile: StoredProfile) throws(StoreError) { try memory.saveProfile(profile) }
    func loadUser(_ user: String, caches: Bool) -> StoredUser { memory.loadUser(user, caches: caches) }
    func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError) {
        try memory.saveChannelCache(user: user, channel: channel, encoded: cache)
    }
    func saveItemState(user: String, channel: Channel, itemId: String, state: ItemState) throws(StoreError) {
        try memory.saveItemState(user: user, channel: channel, itemId: itemId, state: state)
    }
    func saveAttributes(user: String, attributes: JSONObject) throws(StoreError) {
        try memory.saveAttributes(user: user, attributes: attributes)
    }
    func loadStickyDocuments(_ keys: [(name: String, value: String)]) -> [StickyDocument] {
        memory.loadStickyDocuments(keys)
    }
    func saveStickyDocument(_ document: StickyDocument) throws(StoreError) { try memory.saveStickyDocument(document) }
    func wipe() throws(StoreError) { try memory.wipe() }
    func enqueue(_ event: AnalyticsEvent) throws(StoreError) {
        try memory.enqueue(event)
        pending.append(event.eventId)
    }
    func queuedEvents(limit: Int) -> [AnalyticsEvent] { memory.queuedEvents(limit: limit) }
    var queuedEventCount: Int { memory.queuedEventCount }
    func removeEvents(_ eventIds: [String]) throws(StoreError) { try memory.removeEvents(eventIds) }

    func commitPending() -> StoreTrouble? {
        commits += 1
        committed.formUnion(pending)
        pending.removeAll()
        return nil
    }
}
