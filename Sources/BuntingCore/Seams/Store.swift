import BuntingJSON

/// What the engine keeps across restarts. Called on the event loop. A store
/// may group its writes: those made since the last `commitPending()` are
/// committed together by that call, which the server makes at the end of
/// every turn and before any output reaches the client — so an event is on
/// disk before its ENQUEUED can be seen. Reads see every write made before
/// them, committed or not.
public protocol Store: AnyObject {
    /// Who the client was and how things stood, or nil for fresh storage.
    func loadProfile() -> StoredProfile?
    func saveProfile(_ profile: StoredProfile) throws(StoreError)

    /// Everything kept for one user, keyed by the user id (the anonymous
    /// user's key is the empty string; user ids are never empty). Without
    /// `caches` the channel caches are left out: they are the bulk of a
    /// user's data, and reading them back costs a parse of every item.
    func loadUser(_ user: String, caches: Bool) -> StoredUser
    /// Stores a channel's cache as the text the engine wrote once for it.
    func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError)
    func saveItemState(user: String, channel: Channel, itemId: String, state: ItemState) throws(StoreError)
    func saveAttributes(user: String, attributes: JSONObject) throws(StoreError)

    /// GrowthBook's sticky bucket documents of these (attribute name, value)
    /// pairs that are stored. Not per user: users sharing an attribute value
    /// share its document, as GrowthBook's SDKs share them.
    func loadStickyDocuments(_ keys: [(name: String, value: String)]) -> [StickyDocument]
    func saveStickyDocument(_ document: StickyDocument) throws(StoreError)

    /// Forgets every user and every queued event (`wipeData`).
    func wipe() throws(StoreError)

    func enqueue(_ event: AnalyticsEvent) throws(StoreError)
    /// The oldest queued events, oldest first.
    func queuedEvents(limit: Int) -> [AnalyticsEvent]
    var queuedEventCount: Int { get }
    func removeEvents(_ eventIds: [String]) throws(StoreError)

    /// Commits the writes made since the last call, as one transaction.
    /// Returns what the store could not keep since the last call (a commit
    /// that failed, a damaged file replaced), for the client to be told; nil
    /// when nothing went wrong.
    func commitPending() -> StoreTrouble?

    /// Frees what the store keeps only to be quicker (cached pages). The
    /// engine calls it once refreshes pause, before giving freed memory back.
    func releaseMemory()
}

/// What a store could not keep, as `commitPending()` reports it. The store
/// has already dealt with it (kept the events in memory, started afresh);
/// what is left is telling the client.
public struct StoreTrouble: Equatable, Sendable {
    /// The ids of events whose ENQUEUED was staged but whose commit failed:
    /// they stay queued in memory (and are sent as usual), lost if the
    /// process ends before they are.
    public var eventIdsInMemory: [String]
    /// Why they could not be stored, in the store's words.
    public var reason: String?
    /// Local storage was found damaged, moved aside and replaced, or given up
    /// for memory: what every event subscription is told, now and later.
    public var storageProblem: String?

    public init(eventIdsInMemory: [String] = [], reason: String? = nil, storageProblem: String? = nil) {
        self.eventIdsInMemory = eventIdsInMemory
        self.reason = reason
        self.storageProblem = storageProblem
    }

    /// The ERROR message for a subscription that was told ENQUEUED of `count` of them.
    public func message(forEvents count: Int) -> String {
        let events = count == 1 ? "1 analytics event" : "\(count) analytics events"
        return "\(events) could not be stored (\(reason ?? "storage failure")); "
            + "kept in memory until sent, and lost if the server stops first"
    }
}

extension Store {
    public func releaseMemory() {}

    /// Everything kept for one user, caches included.
    public func loadUser(_ user: String) -> StoredUser { loadUser(user, caches: true) }

    public func saveChannelCache(user: String, channel: Channel, cache: JSON) throws(StoreError) {
        try saveChannelCache(user: user, channel: channel, encoded: EncodedJSON(cache))
    }
}

/// The part of the engine's state that is not per user.
public struct StoredProfile: Equatable, Sendable {
    public var deviceId: String
    /// Nil while the user is anonymous.
    public var userId: String?
    public var attributes: JSONObject
    public var sdkEnabled: Bool
    /// Channel states from the last definitions seen; empty before any arrived.
    public var channelsEnabled: [Channel: Bool]
    public var sessionId: String?
    /// Flag impression keys already logged in that session.
    public var sessionFlagImpressions: [String]
    /// Experiment exposures already logged in that session (their deduplication keys).
    public var sessionExposures: [String]

    public init(
        deviceId: String, userId: String? = nil, attributes: JSONObject = [:], sdkEnabled: Bool = true,
        channelsEnabled: [Channel: Bool] = [:], sessionId: String? = nil, sessionFlagImpressions: [String] = [],
        sessionExposures: [String] = []
    ) {
        self.deviceId = deviceId
        self.userId = userId
        self.attributes = attributes
        self.sdkEnabled = sdkEnabled
        self.channelsEnabled = channelsEnabled
        self.sessionId = sessionId
        self.sessionFlagImpressions = sessionFlagImpressions
        self.sessionExposures = sessionExposures
    }
}

/// What a client did to one card or banner.
public struct ItemState: Equatable, Sendable {
    public var viewed = false
    public var clicked = false
    public var dismissed = false

    public init(viewed: Bool = false, clicked: Bool = false, dismissed: Bool = false) {
        self.viewed = viewed
        self.clicked = clicked
        self.dismissed = dismissed
    }
}

/// One user's stored caches, item states and attributes. Item ids are
/// keyed by their bytes (see `ExactString`).
public struct StoredUser: Sendable {
    public var caches: [Channel: JSON]
    public var itemStates: [Channel: [ExactString: ItemState]]
    public var attributes: JSONObject

    public init(
        caches: [Channel: JSON] = [:], itemStates: [Channel: [ExactString: ItemState]] = [:],
        attributes: JSONObject = [:]
    ) {
        self.caches = caches
        self.itemStates = itemStates
        self.attributes = attributes
    }
}

public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
