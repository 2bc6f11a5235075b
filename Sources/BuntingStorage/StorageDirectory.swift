#if canImport(Glibc)
import Glibc
#endif
import BuntingCore
import BuntingRuntime

/// The directory a server keeps its state in, held by that server alone.
///
/// Two servers on one directory would each cache the profile in memory and
/// overwrite the other's, and both would send the one queue: so the first
/// takes an exclusive `flock` on `bunting.lock` for as long as it runs, and a
/// second is refused, with the first one's pid. The database itself is held
/// too (SQLite's exclusive locking mode), so that removing the lock file
/// cannot let a second server share it. The kernel drops both locks when the
/// process ends, however it ends, so a killed server leaves no stale lock.
public final class StorageDirectory: Sendable {
    public let path: String
    /// The open lock file; closing it (in deinit) releases the lock.
    private let lockDescriptor: Int32

    public static let databaseName = "bunting.sqlite3"
    public static let lockName = "bunting.lock"

    /// Creates the directory (mode 0700, parents too) if needed and takes
    /// its lock. A directory someone else could have chosen the files of
    /// (see `makeDirectory`) is unusable, and so is a lock file that is a
    /// link or not this user's: it is never truncated or written then.
    public init(path: String) throws(StorageDirectoryError) {
        self.path = path
        try Self.makeDirectory(path)
        let lockPath = path + "/" + Self.lockName
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw .unusable("cannot open \(path): \(Self.errorText())") }
        let opened = OwnedFiles.openFile(Self.lockName, in: directory, flags: O_RDWR | O_CREAT, label: lockPath)
        close(directory)
        let fd: Int32
        switch opened {
        case .success(let descriptor): fd = descriptor
        case .failure(let failure): throw .unusable(failure.message)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let blocked = errno == EWOULDBLOCK
            let text = Self.errorText()
            let holder = Self.readPid(fd)
            close(fd)
            throw blocked ? .inUse(path: path, pid: holder) : .unusable("cannot lock \(lockPath): \(text)")
        }
        // The holder's pid, for the message a second server prints.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        lockDescriptor = fd
    }

    deinit { close(lockDescriptor) }

    /// The default directory: `$XDG_STATE_HOME/bunting`, else
    /// `$HOME/.local/state/bunting` (the XDG base directory rules: a relative
    /// XDG_STATE_HOME is ignored). Nil when neither variable helps.
    public static func defaultPath(environment: (String) -> String?) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/bunting" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.local/state/bunting" }
        return nil
    }

    /// Opens the database in this directory. A damaged file is moved aside
    /// and a fresh one opened in its place; what was found is in the result.
    /// Throws when the disk cannot be used at all (the caller keeps state in
    /// memory instead).
    ///
    /// A file not closed cleanly is checked in full (SQLite's quick check,
    /// which reads every page) before this returns; with `deferringCheck`,
    /// the store owes that check instead and makes it when told
    /// (`SQLiteStore.makeOwedCheck()`): a server answers its first requests
    /// first (see `SQLiteStore+OwedCheck.swift`). A file that cannot be
    /// opened, read or brought up to date is moved aside here either way.
    public func openStore(deferringCheck: Bool = false) throws(StorageError) -> OpenedStore {
        let databasePath = path + "/" + Self.databaseName
        guard access(path, W_OK) == 0 else {
            throw StorageError("\(path) is not writable: \(Self.errorText())")
        }
        // After a clean shutdown the file is as it was left: its check is
        // skipped. Taken before opening, so that a crash from here on leaves no mark.
        let closedCleanly = CleanShutdownMark.take(for: databasePath)
        var info = stat()
        if !closedCleanly && stat(databasePath, &info) == 0 && info.st_size > 0 {
            log.info("storage: checking \(databasePath): it was not closed cleanly (or was changed since)")
        }
        switch Self.attempt(databasePath, check: !closedCleanly && !deferringCheck) {
        case .opened(let connection):
            let store = SQLiteStore(connection)
            if !closedCleanly && deferringCheck { store.owesCheck = true }
            return OpenedStore(store: store, damage: nil)
        case .failed(let failure):
            throw failure
        case .inUse:
            throw StorageError("\(databasePath) is in use by another process (its database is locked)", inUse: true)
        case .damaged(let problem):
            let (connection, movedTo) = try Self.replaceDamaged(databasePath, problem: problem)
            return OpenedStore(
                store: SQLiteStore(connection), damage: StorageDamage(problem: problem, movedTo: movedTo))
        }
    }

    /// Moves the damaged database at `databasePath` aside and opens a fresh
    /// one in its place: at start-up, and when damage shows while serving.
    static func replaceDamaged(_ databasePath: String, problem: String) throws(StorageError) -> (
        StoreConnection, movedTo: String
    ) {
        let movedTo = try moveAside(databasePath)
        log.error("storage: \(databasePath) is damaged (\(problem)); moved it to \(movedTo) and started afresh")
        switch attempt(databasePath, check: true) {
        case .opened(let connection):
            return (connection, movedTo)
        case .failed(let failure):
            throw failure
        case .inUse:
            throw StorageError("\(databasePath) is in use by another process (its database is locked)", inUse: true)
        case .damaged(let again):
            throw StorageError("a fresh database at \(databasePath) is damaged too: \(again)")
        }
    }

    // MARK: - Opening

    /// The page size of a database this code creates.
    static let pageSize = 16384

    private enum Attempt {
        case opened(StoreConnection)
        case damaged(String)
        case failed(StorageError)
        /// Another connection holds the database.
        case inUse
    }

    /// Opens, locks, checks (`check`: SQLite's quick check, which reads every
    /// page) and migrates the database at `databasePath`.
    private static func attempt(_ databasePath: String, check: Bool) -> Attempt {
        var info = stat()
        let exists = lstat(databasePath, &info) == 0
        if exists && info.st_mode & S_IFMT != S_IFREG { return .damaged("not a regular file") }
        do throws(SQLiteError) {
            let database = try Database(path: databasePath)
            // Held from the first write until closed: a second process cannot
            // open it, and no shared-memory index is needed (fewer syscalls).
            try database.execute("PRAGMA locking_mode = EXCLUSIVE")
            // Pages of 16 KB for a new file (an existing one keeps its own):
            // a user's caches at 10,000 flags + 10,000 cards are about 3 MB,
            // written to the log one page per write(2): 180 writes instead of 720.
            // A small commit (an impression) writes as many pages as before,
            // larger ones; the durable impression rate did not move measurably.
            try database.execute("PRAGMA page_size = \(Self.pageSize)")
            // Reading the header first: a file that is not a database fails here.
            guard try database.value("PRAGMA journal_mode = WAL").textValue == "wal" else {
                return .failed(StorageError("\(databasePath): the write-ahead log cannot be used"))
            }
            try database.execute("PRAGMA synchronous = NORMAL")
            // Debian's SQLite zeroes every freed page by default: replacing a
            // user's cache of megabytes wrote as many megabytes of zeroes to
            // the log. FAST zeroes what it can without more I/O; a wipe turns
            // the full erasure back on for itself (`SQLiteStore.wipe`).
            try database.execute("PRAGMA secure_delete = FAST")
            // Takes the exclusive lock now, while the server starts.
            try database.execute("BEGIN IMMEDIATE; COMMIT")
            // Reads every page once, so damage shows now rather than halfway
            // through the session; for a queue of 10,000 events this is 10-20 ms.
            // Skipped after a clean shutdown (see CleanShutdownMark), and
            // made later by a store that owes it (`openStore(deferringCheck:)`).
            if check, let damage = try quickCheck(database) { return .damaged(damage) }
            do {
                try Schema.current.migrate(database)
            } catch {
                switch error {
                case .newer(let found, let known):
                    return .failed(
                        StorageError(
                            "\(databasePath) has schema version \(found), written "
                                + "by a newer bunting; this one knows up to \(known)"))
                case .notOurs(let applicationId):
                    return .damaged("not a bunting database (application id \(applicationId))")
                case .sqlite(let error):
                    throw error
                }
            }
            return .opened(try StoreConnection(database))
        } catch {
            if error.isBusy { return .inUse }
            // A file that is there but cannot be opened or read (no permission,
            // not a database, damaged) is moved aside; the rest is the disk's fault.
            if error.isDamage || (exists && error.isUnreadableFile) { return .damaged(error.message) }
            return .failed(StorageError("cannot open \(databasePath): \(error.message)"))
        }
    }

    /// SQLite's quick check of the whole file: nil when it is sound, else what is wrong.
    static func quickCheck(_ database: Database) throws(SQLiteError) -> String? {
        let verdict = try database.value("PRAGMA quick_check").textValue ?? "no answer"
        return verdict == "ok" ? nil : verdict
    }

    // MARK: - Moving a damaged file aside

    /// Renames the database, and its log and shared-memory files, with a
    /// UTC timestamp suffix: `bunting.sqlite3.damaged-20250630T120000Z` (and
    /// `…-wal`, `…-shm`, so that the copy opens with its log). The log must
    /// go too: left behind, it would be replayed into the fresh database.
    static func moveAside(_ databasePath: String) throws(StorageError) -> String {
        var target = databasePath + ".damaged-" + timestamp()
        var number = 2
        while exists(target) || exists(target + "-wal") {
            target = databasePath + ".damaged-" + timestamp() + "-\(number)"
            number += 1
        }
        guard rename(databasePath, target) == 0 || errno == ENOENT else {
            throw StorageError("cannot move the damaged \(databasePath) aside: \(errorText())")
        }
        for suffix in ["-wal", "-shm"] where exists(databasePath + suffix) {
            guard rename(databasePath + suffix, target + suffix) == 0 else {
                throw StorageError("cannot move the damaged \(databasePath + suffix) aside: \(errorText())")
            }
        }
        return target
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    // MARK: - Helpers

    /// Makes the directory and its missing parents (mode 0700), and checks
    /// that no one else can have chosen what it holds: it is this user's
    /// and writable by no one else; each existing parent on the way is this
    /// user's or root's, and one that others can write has the sticky bit
    /// (as /tmp has), so that no one else can rename the directory away and
    /// put their own in its place; a symbolic link on the way is this
    /// user's or root's. (What lies above a relative path is not checked.)
    private static func makeDirectory(_ path: String) throws(StorageDirectoryError) {
        guard !path.isEmpty else { throw .unusable("the storage directory is an empty path") }
        let components = path.split(separator: "/")
        var prefix = path.hasPrefix("/") ? "" : "."
        for (index, component) in components.enumerated() {
            prefix += "/" + String(component)
            var info = stat()
            if lstat(prefix, &info) != 0 {
                guard errno == ENOENT else { throw .unusable("cannot create \(prefix): \(errorText())") }
                if mkdir(prefix, 0o700) == 0 { continue }
                guard errno == EEXIST, lstat(prefix, &info) == 0 else {
                    throw .unusable("cannot create \(prefix): \(errorText())")
                }
            }
            if let why = distrust(prefix, info, isStorage: index == components.count - 1) {
                throw .unusable("\(path) is not safe to keep state in: \(why)")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .unusable("\(path) is not a directory")
        }
    }

    /// Why the existing `path` (`info` from lstat) is not to be trusted on
    /// the way to the storage directory, or as that directory (`isStorage`).
    private static func distrust(_ path: String, _ info: stat, isStorage: Bool) -> String? {
        var info = info
        let user = geteuid()
        if info.st_mode & S_IFMT == S_IFLNK {
            guard info.st_uid == user || info.st_uid == 0 else {
                return "\(path) is a symbolic link of user \(info.st_uid)"
            }
            guard stat(path, &info) == 0 else { return nil } // a dangling link: making what follows fails and says why
        }
        // Not a directory: making what follows fails, and says so.
        guard info.st_mode & S_IFMT == S_IFDIR else { return isStorage ? "\(path) is not a directory" : nil }
        if isStorage { return OwnedFiles.distrust(info, kind: S_IFDIR) }
        guard info.st_uid == user || info.st_uid == 0 else { return "\(path) belongs to user \(info.st_uid)" }
        guard info.st_mode & 0o022 == 0 || info.st_mode & S_ISVTX != 0 else {
            return "others can write to \(path) (mode "
                + "\(OwnedFiles.octal(info.st_mode & 0o7777)), without the sticky bit)"
        }
        return nil
    }

    private static func readPid(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).filter(\.isNumber))
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// A store just opened, and the damage found on the way, if any.
public struct OpenedStore {
    public let store: SQLiteStore
    public let damage: StorageDamage?
}

/// A damaged database that was moved aside and replaced by a fresh one.
public struct StorageDamage: Equatable, Sendable {
    /// What was wrong, in SQLite's words.
    public let problem: String
    /// Where the damaged file is now.
    public let movedTo: String

    /// What subscribers are told.
    public var message: String {
        "local storage was damaged (\(problem)) and has been started afresh; the damaged file was moved to \(movedTo)"
    }
}

/// The disk cannot be used: the caller keeps state in memory instead.
public struct StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// Another process holds the database: the server must not start.
    public let inUse: Bool
    public init(_ message: String, inUse: Bool = false) {
        self.message = message
        self.inUse = inUse
    }
    public var description: String { message }
}

public enum StorageDirectoryError: Error, Equatable, Sendable {
    /// Another process holds the directory's lock.
    case inUse(path: String, pid: Int32?)
    /// The directory cannot be made or locked: the caller keeps state in memory.
    case unusable(String)
}
