#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// A failed SQLite call: its extended result code and SQLite's own words.
struct SQLiteError: Error, Equatable, CustomStringConvertible {
    let code: Int32
    let message: String

    /// The primary result code (SQLITE_FULL, SQLITE_CORRUPT, ...), without the extended bits.
    var primaryCode: Int32 { code & 0xFF }

    /// The file is not a database, or not a sound one: it is moved aside,
    /// never written to again.
    /// Another connection holds a lock this one needs.
    var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    var isDamage: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// The file cannot be opened or read (no permission): once moved aside,
    /// a fresh file can take its place.
    var isUnreadableFile: Bool { [SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH].contains(primaryCode) }

    var description: String { message }
}

/// Turns a SQLite result code into a thrown error; the codes that mean
/// success (OK, a row, done) are handed back. Every C call of the storage
/// layer that can fail goes through here.
@discardableResult
func check(_ result: Int32, _ connection: OpaquePointer?) throws(SQLiteError) -> Int32 {
    switch result {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
        return result
    default:
        // The connection's message is the more precise one ("database or disk is
        // full" rather than "disk I/O error") when it is about this call.
        if let connection, sqlite3_extended_errcode(connection) & 0xFF == result & 0xFF {
            var message = String(cString: sqlite3_errmsg(connection))
            // "disk I/O error" says little: when SQLite kept the system's
            // error (No space left on device, Permission denied), add its words.
            let system = sqlite3_system_errno(connection)
            if [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN].contains(result & 0xFF) && system != 0 {
                message += " (\(String(cString: strerror(system))))"
            }
            throw SQLiteError(code: sqlite3_extended_errcode(connection), message: message)
        }
        throw SQLiteError(code: result, message: String(cString: sqlite3_errstr(result)))
    }
}
