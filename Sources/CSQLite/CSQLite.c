#include "CSQLite.h"

int seeder_enable_triggers(sqlite3 *db, int enabled) {
    int now = -1;
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled, &now);
    return code == SQLITE_OK && now != enabled ? SQLITE_ERROR : code;
}
