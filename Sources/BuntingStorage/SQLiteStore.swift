import BuntingCore
import BuntingJSON
import BuntingRuntime

/// The engine's store in a SQLite database (write-ahead log), opened by
/// `StorageDirectory.openStore()`.
///
/// Writes are grouped: the first write after a commit opens a transaction
/// and `commitPending()` commits it. The server calls that at the end of
/// every turn of its event loop and before any output reaches the client, so
/// an event is in the log file before its ENQUEUED can be seen, and the
/// requests read in one go share one commit. Synchronous mode NORMAL: a
/// commit is written to the log with `write(2)` but not synced, so it
/// survives the process being killed at any moment (the kernel holds the
/// bytes); only a power cut or kernel crash can take back the last commits.
/// Syncing every commit (FULL) costs a disk flush per commit for a failure
/// this store does not promise to survive.
///
/// A commit that fails (a full disk) is undone by SQLite; what the store
/// holds in memory it redoes first thing in the next transaction
/// (SQLiteStore+Commits.swift). A file that SQLite finds damaged while
/// serving is moved aside and replaced (SQLiteStore+Damage.swift).
///
/// Used on one thread, the event loop's; after `close()` writes throw and
/// reads come back empty.
public final class SQLiteStore: Store {
    /// The database file.
    public let path: String
    /// Nil once closed, or once the disk was given up for `memory`.
    var connection: StoreConnection?
    /// Queued events in the file, counting the open transaction's.
    var fileEventCount: Int
    /// The profile as last written, committed or not: the engine saves it
    /// often, mostly unchanged (at every start, for one), and an unchanged
    /// one is not written again.
    var storedProfile: StoredProfile?
    /// The writes of the open transaction; nil between commits.
    var transaction: PendingWrites?
    /// What failed commits undid, to be redone.
    var redo = Redo()
    /// What the next `commitPending()` reports.
    var trouble: StoreTrouble?
    /// Damaged files replaced while serving; after a second the disk is given up.
    var replacements = 0
    /// Where everything is kept once the disk is given up.
    var memory: MemoryStore?
    /// Where deferred checkpoints wait (SQLiteStore+Checkpoints.swift); nil: none wait.
    var checkpointLoop: EventLoop?
    var checkpointTimer: EventLoop.TimerToken?
    /// On `checkpointLoop`'s monotonic clock.
    var lastCommitTime = 0.0
    /// What the last commit of `Checkpoints.deferredBytes` or more added to
    /// the log since it was last checkpointed, in bytes (0: none).
    var lastLargeCommit = 0
    /// The file the connection opened; each commit checks that `path` still names it.
    var openedFile: FileIdentity?
    /// How long users are kept (SQLiteStore+Retention.swift); nil: for ever.
    var retention: UserRetention?
    /// What stamps when users are seen: the loop's, once the store serves on one.
    var clock: any Clock = SystemClock()
    /// When each user was last written as seen, in this run.
    var seenAt: [String: Double] = [:]
    /// The file was not closed cleanly and its full check is still to be
    /// made (SQLiteStore+OwedCheck.swift).
    public internal(set) var owesCheck = false
    /// While the check is owed: the events committed to the file and not
    /// delivered, which a fresh file takes should the check find damage.
    var eventsBeforeCheck: [AnalyticsEvent] = []

    init(_ connection: StoreConnection) {
        self.path = connection.database.path
        self.connection = connection
        self.fileEventCount = connection.eventCount
        self.openedFile = Self.identity(of: connection.database.path)
    }

    /// Commits what is pending, finalizes the statements and closes the
    /// database, which checkpoints the log into the database file; then
    /// marks the file as closed cleanly, so that the next start need not
    /// check it — unless it still owes its check: then the next start makes it.
    public func close() {
        guard connection != nil else { return }
        commit()
        if !redo.events.isEmpty {
            log.error("storage: \(Self.analyticsEvents(redo.events.count)) kept in memory could not be stored: lost")
        }
        guard let database = connection?.database else { return }
        connection = nil
        if database.close() && !owesCheck { CleanShutdownMark.write(for: path) }
    }

    public func releaseMemory() {
        connection?.database.releaseMemory()
    }

    public func commitPending() -> StoreTrouble? {
        commit()
        defer { trouble = nil }
        return trouble
    }

    // MARK: - Profile

    public func loadProfile() -> StoredProfile? {
        if let memory { return memory.loadProfile() }
        // Not yet in the file: a failed commit undid it.
        if redo.profile { return storedProfile }
        var profile: StoredProfile?
        read("the profile") { (connection) throws(SQLiteError) in
            try connection.loadProfile.run { row in
                var channels: [Channel: Bool] = [:]
                for (name, value) in Self.json(row.text(4)).objectValue ?? [:] {
                    if let channel = Channel(rawValue: name), let enabled = value.boolValue {
                        channels[channel] = enabled
                    }
                }
                profile = StoredProfile(
                    deviceId: row.text(0) ?? "", userId: row.text(1),
                    attributes: Self.json(row.text(2)).objectValue ?? [:],
                    sdkEnabled: row.bool(3), channelsEnabled: channels, sessionId: row.text(5),
                    sessionFlagImpressions: Self.json(row.text(6)).arrayValue?.compactMap(\.stringValue) ?? [],
                    sessionExposures: Self.json(row.text(7)).arrayValue?.compactMap(\.stringValue) ?? [])
            }
        }
        storedProfile = profile
        return profile
    }

    public func saveProfile(_ profile: StoredProfile) throws(StoreError) {
        guard profile != storedProfile else { return }
        try write("save the profile", memory: { (memory) throws(StoreError) in try memory.saveProfile(profile) }) {
            (connection) throws(SQLiteError) in
            try Self.writeProfile(profile, connection)
            transaction?.wroteProfile = true
        }
        storedProfile = profile
    }

    static func writeProfile(_ profile: StoredProfile, _ connection: StoreConnection) throws(SQLiteError) {
        var channels = JSONObject()
        for channel in Channel.allCases {
            if let enabled = profile.channelsEnabled[channel] { channels[channel.rawValue] = .bool(enabled) }
        }
        try connection.saveProfile.run([
            .text(profile.deviceId), .text(profile.userId), text(.object(profile.attributes)),
            .bool(profile.sdkEnabled), text(.object(channels)), .text(profile.sessionId),
            text(.array(profile.sessionFlagImpressions.map(JSON.string))),
            text(.array(profile.sessionExposures.map(JSON.string))),
        ])
    }

    // MARK: - Users

    public func loadUser(_ user: String, caches: Bool) -> StoredUser {
        if let memory { return memory.loadUser(user, caches: caches) }
        var stored = StoredUser()
        try? write("note that a user was seen", memory: { _ in }) { (connection) throws(SQLiteError) in
            try markSeen(user, connection, storing: false)
        }
        // A wipe that a failed commit undid: what the file holds is gone.
        guard !redo.wipe else { return stored }
        read("the data of a user") { (connection) throws(SQLiteError) in
            if caches {
                try connection.loadCaches.run([.text(user)]) { row in
                    if let channel = row.text(0).flatMap(Channel.init(rawValue:)) {
                        stored.caches[channel] = Self.json(row.text(1))
                    }
                }
            }
            try connection.loadItemStates.run([.text(user)]) { row in
                guard let channel = row.text(0).flatMap(Channel.init(rawValue:)), let itemId = row.text(1) else {
                    return
                }
                stored.itemStates[channel, default: [:]][ExactString(itemId)] = ItemState(
                    viewed: row.bool(2), clicked: row.bool(3), dismissed: row.bool(4))
            }
            try connection.loadAttributes.run([.text(user)]) { row in
                stored.attributes = Self.json(row.text(0)).objectValue ?? [:]
            }
        }
        return stored
    }

    public func saveChannelCache(user: String, channel: Channel, encoded cache: EncodedJSON) throws(StoreError) {
        try write(
            "save the \(channel.rawValue) cache",
            memory: { (memory) throws(StoreError) in
                try memory.saveChannelCache(user: user, channel: channel, encoded: cache)
            }
        ) { (connection) throws(SQLiteError) in
            try connection.saveCache.run([.text(user), .text(channel.rawValue), .utf8(cache.bytes)])
            try markSeen(user, connection)
        }
    }

    public func saveItemState(user: String, channel: Channel, itemId: String, state: ItemState) throws(StoreError) {
        try write(
            "save the state of an item",
            memory: { (memory) throws(StoreError) in
                try memory.saveItemState(user: user, channel: channel, itemId: itemId, state: state)
            }
        ) { (connection) throws(SQLiteError) in
            try connection.saveItemState.run([
                .text(user), .text(channel.rawValue), .text(itemId), .bool(state.viewed), .bool(state.clicked),
                .bool(state.dismissed),
                .real(clock.unixTime()),
            ])
            try markSeen(user, connection)
        }
    }

    public func saveAttributes(user: String, attributes: JSONObject) throws(StoreError) {
        try write(
            "save a user's attributes",
            memory: { (memory) throws(StoreError) in
                try memory.saveAttributes(user: user, attributes: attributes)
            }
        ) { (connection) throws(SQLiteError) in
            try connection.saveAttributes.run([.text(user), Self.text(.object(attributes))])
            try markSeen(user, connection)
        }
    }

    // MARK: - Sticky bucket documents

    public func loadStickyDocuments(_ keys: [(name: String, value: String)]) -> [StickyDocument] {
        if let memory { return memory.loadStickyDocuments(keys) }
        guard !redo.wipe else { return [] }
        var documents: [StickyDocument] = []
        read("sticky bucket documents") { (connection) throws(SQLiteError) in
            for key in keys {
                try connection.loadSticky.run([.text(key.name), .text(key.value)]) { row in
                    documents.append(
                        StickyDocument(
                            attributeName: key.name, attributeValue: key.value,
                            assignments: Self.json(row.text(0)).objectValue ?? [:]))
                }
            }
        }
        // Read counts as use: the sweep forgets documents unused for as long as users.
        let now = clock.unixTime()
        try? write("note that sticky documents were used", memory: { _ in }) { (connection) throws(SQLiteError) in
            for document in documents {
                try connection.touchSticky.run([
                    .text(document.attributeName), .text(document.attributeValue), .real(now),
                ])
            }
        }
        return documents
    }

    public func saveStickyDocument(_ document: StickyDocument) throws(StoreError) {
        let now = clock.unixTime()
        try write(
            "save a sticky bucket document",
            memory: { (memory) throws(StoreError) in try memory.saveStickyDocument(document) }
        ) {
            (connection) throws(SQLiteError) in
            try connection.saveSticky.run([
                .text(document.attributeName), .text(document.attributeValue), Self.text(.object(document.assignments)),
                .real(now),
            ])
        }
    }

    public func wipe() throws(StoreError) {
        try write("wipe the data", memory: { (memory) throws(StoreError) in try memory.wipe() }) {
            (connection) throws(SQLiteError) in
            try Self.wipe(connection)
            seenAt.removeAll()
            fileEventCount = 0
            transaction?.wiped = true
            transaction?.events.removeAll()
            transaction?.removals.removeAll()
        }
    }

    /// Whole or not at all, inside the transaction under way. The pages it
    /// frees are zeroed, so that what was wiped does not linger in the file's
    /// free pages (the store otherwise frees pages without zeroing them).
    static func wipe(_ connection: StoreConnection) throws(SQLiteError) {
        try connection.database.execute("PRAGMA secure_delete = ON")
        defer { try? connection.database.execute("PRAGMA secure_delete = FAST") }
        try connection.database.savepoint { () throws(SQLiteError) in
            for statement in connection.wipe { try statement.run() }
        }
    }

    // MARK: - Analytics queue

    public func enqueue(_ event: AnalyticsEvent) throws(StoreError) {
        try write("store the event", memory: { (memory) throws(StoreError) in try memory.enqueue(event) }) {
            (connection) throws(SQLiteError) in
            try Self.insert(event, connection)
            fileEventCount += 1
            transaction?.events.append(event)
        }
    }

    static func insert(_ event: AnalyticsEvent, _ connection: StoreConnection) throws(SQLiteError) {
        try connection.enqueue.run([
            .text(event.eventId), .text(event.kind.rawValue), .text(event.channel.rawValue), .text(event.itemId),
            .text(event.userId), .text(event.deviceId), .text(event.sessionId), .real(event.time),
            .text(event.buttonId), .text(event.trackingString), text(event.item),
        ])
    }

    public func queuedEvents(limit: Int) -> [AnalyticsEvent] {
        if let memory { return memory.queuedEvents(limit: limit) }
        var events: [AnalyticsEvent] = []
        var unreadable: [String] = []
        // Delivered, and deleted again with the next commit: not sent twice.
        let removed = redo.removals
        if !redo.wipe {
            read("the analytics queue") { (connection) throws(SQLiteError) in
                try connection.queuedEvents.run([.integer(Int64(limit + removed.count))]) { row in
                    guard let eventId = row.text(0), !removed.contains(eventId) else { return }
                    guard let kind = row.text(1).flatMap(AnalyticsEvent.Kind.init(rawValue:)),
                        let channel = row.text(2).flatMap(Channel.init(rawValue:)),
                        let itemId = row.text(3), let deviceId = row.text(5)
                    else { return unreadable.append(eventId) }
                    events.append(
                        AnalyticsEvent(
                            eventId: eventId, kind: kind, channel: channel, itemId: itemId, userId: row.text(4),
                            deviceId: deviceId,
                            sessionId: row.text(6), time: row.real(7), buttonId: row.text(8),
                            trackingString: row.text(9),
                            item: Self.json(row.text(10))))
                }
            }
        }
        // The disk was given up while reading.
        if let memory { return memory.queuedEvents(limit: limit) }
        if !unreadable.isEmpty {
            // Only a damaged file holds such rows; kept, they would block the queue forever.
            log.error("storage: dropping \(unreadable.count) queued events that cannot be read")
            try? removeEvents(unreadable)
        }
        if events.count > limit { events.removeLast(events.count - limit) }
        // Events a failed commit undid are newer than every event in the file.
        events += redo.events.prefix(limit - events.count)
        return events
    }

    public var queuedEventCount: Int {
        if let memory { return memory.queuedEventCount }
        return (redo.wipe ? 0 : fileEventCount - redo.removals.count) + redo.events.count
    }

    public func removeEvents(_ eventIds: [String]) throws(StoreError) {
        if memory == nil && !redo.events.isEmpty {
            let removed = Set(eventIds)
            redo.events.removeAll { removed.contains($0.eventId) }
        }
        try write("remove sent events", memory: { (memory) throws(StoreError) in try memory.removeEvents(eventIds) }) {
            (connection) throws(SQLiteError) in
            let pending = Set(transaction?.events.map(\.eventId) ?? [])
            var removedPending: Set<String> = []
            for eventId in eventIds {
                try connection.removeEvent.run([.text(eventId)])
                guard connection.database.changes > 0 else { continue }
                fileEventCount -= 1
                // One stored by this very transaction goes with it if it fails.
                if pending.contains(eventId) {
                    removedPending.insert(eventId)
                } else {
                    transaction?.removals.append(eventId)
                }
            }
            if !removedPending.isEmpty { transaction?.events.removeAll { removedPending.contains($0.eventId) } }
        }
    }

    // MARK: - Helpers

    /// Runs a write in the open transaction, opening one if none is; a SQLite
    /// failure becomes a `StoreError` naming what failed. Damage moves the
    /// file aside and the write is made again on the fresh one (or in memory).
    func write(
        _ what: String, memory inMemory: (MemoryStore) throws(StoreError) -> Void,
        _ body: (StoreConnection) throws(SQLiteError) -> Void
    ) throws(StoreError) {
        var replaced = false
        while true {
            if let memory { return try inMemory(memory) }
            guard let connection else { throw StoreError("cannot \(what): the storage is closed") }
            do {
                if transaction == nil { try begin(connection) }
                try body(connection)
                transaction?.writes += 1
                return
            } catch {
                if error.isDamage && !replaced {
                    replaced = true
                    replaceDamaged(error)
                    continue
                }
                // SQLite ends the transaction itself after some failures (a
                // full disk, an I/O error): the earlier writes of the turn are undone.
                if transaction != nil && !connection.database.isInTransaction { abandon(error) }
                throw StoreError("cannot \(what) in \(path): \(error.message)")
            }
        }
    }

    /// Runs a read; a failure is logged and the caller keeps what it had (the
    /// `Store` protocol's reads do not fail: the engine carries on from memory).
    func read(_ what: String, _ body: (StoreConnection) throws(SQLiteError) -> Void) {
        guard let connection else { return }
        do {
            try body(connection)
        } catch {
            log.error("storage: cannot read \(what) from \(path): \(error.message)")
            if error.isDamage {
                replaceDamaged(error)
            } else if transaction != nil && !connection.database.isInTransaction {
                abandon(error)
            }
        }
    }

    static func text(_ json: JSON) -> SQLValue { .text(json.encodedString()) }

    /// Stored JSON read back; text that does not parse (a damaged row) reads as null.
    static func json(_ text: String?) -> JSON {
        guard let text, let json = try? JSON.parse(text) else { return .null }
        return json
    }
}
