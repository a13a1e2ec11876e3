#ifndef SEEDER_CSQLITE_H
#define SEEDER_CSQLITE_H

// The session extension (changesets: docs/commands.md, diff --changeset) is compiled into the
// system SQLite seeder links, but sqlite3.h declares it only when asked to.
#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/// Turns a connection's triggers off (0) or on (1): `sqlite3_db_config` is variadic, which Swift
/// cannot call. Returns SQLite's result code.
int seeder_enable_triggers(sqlite3 *db, int enabled);

#endif
