import BuntingJSON

/// What the engine keeps across restarts. Called on the event loop; each call
/// is one small transaction (a SQLite store commits before returning, so an
/// event is on disk before ENQUEUED is sent).
public protocol Store: AnyObject {
    /// Who the client was and how things stood, or nil for fresh storage.
    func loadProfile() -> StoredProfile?
    func saveProfile(_ profile: StoredProfile) throws(StoreError)

    /// Everything kept for one user, keyed by the user id (the anonymous
    /// user's key is the empty string; user ids are never empty).
    func loadUser(_ user: String) -> StoredUser
    /// Stores a channel's cache as the text the engine wrote once for it.
    func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError)
    func saveItemState(user: String, channel: Channel, itemId: String, state: ItemState) throws(StoreError)
    func saveAttributes(user: String, attributes: JSONObject) throws(StoreError)

    /// Forgets every user and every queued event (`wipeData`).
    func wipe() throws(StoreError)

    func enqueue(_ event: AnalyticsEvent) throws(StoreError)
    /// The oldest queued events, oldest first.
    func queuedEvents(limit: Int) -> [AnalyticsEvent]
    var queuedEventCount: Int { get }
    func removeEvents(_ eventIds: [String]) throws(StoreError)
}

extension Store {
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

    public init(
        deviceId: String, userId: String? = nil, attributes: JSONObject = [:], sdkEnabled: Bool = true,
        channelsEnabled: [Channel: Bool] = [:], sessionId: String? = nil, sessionFlagImpressions: [String] = []
    ) {
        self.deviceId = deviceId
        self.userId = userId
        self.attributes = attributes
        self.sdkEnabled = sdkEnabled
        self.channelsEnabled = channelsEnabled
        self.sessionId = sessionId
        self.sessionFlagImpressions = sessionFlagImpressions
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

/// One user's stored caches, item states and attributes.
public struct StoredUser: Sendable {
    public var caches: [Channel: JSON]
    public var itemStates: [Channel: [String: ItemState]]
    public var attributes: JSONObject

    public init(caches: [Channel: JSON] = [:], itemStates: [Channel: [String: ItemState]] = [:], attributes: JSONObject = [:]) {
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
