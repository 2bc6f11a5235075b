import BuntingCore
import BuntingJSON
import BuntingRuntime

/// The engine's store in a SQLite database (write-ahead log), opened by
/// `StorageDirectory.openStore()`.
///
/// Every write is its own transaction, committed before the call returns:
/// an event is in the log file before ENQUEUED is sent, and the removal of a
/// delivered batch is one transaction. Synchronous mode NORMAL: a commit is
/// written to the log with `write(2)` but not synced, so it survives the
/// process being killed at any moment (the kernel holds the bytes); only a
/// power cut or kernel crash can take back the last commits. Syncing every
/// commit (FULL) costs a disk flush per event for a failure this store does
/// not promise to survive.
///
/// Used on one thread, the event loop's; after `close()` writes throw and
/// reads come back empty.
public final class SQLiteStore: Store {
    /// The database file.
    public let path: String
    /// Nil once closed.
    private var statements: Statements?
    private var database: Database?
    /// Counted once at open and kept up to date, because the engine asks often.
    private var eventCount = 0
    /// The profile as stored: the engine saves it often, mostly unchanged
    /// (at every start, for one), and an unchanged one is not written again.
    private var storedProfile: StoredProfile?

    init(database: Database) throws(SQLiteError) {
        self.path = database.path
        self.database = database
        let statements = try Statements(database)
        self.statements = statements
        try statements.countEvents.run { row in eventCount = Int(row.integer(0)) }
    }

    /// Finalizes the statements and closes the database, which checkpoints
    /// the log into the database file.
    public func close() {
        statements = nil
        database?.close()
        database = nil
    }

    // MARK: - Profile

    public func loadProfile() -> StoredProfile? {
        var profile: StoredProfile?
        read("the profile") { (statements) throws(SQLiteError) in
            try statements.loadProfile.run { row in
                var channels: [Channel: Bool] = [:]
                for (name, value) in Self.json(row.text(4)).objectValue ?? [:] {
                    if let channel = Channel(rawValue: name), let enabled = value.boolValue { channels[channel] = enabled }
                }
                profile = StoredProfile(
                    deviceId: row.text(0) ?? "", userId: row.text(1), attributes: Self.json(row.text(2)).objectValue ?? [:],
                    sdkEnabled: row.bool(3), channelsEnabled: channels, sessionId: row.text(5),
                    sessionFlagImpressions: Self.json(row.text(6)).arrayValue?.compactMap(\.stringValue) ?? [])
            }
        }
        storedProfile = profile
        return profile
    }

    public func saveProfile(_ profile: StoredProfile) throws(StoreError) {
        guard profile != storedProfile else { return }
        var channels = JSONObject()
        for channel in Channel.allCases {
            if let enabled = profile.channelsEnabled[channel] { channels[channel.rawValue] = .bool(enabled) }
        }
        try write("save the profile") { (statements) throws(SQLiteError) in
            try statements.saveProfile.run([
                .text(profile.deviceId), .text(profile.userId), Self.text(.object(profile.attributes)),
                .bool(profile.sdkEnabled), Self.text(.object(channels)), .text(profile.sessionId),
                Self.text(.array(profile.sessionFlagImpressions.map(JSON.string))),
            ])
        }
        storedProfile = profile
    }

    // MARK: - Users

    public func loadUser(_ user: String) -> StoredUser {
        var stored = StoredUser()
        read("the data of a user") { (statements) throws(SQLiteError) in
            try statements.loadCaches.run([.text(user)]) { row in
                if let channel = row.text(0).flatMap(Channel.init(rawValue:)) { stored.caches[channel] = Self.json(row.text(1)) }
            }
            try statements.loadItemStates.run([.text(user)]) { row in
                guard let channel = row.text(0).flatMap(Channel.init(rawValue:)), let itemId = row.text(1) else { return }
                stored.itemStates[channel, default: [:]][itemId] = ItemState(viewed: row.bool(2), clicked: row.bool(3), dismissed: row.bool(4))
            }
            try statements.loadAttributes.run([.text(user)]) { row in
                stored.attributes = Self.json(row.text(0)).objectValue ?? [:]
            }
        }
        return stored
    }

    public func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError) {
        try write("save the \(channel.rawValue) cache") { (statements) throws(SQLiteError) in
            try statements.saveCache.run([.text(user), .text(channel.rawValue), .text(String(decoding: cache.bytes, as: UTF8.self))])
        }
    }

    public func saveItemState(user: String, channel: Channel, itemId: String, state: ItemState) throws(StoreError) {
        try write("save the state of an item") { (statements) throws(SQLiteError) in
            try statements.saveItemState.run([
                .text(user), .text(channel.rawValue), .text(itemId), .bool(state.viewed), .bool(state.clicked), .bool(state.dismissed),
            ])
        }
    }

    public func saveAttributes(user: String, attributes: JSONObject) throws(StoreError) {
        try write("save a user's attributes") { (statements) throws(SQLiteError) in
            try statements.saveAttributes.run([.text(user), Self.text(.object(attributes))])
        }
    }

    public func wipe() throws(StoreError) {
        try write("wipe the data") { (statements) throws(SQLiteError) in
            try statements.database.transaction { () throws(SQLiteError) in
                for statement in statements.wipe { try statement.run() }
            }
        }
        eventCount = 0
    }

    // MARK: - Analytics queue

    public func enqueue(_ event: AnalyticsEvent) throws(StoreError) {
        try write("store the event") { (statements) throws(SQLiteError) in
            try statements.enqueue.run([
                .text(event.eventId), .text(event.kind.rawValue), .text(event.channel.rawValue), .text(event.itemId),
                .text(event.userId), .text(event.deviceId), .text(event.sessionId), .real(event.time),
                .text(event.buttonId), .text(event.trackingString), Self.text(event.item),
            ])
        }
        eventCount += 1
    }

    public func queuedEvents(limit: Int) -> [AnalyticsEvent] {
        var events: [AnalyticsEvent] = []
        var unreadable: [String] = []
        read("the analytics queue") { (statements) throws(SQLiteError) in
            try statements.queuedEvents.run([.integer(Int64(limit))]) { row in
                guard let eventId = row.text(0) else { return }
                guard let kind = row.text(1).flatMap(AnalyticsEvent.Kind.init(rawValue:)),
                      let channel = row.text(2).flatMap(Channel.init(rawValue:)),
                      let itemId = row.text(3), let deviceId = row.text(5)
                else { return unreadable.append(eventId) }
                events.append(AnalyticsEvent(
                    eventId: eventId, kind: kind, channel: channel, itemId: itemId, userId: row.text(4), deviceId: deviceId,
                    sessionId: row.text(6), time: row.real(7), buttonId: row.text(8), trackingString: row.text(9),
                    item: Self.json(row.text(10))))
            }
        }
        if !unreadable.isEmpty {
            // Only a damaged file holds such rows; kept, they would block the queue forever.
            log.error("storage: dropping \(unreadable.count) queued events that cannot be read")
            try? removeEvents(unreadable)
        }
        return events
    }

    public var queuedEventCount: Int { eventCount }

    public func removeEvents(_ eventIds: [String]) throws(StoreError) {
        var removed = 0
        try write("remove sent events") { (statements) throws(SQLiteError) in
            removed = 0
            try statements.database.transaction { () throws(SQLiteError) in
                for eventId in eventIds {
                    try statements.removeEvent.run([.text(eventId)])
                    removed += statements.database.changes
                }
            }
        }
        eventCount -= removed
    }

    // MARK: - Helpers

    /// Runs a write; a SQLite failure becomes a `StoreError` naming what failed.
    private func write(_ what: String, _ body: (Statements) throws(SQLiteError) -> Void) throws(StoreError) {
        guard let statements else { throw StoreError("cannot \(what): the storage is closed") }
        do {
            try body(statements)
        } catch {
            throw StoreError("cannot \(what) in \(path): \(error.message)")
        }
    }

    /// Runs a read; a failure is logged and the caller keeps what it had (the
    /// `Store` protocol's reads do not fail: the engine carries on from memory).
    private func read(_ what: String, _ body: (Statements) throws(SQLiteError) -> Void) {
        guard let statements else { return }
        do {
            try body(statements)
        } catch {
            log.error("storage: cannot read \(what) from \(path): \(error.message)")
        }
    }

    private static func text(_ json: JSON) -> SQLValue { .text(json.encodedString()) }

    /// Stored JSON read back; text that does not parse (a damaged row) reads as null.
    private static func json(_ text: String?) -> JSON {
        guard let text, let json = try? JSON.parse(text) else { return .null }
        return json
    }
}

/// The store's statements, prepared once at open.
private final class Statements {
    let database: Database
    let loadProfile, saveProfile: Statement
    let loadCaches, saveCache, loadItemStates, saveItemState, loadAttributes, saveAttributes: Statement
    let wipe: [Statement]
    let enqueue, queuedEvents, countEvents, removeEvent: Statement

    init(_ database: Database) throws(SQLiteError) {
        self.database = database
        loadProfile = try database.prepare("""
            SELECT device_id, user_id, attributes, sdk_enabled, channels_enabled, session_id, session_flag_impressions
            FROM profile WHERE id = 1
            """)
        saveProfile = try database.prepare("""
            INSERT OR REPLACE INTO profile
                (id, device_id, user_id, attributes, sdk_enabled, channels_enabled, session_id, session_flag_impressions)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?)
            """)
        loadCaches = try database.prepare("SELECT channel, cache FROM channel_cache WHERE user = ?")
        saveCache = try database.prepare("INSERT OR REPLACE INTO channel_cache (user, channel, cache) VALUES (?, ?, ?)")
        loadItemStates = try database.prepare("SELECT channel, item_id, viewed, clicked, dismissed FROM item_state WHERE user = ?")
        saveItemState = try database.prepare("""
            INSERT OR REPLACE INTO item_state (user, channel, item_id, viewed, clicked, dismissed) VALUES (?, ?, ?, ?, ?, ?)
            """)
        loadAttributes = try database.prepare("SELECT attributes FROM user_attributes WHERE user = ?")
        saveAttributes = try database.prepare("INSERT OR REPLACE INTO user_attributes (user, attributes) VALUES (?, ?)")
        wipe = [
            try database.prepare("DELETE FROM channel_cache"), try database.prepare("DELETE FROM item_state"),
            try database.prepare("DELETE FROM user_attributes"), try database.prepare("DELETE FROM event_queue"),
        ]
        enqueue = try database.prepare("""
            INSERT INTO event_queue
                (event_id, kind, channel, item_id, user_id, device_id, session_id, time, button_id, tracking_string, item)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        queuedEvents = try database.prepare("""
            SELECT event_id, kind, channel, item_id, user_id, device_id, session_id, time, button_id, tracking_string, item
            FROM event_queue ORDER BY position LIMIT ?
            """)
        countEvents = try database.prepare("SELECT count(*) FROM event_queue")
        removeEvent = try database.prepare("DELETE FROM event_queue WHERE event_id = ?")
    }
}
