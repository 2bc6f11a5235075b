#if canImport(Glibc)
import Glibc
#endif
import BuntingRuntime

/// A file next to the database saying that it was closed cleanly, so that
/// the next start can skip `PRAGMA quick_check` (which reads every page: most
/// of a restart's time with a long queue).
///
/// Written after the last connection closed without error and left no
/// write-ahead log; taken (read and removed) before the database is opened
/// again, so that a server killed or crashed afterwards leaves no mark and
/// the start after it checks. The mark also records the file's identity,
/// size and modification time: a database replaced or written to while no
/// server ran (restored from a copy, edited by hand) is checked all the same.
/// Damage that changes none of these (bit rot) is found when SQLite meets it,
/// and the file is then moved aside as at start-up (`SQLiteStore`).
enum CleanShutdownMark {
    static func path(for databasePath: String) -> String { databasePath + ".clean" }

    /// Marks `databasePath` as closed cleanly as it is now. A mark that
    /// cannot be written only costs the next start its check.
    static func write(for databasePath: String) {
        guard !exists(databasePath + "-wal"), let fingerprint = fingerprint(of: databasePath) else { return }
        // Made anew, never through a link: whatever was at its name is not written into.
        unlink(path(for: databasePath))
        let fd = open(path(for: databasePath), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let failure = FileDescriptorIO.writeAll(fd, fingerprint)
        close(fd)
        if failure != nil { unlink(path(for: databasePath)) }
    }

    /// Whether `databasePath` was closed cleanly and not touched since;
    /// removes the mark either way. False when the mark cannot be removed:
    /// left in place, it would vouch for the file after the next crash.
    static func take(for databasePath: String) -> Bool {
        let markPath = path(for: databasePath)
        let fd = open(markPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            // A link in its place vouches for nothing, and goes.
            if errno == ELOOP { unlink(markPath) }
            return false
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let outcome = buffer.withUnsafeMutableBytes { FileDescriptorIO.readSome(fd, into: $0) }
        close(fd)
        guard unlink(markPath) == 0, case .transferred(let count) = outcome else { return false }
        let recorded = String(decoding: buffer[..<count], as: UTF8.self)
        return !exists(databasePath + "-wal") && recorded == fingerprint(of: databasePath)
    }

    /// Device, inode, size and modification time (to the nanosecond) of a regular file.
    private static func fingerprint(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return "bunting clean close: \(info.st_dev) \(info.st_ino) "
            + "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\n"
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
