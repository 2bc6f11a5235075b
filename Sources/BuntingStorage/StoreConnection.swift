/// An open, checked database with the store's statements prepared once, and
/// the length of its queue as found: what `SQLiteStore` works on.
final class StoreConnection {
    let database: Database
    /// Queued events in the file when it was opened.
    let eventCount: Int
    let begin, commit: Statement
    let loadProfile, saveProfile: Statement
    let loadCaches, saveCache, loadItemStates, saveItemState, loadAttributes, saveAttributes: Statement
    /// Sticky bucket documents: ?1 attribute, ?2 value (?3 assignments, ?4 time on save).
    let loadSticky, saveSticky, touchSticky: Statement
    let wipe: [Statement]
    let enqueue, queuedEvents, countEvents, removeEvent: Statement
    let markSeen, refreshSeen: Statement
    /// Forgetting users (`UserRetention`): ?1 the time before which a user is forgotten, ?2 the current user.
    let forgetUsers: [Statement]
    let usersOverItemBound, trimItemStates: Statement

    init(_ database: Database) throws(SQLiteError) {
        self.database = database
        // The store decides when the log is copied (SQLiteStore+Checkpoints.swift).
        database.countLogFrames()
        // IMMEDIATE: the write lock (held anyway in exclusive locking mode) is
        // taken at the start, so no statement of the transaction waits for it.
        begin = try database.prepare("BEGIN IMMEDIATE")
        commit = try database.prepare("COMMIT")
        loadProfile = try database.prepare(
            """
            SELECT device_id, user_id, attributes, sdk_enabled, channels_enabled, session_id, session_flag_impressions,
                session_exposures
            FROM profile WHERE id = 1
            """)
        saveProfile = try database.prepare(
            """
            INSERT OR REPLACE INTO profile
                (id, device_id, user_id, attributes, sdk_enabled, channels_enabled, session_id,
                 session_flag_impressions, session_exposures)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        loadCaches = try database.prepare("SELECT channel, cache FROM channel_cache WHERE user = ?")
        // An update, not a replacement: SQLite then writes over the row in
        // place when its size is unchanged, and marks only the pages whose
        // bytes differ, so a refresh that finds the same items (a returning
        // user, a poll with nothing new) logs a page, not megabytes.
        // `ChannelCache.encoded` keeps the size: its one changing number is
        // written to a fixed width. A replacement frees the row's pages and
        // writes all of them again.
        saveCache = try database.prepare(
            """
            INSERT INTO channel_cache (user, channel, cache) VALUES (?, ?, ?)
            ON CONFLICT (user, channel) DO UPDATE SET cache = excluded.cache
            """)
        loadItemStates = try database.prepare(
            "SELECT channel, item_id, viewed, clicked, dismissed FROM item_state WHERE user = ?")
        saveItemState = try database.prepare(
            """
            INSERT OR REPLACE INTO item_state (user, channel, item_id, viewed, clicked, dismissed, changed)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        loadAttributes = try database.prepare("SELECT attributes FROM user_attributes WHERE user = ?")
        saveAttributes = try database.prepare("INSERT OR REPLACE INTO user_attributes (user, attributes) VALUES (?, ?)")
        loadSticky = try database.prepare(
            "SELECT assignments FROM sticky_assignment WHERE attribute_name = ?1 AND attribute_value = ?2")
        saveSticky = try database.prepare(
            """
            INSERT OR REPLACE INTO sticky_assignment (attribute_name, attribute_value, assignments, last_used)
            VALUES (?, ?, ?, ?)
            """)
        touchSticky = try database.prepare(
            "UPDATE sticky_assignment SET last_used = ?3 WHERE attribute_name = ?1 AND attribute_value = ?2")
        wipe = [
            try database.prepare("DELETE FROM channel_cache"), try database.prepare("DELETE FROM item_state"),
            try database.prepare("DELETE FROM user_attributes"), try database.prepare("DELETE FROM event_queue"),
            try database.prepare("DELETE FROM user_seen"), try database.prepare("DELETE FROM sticky_assignment"),
        ]
        enqueue = try database.prepare(
            """
            INSERT INTO event_queue
                (event_id, kind, channel, item_id, user_id, device_id, session_id, time, button_id,
                 tracking_string, item)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        queuedEvents = try database.prepare(
            """
            SELECT event_id, kind, channel, item_id, user_id, device_id, session_id, time, button_id,
                tracking_string, item
            FROM event_queue ORDER BY position LIMIT ?
            """)
        countEvents = try database.prepare("SELECT count(*) FROM event_queue")
        removeEvent = try database.prepare("DELETE FROM event_queue WHERE event_id = ?")
        markSeen = try database.prepare("INSERT OR REPLACE INTO user_seen (user, last_seen) VALUES (?, ?)")
        refreshSeen = try database.prepare("UPDATE user_seen SET last_seen = ?2 WHERE user = ?1")
        let forgotten = "SELECT user FROM user_seen WHERE last_seen < ?1 AND user <> ?2"
        forgetUsers = [
            try database.prepare("DELETE FROM channel_cache WHERE user IN (\(forgotten))"),
            try database.prepare("DELETE FROM item_state WHERE user IN (\(forgotten))"),
            try database.prepare("DELETE FROM user_attributes WHERE user IN (\(forgotten))"),
            // Sticky documents not read or written for as long (?2 is the current user, whose documents were read).
            try database.prepare("DELETE FROM sticky_assignment WHERE last_used < ?1 AND ?2 IS NOT NULL"),
            try database.prepare("DELETE FROM user_seen WHERE last_seen < ?1 AND user <> ?2"),
        ]
        usersOverItemBound = try database.prepare(
            "SELECT user, count(*) FROM item_state GROUP BY user HAVING count(*) > ?")
        trimItemStates = try database.prepare(
            """
            DELETE FROM item_state WHERE user = ?1 AND (channel, item_id) IN
                (SELECT channel, item_id FROM item_state WHERE user = ?1 ORDER BY changed, channel, item_id LIMIT ?2)
            """)
        eventCount = try Self.count(countEvents)
    }

    /// Queued events in the file now (the open transaction's included).
    func countQueuedEvents() throws(SQLiteError) -> Int {
        try Self.count(countEvents)
    }

    private static func count(_ statement: Statement) throws(SQLiteError) -> Int {
        var count = 0
        try statement.run { row in count = Int(row.integer(0)) }
        return count
    }
}
