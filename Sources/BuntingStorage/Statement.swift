import CSQLite

/// A value bound to a statement's parameter or read from a result column.
enum SQLValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text already encoded as UTF-8 (JSON the engine wrote): bound as it
    /// is, without first becoming a String, which would check and copy
    /// megabytes for a large cache.
    case utf8([UInt8])

    /// Text, or NULL for nil.
    static func text(_ value: String?) -> SQLValue {
        value.map { .text($0) } ?? .null
    }

    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var realValue: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}

/// A prepared statement, owned by this object and finalized in `deinit`.
/// It keeps its database open for as long as it exists.
final class Statement {
    private let database: Database
    private let handle: OpaquePointer

    init(_ sql: String, in database: Database) throws(SQLiteError) {
        let connection = try database.openHandle()
        var statement: OpaquePointer?
        try check(
            sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), connection)
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in \(sql.debugDescription)")
        }
        self.database = database
        self.handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement with `values` bound to its parameters, in order,
    /// and calls `row` for each result row. The statement is reset at the
    /// end, so it never holds a read transaction open between calls.
    func run(_ values: [SQLValue] = [], row: (Row) -> Void = { _ in }) throws(SQLiteError) {
        let connection = try database.openHandle()
        try withBindings(values[...], from: 1, connection) { () throws(SQLiteError) in
            while try check(sqlite3_step(handle), connection) == SQLITE_ROW {
                row(Row(handle: handle))
            }
        }
    }

    /// Binds `values` to the parameters from `index` on and runs `body`
    /// while they are bound. UTF-8 bytes are bound where they are, not
    /// copied (a user's caches are megabytes): each `.utf8` value's buffer
    /// is held for the rest of the bindings and `body`. Whether `body` runs
    /// or a binding fails, the statement is reset and unbound before any
    /// buffer is let go.
    private func withBindings(
        _ values: ArraySlice<SQLValue>, from index: Int32, _ connection: OpaquePointer,
        _ body: () throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        guard let value = values.first else {
            defer { unbind() }
            return try body()
        }
        let rest = values.dropFirst()
        guard case .utf8(let bytes) = value else {
            try bound(bind(value, at: index), connection)
            return try withBindings(rest, from: index + 1, connection, body)
        }
        try bytes.withUnsafeBufferPointer { (buffer) throws(SQLiteError) in
            try bound(
                buffer.withMemoryRebound(to: CChar.self) {
                    bunting_sqlite_bind_text_in_place(handle, index, $0.baseAddress, Int32(buffer.count))
                }, connection)
            try withBindings(rest, from: index + 1, connection, body)
        }
    }

    /// Throws for a binding that failed, leaving none of the values bound.
    private func bound(_ result: Int32, _ connection: OpaquePointer) throws(SQLiteError) {
        do {
            _ = try check(result, connection)
        } catch {
            // After `check`, which reads the connection's message.
            unbind()
            throw error
        }
    }

    private func unbind() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// SQLite's result for binding `value` (other than `.utf8`, bound in place by `withBindings`).
    private func bind(_ value: SQLValue, at index: Int32) -> Int32 {
        switch value {
        case .null:
            sqlite3_bind_null(handle, index)
        case .integer(let number):
            sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            sqlite3_bind_double(handle, index, number)
        case .text(var text):
            // With an explicit length, so that a NUL inside the text is kept.
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    bunting_sqlite_bind_text(handle, index, $0.baseAddress, Int32(bytes.count))
                }
            }
        case .utf8:
            preconditionFailure("bound in place by withBindings")
        }
    }
}

/// The current result row of a statement; valid only inside `Statement.run`'s callback.
struct Row {
    fileprivate let handle: OpaquePointer

    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: return .null
        default: return .text(text(column) ?? "")
        }
    }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func bool(_ column: Int32) -> Bool { integer(column) != 0 }
}
