// The one C header of the storage layer. SQLITE_TRANSIENT is a macro that
// casts -1 to a function pointer, which Swift cannot import; this inline
// function binds text without it.
#ifndef BUNTING_CSQLITE_SHIM_H
#define BUNTING_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 that SQLite copies at once, so the caller's
/// buffer may go away as soon as this returns.
static inline int bunting_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text ? text : "", length, SQLITE_TRANSIENT);
}

#endif
