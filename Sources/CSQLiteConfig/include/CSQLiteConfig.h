#ifndef SEEDER_CSQLITECONFIG_H
#define SEEDER_CSQLITECONFIG_H

#include <sqlite3.h>

/// Turns a connection's triggers off (0) or on (1): `sqlite3_db_config` is variadic, which Swift
/// cannot call. Returns SQLite's result code.
int seeder_enable_triggers(sqlite3 *db, int enabled);

#endif
