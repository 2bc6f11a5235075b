import BuntingCore
import BuntingJSON
@testable import BuntingStorage
import Testing

/// The layout of schema version 1 as it was released, copied here on purpose:
/// `Schema.version1` may be fixed by mistake, this may not.
let releasedVersion1 = """
    CREATE TABLE profile (id INTEGER PRIMARY KEY CHECK (id = 1), device_id TEXT NOT NULL, user_id TEXT,
        attributes TEXT NOT NULL, sdk_enabled INTEGER NOT NULL, channels_enabled TEXT NOT NULL, session_id TEXT,
        session_flag_impressions TEXT NOT NULL);
    CREATE TABLE channel_cache (user TEXT NOT NULL, channel TEXT NOT NULL, cache TEXT NOT NULL,
        PRIMARY KEY (user, channel)) WITHOUT ROWID;
    CREATE TABLE item_state (user TEXT NOT NULL, channel TEXT NOT NULL, item_id TEXT NOT NULL, viewed INTEGER NOT NULL,
        clicked INTEGER NOT NULL, dismissed INTEGER NOT NULL, PRIMARY KEY (user, channel, item_id)) WITHOUT ROWID;
    CREATE TABLE user_attributes (user TEXT PRIMARY KEY, attributes TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE event_queue (position INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
        channel TEXT NOT NULL, item_id TEXT NOT NULL, user_id TEXT, device_id TEXT NOT NULL, session_id TEXT,
        time REAL NOT NULL, button_id TEXT, tracking_string TEXT, item TEXT NOT NULL);
    PRAGMA application_id = 1114992244;
    PRAGMA user_version = 1;
    """

/// Runs SQL on the database file at `path` outside the store, as another program would.
func withDatabase(_ path: String, _ body: (Database) throws -> Void) throws {
    let database = try Database(path: path)
    defer { database.close() }
    try body(database)
}

func integer(_ database: Database, _ sql: String) throws -> Int64? {
    try database.value(sql).integerValue
}

@Suite struct SchemaTests {
    @Test func aVersion1DatabaseWrittenByAnotherHandOpensWithTheCurrentCode() throws {
        let directory = try TemporaryDirectory()
        try withDatabase(directory.database) { (database) throws in
            try database.execute(releasedVersion1)
            try database.execute(
                """
                INSERT INTO profile VALUES (1, 'dev', 'alice', '{"plan":"gold"}', 1, '{"banners":true,"contentCards":false}', 's', '["t-1"]');
                INSERT INTO channel_cache VALUES ('alice', 'banners', '{"lastSyncAt":1750000000.5,"banners":[]}');
                INSERT INTO item_state VALUES ('alice', 'contentCards', 'c1', 1, 0, 1);
                INSERT INTO user_attributes VALUES ('bob', '{"x":1}');
                INSERT INTO event_queue VALUES (7, 'e1', 'click', 'banners', 'home', NULL, 'dev', NULL, 1750000000.25, 'b', NULL, '{"id":"spring"}');
                """)
        }
        let store = try openStore(directory)
        #expect(
            store.loadProfile()
                == StoredProfile(
                    deviceId: "dev", userId: "alice", attributes: ["plan": "gold"], sdkEnabled: true,
                    channelsEnabled: [.banners: true, .contentCards: false], sessionId: "s",
                    sessionFlagImpressions: ["t-1"]))
        #expect(store.loadUser("alice").caches[.banners]?["lastSyncAt"] == .real(1_750_000_000.5))
        #expect(store.loadUser("alice").itemStates[.contentCards]?["c1"] == ItemState(viewed: true, dismissed: true))
        #expect(store.loadUser("bob").attributes == ["x": 1])
        #expect(
            store.queuedEvents(limit: 5) == [
                AnalyticsEvent(
                    eventId: "e1", kind: .click, channel: .banners, itemId: "home", userId: nil, deviceId: "dev",
                    sessionId: nil,
                    time: 1_750_000_000.25, buttonId: "b", item: ["id": "spring"])
            ])
        store.close()
        try withDatabase(directory.database) { (database) throws in
            #expect(try integer(database, "PRAGMA user_version") == Int64(Schema.current.version))
        }
    }

    /// Version 2: a cache is a row of its own, found through the primary
    /// key's index, so saving one does not read the caches beside it.
    @Test func version2KeepsChannelCachesInATableWithRowidsAndKeepsThem() throws {
        let directory = try TemporaryDirectory()
        try withDatabase(directory.database) { (database) throws in
            try database.execute(releasedVersion1)
            try database.execute(
                """
                INSERT INTO channel_cache VALUES ('alice', 'banners', '{"lastSyncAt":1}');
                INSERT INTO channel_cache VALUES ('bob', 'contentCards', '{"lastSyncAt":2,"cards":[]}');
                """)
            try Schema.current.migrate(database)
            #expect(try integer(database, "SELECT count(*) FROM channel_cache") == 2)
            let sql = try database.value("SELECT sql FROM sqlite_schema WHERE name = 'channel_cache'").textValue ?? ""
            #expect(!sql.uppercased().contains("WITHOUT ROWID"))
            #expect(
                try integer(
                    database,
                    "SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'channel_cache' AND type = 'index'") == 1)
            #expect(
                try database.value("SELECT cache FROM channel_cache WHERE user = 'bob'").textValue
                    == #"{"lastSyncAt":2,"cards":[]}"#)
            // A second save of the same key replaces the row.
            try database.execute(
                "INSERT OR REPLACE INTO channel_cache VALUES ('alice', 'banners', '{\"lastSyncAt\":3}')")
            #expect(try integer(database, "SELECT count(*) FROM channel_cache WHERE user = 'alice'") == 1)
        }
    }

    @Test func stepsRunFromTheVersionFoundAndAreRecorded() throws {
        let directory = try TemporaryDirectory()
        let later = Schema(steps: Schema.current.steps + ["ALTER TABLE profile ADD COLUMN note TEXT;"])
        try withDatabase(directory.database) { (database) throws in
            try Schema.current.migrate(database)
            try database.execute("INSERT INTO user_attributes VALUES ('alice', '{}')")
            try later.migrate(database)
            #expect(try integer(database, "PRAGMA user_version") == Int64(later.version))
            #expect(try integer(database, "SELECT count(*) FROM pragma_table_info('profile') WHERE name = 'note'") == 1)
            #expect(try integer(database, "SELECT count(*) FROM user_attributes") == 1)
            try later.migrate(database) // nothing left to do
            #expect(try integer(database, "PRAGMA user_version") == Int64(later.version))
        }
    }

    @Test func aFailingStepLeavesTheDatabaseAtTheVersionBefore() throws {
        let directory = try TemporaryDirectory()
        let broken = Schema(steps: Schema.current.steps + ["CREATE TABLE extra (x); ALTER TABLE nowhere ADD COLUMN y;"])
        try withDatabase(directory.database) { (database) throws in
            try Schema.current.migrate(database)
            #expect(throws: SchemaMigrationError.self) { try broken.migrate(database) }
            #expect(try integer(database, "PRAGMA user_version") == Int64(Schema.current.version))
            #expect(try integer(database, "SELECT count(*) FROM sqlite_schema WHERE name = 'extra'") == 0)
        }
    }

    @Test func aDatabaseOfANewerBuntingIsLeftAloneAndTheDiskIsNotUsed() throws {
        let directory = try TemporaryDirectory()
        try withDatabase(directory.database) { (database) throws in
            try database.execute(releasedVersion1)
            try database.execute("PRAGMA user_version = 99")
        }
        let storage = try StorageDirectory(path: directory.path)
        let failure = #expect(throws: StorageError.self) { try storage.openStore() }
        #expect(failure?.message.contains("schema version 99") == true)
        #expect(try directory.names() == ["bunting.lock", "bunting.sqlite3"])
    }

    @Test func anotherProgramsDatabaseIsMovedAside() throws {
        let directory = try TemporaryDirectory()
        try withDatabase(directory.database) { (database) throws in
            try database.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        }
        let opened = try StorageDirectory(path: directory.path).openStore()
        #expect(opened.damage?.problem == "not a bunting database (application id 0)")
        let moved = try #require(opened.damage?.movedTo)
        try withDatabase(moved) { (database) throws in
            #expect(try database.value("SELECT text FROM notes") == .text("mine"))
        }
    }
}
