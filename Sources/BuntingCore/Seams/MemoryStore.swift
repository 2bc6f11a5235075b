import BuntingJSON

/// A store that keeps everything in memory: `--storage :memory:`, and tests.
public final class MemoryStore: Store {
    private var profile: StoredProfile?
    /// By the user id's bytes: `Zoë` written two ways is two users.
    private var users: [ExactString: StoredUser] = [:]
    private var queue: [AnalyticsEvent] = []
    /// By attribute name and value, each as its bytes.
    private var sticky: [StickyKey: StickyDocument] = [:]

    private struct StickyKey: Hashable {
        let name: ExactString
        let value: ExactString
    }

    public init() {}

    public func loadProfile() -> StoredProfile? { profile }
    public func saveProfile(_ profile: StoredProfile) throws(StoreError) { self.profile = profile }

    public func loadUser(_ user: String, caches: Bool) -> StoredUser {
        var stored = users[ExactString(user)] ?? StoredUser()
        if !caches { stored.caches = [:] }
        return stored
    }

    public func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError) {
        users[ExactString(user), default: StoredUser()].caches[channel] = cache.value
    }

    public func saveItemState(user: String, channel: Channel, itemId: String, state: ItemState) throws(StoreError) {
        users[ExactString(user), default: StoredUser()].itemStates[channel, default: [:]][ExactString(itemId)] = state
    }

    public func saveAttributes(user: String, attributes: JSONObject) throws(StoreError) {
        users[ExactString(user), default: StoredUser()].attributes = attributes
    }

    public func loadStickyDocuments(_ keys: [(name: String, value: String)]) -> [StickyDocument] {
        keys.compactMap { sticky[StickyKey(name: ExactString($0.name), value: ExactString($0.value))] }
    }

    public func saveStickyDocument(_ document: StickyDocument) throws(StoreError) {
        sticky[StickyKey(name: ExactString(document.attributeName), value: ExactString(document.attributeValue))] =
            document
    }

    public func wipe() throws(StoreError) {
        users.removeAll()
        queue.removeAll()
        sticky.removeAll()
    }

    public func enqueue(_ event: AnalyticsEvent) throws(StoreError) { queue.append(event) }
    public func queuedEvents(limit: Int) -> [AnalyticsEvent] { Array(queue.prefix(limit)) }
    public var queuedEventCount: Int { queue.count }

    public func removeEvents(_ eventIds: [String]) throws(StoreError) {
        let removed = Set(eventIds)
        queue.removeAll { removed.contains($0.eventId) }
    }

    /// Nothing to commit: every write is done when it returns.
    public func commitPending() -> StoreTrouble? { nil }

    /// How often it was asked to free what it keeps only to be quicker: it
    /// keeps nothing such, so only a test looks.
    public private(set) var memoryReleases = 0

    public func releaseMemory() { memoryReleases += 1 }
}
