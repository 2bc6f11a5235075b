// The one C header of the storage layer. SQLITE_TRANSIENT and SQLITE_STATIC
// are macros that cast -1 and 0 to a function pointer, which Swift cannot
// import; these inline functions bind text with them.
#ifndef BUNTING_CSQLITE_SHIM_H
#define BUNTING_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 that SQLite copies at once, so the caller's
/// buffer may go away as soon as this returns.
static inline int bunting_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text ? text : "", length, SQLITE_TRANSIENT);
}

/// Binds `length` bytes of UTF-8 that SQLite reads where they are: the
/// caller keeps the buffer unchanged until the statement is reset or rebound.
static inline int bunting_sqlite_bind_text_in_place(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text ? text : "", length, SQLITE_STATIC);
}

#endif
