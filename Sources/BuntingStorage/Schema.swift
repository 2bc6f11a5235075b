/// The layout of a Bunting database, as the list of steps that built it.
///
/// Step `n` takes a database at version `n` to version `n + 1`; version 0 is
/// an empty file. The version is kept in SQLite's `user_version` header field
/// and written in the same transaction as the step, so a crash leaves a
/// database at one version or the next, never between. A released step is
/// never edited: a change of layout is a new step at the end.
struct Schema {
    let steps: [String]

    /// What the current code reads and writes.
    static let current = Schema(steps: [version1, version2, version3, version4])

    var version: Int { steps.count }

    /// Marks the file as Bunting's (`PRAGMA application_id`), so that another
    /// program's database under our file name is recognised as not ours.
    static let applicationId: Int64 = 0x4275_6E74 // "Bunt"

    /// Brings `database` to this schema's version. A database written by a
    /// newer Bunting is left as it is: its data is not ours to drop.
    func migrate(_ database: Database) throws(SchemaMigrationError) {
        let found: (version: Int, applicationId: Int64, isEmpty: Bool)
        do {
            found = (
                Int(try database.value("PRAGMA user_version").integerValue ?? 0),
                try database.value("PRAGMA application_id").integerValue ?? 0,
                try database.value("SELECT count(*) FROM sqlite_schema").integerValue == 0
            )
        } catch {
            throw .sqlite(error)
        }
        if found.version > version { throw .newer(found: found.version, known: version) }
        let ours = found.version > 0 ? found.applicationId == Self.applicationId : found.isEmpty
        guard ours else { throw .notOurs(applicationId: found.applicationId) }
        guard found.version < version else { return }
        do {
            try database.transaction { () throws(SQLiteError) in
                for step in steps[found.version...] { try database.execute(step) }
                try database.execute("PRAGMA application_id = \(Self.applicationId); PRAGMA user_version = \(version)")
            }
        } catch {
            throw .sqlite(error)
        }
    }
}

/// Why a database could not be brought to the current schema.
enum SchemaMigrationError: Error, Equatable {
    /// Written by a newer Bunting.
    case newer(found: Int, known: Int)
    /// Some other program's SQLite database.
    case notOurs(applicationId: Int64)
    case sqlite(SQLiteError)
}

extension Schema {
    /// The first layout. Everything is keyed by user: the anonymous user is "".
    /// JSON values are kept as text, in the engine's own encoding.
    static let version1 = """
        CREATE TABLE profile (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            device_id TEXT NOT NULL,
            user_id TEXT,
            attributes TEXT NOT NULL,
            sdk_enabled INTEGER NOT NULL,
            channels_enabled TEXT NOT NULL,
            session_id TEXT,
            session_flag_impressions TEXT NOT NULL
        );
        CREATE TABLE channel_cache (
            user TEXT NOT NULL,
            channel TEXT NOT NULL,
            cache TEXT NOT NULL,
            PRIMARY KEY (user, channel)
        ) WITHOUT ROWID;
        CREATE TABLE item_state (
            user TEXT NOT NULL,
            channel TEXT NOT NULL,
            item_id TEXT NOT NULL,
            viewed INTEGER NOT NULL,
            clicked INTEGER NOT NULL,
            dismissed INTEGER NOT NULL,
            PRIMARY KEY (user, channel, item_id)
        ) WITHOUT ROWID;
        CREATE TABLE user_attributes (
            user TEXT PRIMARY KEY,
            attributes TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE event_queue (
            position INTEGER PRIMARY KEY,
            event_id TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            channel TEXT NOT NULL,
            item_id TEXT NOT NULL,
            user_id TEXT,
            device_id TEXT NOT NULL,
            session_id TEXT,
            time REAL NOT NULL,
            button_id TEXT,
            tracking_string TEXT,
            item TEXT NOT NULL
        );
        """
}

extension Schema {
    /// Channel caches move to a table with rowids. In a table without rowids
    /// the whole row is the b-tree's key, and SQLite reads all of a key that
    /// spills onto overflow pages to compare it: saving any user's cache read
    /// every megabyte of the caches next to it in the tree (at 10,000 flags +
    /// 10,000 cards, 1,800 pages per user change). With rowids only the
    /// primary key's index is searched, and a cache's pages are read when the
    /// cache is.
    static let version2 = """
        CREATE TABLE channel_cache_with_rowids (
            user TEXT NOT NULL,
            channel TEXT NOT NULL,
            cache TEXT NOT NULL,
            PRIMARY KEY (user, channel)
        );
        INSERT INTO channel_cache_with_rowids (user, channel, cache) SELECT user, channel, cache FROM channel_cache;
        DROP TABLE channel_cache;
        ALTER TABLE channel_cache_with_rowids RENAME TO channel_cache;
        """
}

extension Schema {
    /// When each user was last seen, so that users not seen for a while
    /// are forgotten (`UserRetention`), and when each item state last
    /// changed, so that a user's oldest ones go first past the bound. Users
    /// already stored count as seen when the file is brought up to date.
    static let version3 = """
        CREATE TABLE user_seen (
            user TEXT PRIMARY KEY,
            last_seen REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX user_seen_by_time ON user_seen (last_seen);
        INSERT INTO user_seen (user, last_seen)
            SELECT user, (julianday('now') - 2440587.5) * 86400.0
            FROM (SELECT user FROM channel_cache UNION SELECT user FROM item_state
                  UNION SELECT user FROM user_attributes);
        ALTER TABLE item_state ADD COLUMN changed REAL NOT NULL DEFAULT 0;
        """
}

extension Schema {
    /// GrowthBook's sticky bucket documents, by attribute and value (not by
    /// user: two users sharing a device id share its document), with when
    /// each was last read or written, so that the sweep that forgets users
    /// forgets documents not used for as long; and the exposures logged in
    /// the session, so that a restart within it does not log them again.
    static let version4 = """
        CREATE TABLE sticky_assignment (
            attribute_name TEXT NOT NULL,
            attribute_value TEXT NOT NULL,
            assignments TEXT NOT NULL,
            last_used REAL NOT NULL,
            PRIMARY KEY (attribute_name, attribute_value)
        ) WITHOUT ROWID;
        ALTER TABLE profile ADD COLUMN session_exposures TEXT NOT NULL DEFAULT '[]';
        """
}
