import BuntingCore
import BuntingJSON

/// A `MemoryStore` that also records each channel cache's text as the engine
/// wrote it for the store (the memory store itself keeps only its value).
final class TextRecordingStore: Store {
    let memory: MemoryStore
    /// Every `saveChannelCache`, in order.
    private(set) var savedTexts: [(user: String, channel: Channel, text: [UInt8])] = []
    /// How many notifications the engine had sent when each cache was saved (as `savedTexts`).
    private(set) var notificationsBeforeSave: [Int] = []
    /// Counts the notifications the engine has sent (set by the harness).
    var notificationsSent: () -> Int = { 0 }

    init(_ memory: MemoryStore) { self.memory = memory }

    /// The texts saved for `user`'s `channel`, oldest first.
    func texts(_ user: String, _ channel: Channel) -> [[UInt8]] {
        savedTexts.filter { $0.user == user && $0.channel == channel }.map(\.text)
    }

    func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError) {
        savedTexts.append((user, channel, cache.bytes))
        notificationsBeforeSave.append(notificationsSent())
        try memory.saveChannelCache(user: user, channel: channel, encoded: cache)
    }

    func loadProfile() -> StoredProfile? { memory.loadProfile() }
    func saveProfile(_ profile: StoredProfile) throws(StoreError) { try memory.saveProfile(profile) }
    func loadUser(_ user: String, caches: Bool) -> StoredUser { memory.loadUser(user, caches: caches) }
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
    func enqueue(_ event: AnalyticsEvent) throws(StoreError) { try memory.enqueue(event) }
    func queuedEvents(limit: Int) -> [AnalyticsEvent] { memory.queuedEvents(limit: limit) }
    var queuedEventCount: Int { memory.queuedEventCount }
    func removeEvents(_ eventIds: [String]) throws(StoreError) { try memory.removeEvents(eventIds) }
    func commitPending() -> StoreTrouble? { memory.commitPending() }
    func releaseMemory() { memory.releaseMemory() }
}
