// SQLite from the system (Debian: libsqlite3-dev; Apple platforms ship it).
// Swift cannot import function-like macros, so SQLITE_TRANSIENT, a cast of
// -1 to a destructor, is wrapped as an inline function here.
#ifndef PARALLAX_CSQLITE_SHIM_H
#define PARALLAX_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline sqlite3_destructor_type pk_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
