/* The floor of the flat workload: the same N rows that `seeder-bench generate flat N` writes,
 * made in memory by the same generator (no JSON at all) and inserted into the same table
 * through one prepared statement, in one transaction, journal and sync off. Nothing can insert
 * these rows into SQLite faster through its public API.
 *
 *   cc -O2 -o floor floor.c -lsqlite3 && ./floor N OUT.sqlite
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;
static uint64_t next(void) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int below(int bound) { return (int)(next() % (uint64_t)bound); }

static const char *words[] = {"swift", "sqlite", "json", "seed", "mapper", "network", "cache", "image", "layout", "async",
                              "parser", "kit", "core", "view", "data", "sync", "store", "model", "fast", "tiny"};
static const char *licenses[] = {"MIT", "Apache-2.0", "BSD-3-Clause", "ISC", "MPL-2.0"};

static void check(int status, sqlite3 *db, const char *what) {
    if (status != SQLITE_OK && status != SQLITE_DONE) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor N OUT.sqlite\n"); return 64; }
    long count = atol(argv[1]);
    remove(argv[2]);
    sqlite3 *db;
    check(sqlite3_open(argv[2], &db), db, "open");
    check(sqlite3_exec(db, "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                           "CREATE TABLE \"pod\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT, \"summary\" TEXT, \"homepage\" TEXT,"
                           " \"license\" TEXT, \"version\" TEXT, \"downloads\" INTEGER, \"rating\" REAL, \"created_at\" TEXT,"
                           " \"deprecated\" INTEGER); BEGIN", 0, 0, 0), db, "schema");
    sqlite3_stmt *insert;
    check(sqlite3_prepare_v2(db, "INSERT INTO \"pod\" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, 0), db, "prepare");
    char name[64], summary[256], homepage[128], version[32], stamp[32];
    for (long id = 1; id <= count; id++) {
        /* The generator's order of draws, record by record (bench/generate/main.swift, flatRecord). */
        state = 42 + (uint64_t)id * 0x9E3779B9ULL;
        const char *first = words[below(20)], *second = words[below(20)];
        snprintf(name, sizeof name, "%s%c%s%ld", first, second[0] - 32, second + 1, id);
        int year = 10 + below(15), month = 1 + below(12), day = 1 + below(28), hour = 10 + below(14), minute = 10 + below(50), second_ = 10 + below(50);
        snprintf(stamp, sizeof stamp, "20%d-%02d-%02dT%d:%d:%dZ", year, month, day, hour, minute, second_);
        int length = 4 + below(8);
        summary[0] = 0;
        for (int i = 0; i < length; i++) {
            if (i) strcat(summary, " ");
            strcat(summary, words[below(20)]);
        }
        double rating = below(5000) / 1000.0;
        int major = below(10), minor = below(20), patch = below(50);
        snprintf(version, sizeof version, "%d.%d.%d", major, minor, patch);
        const char *license = licenses[below(5)];
        int downloads = below(10000000);
        int deprecated = below(20) == 0;
        snprintf(homepage, sizeof homepage, "https://example.com/%s", name);
        sqlite3_bind_int64(insert, 1, id);
        sqlite3_bind_text(insert, 2, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 3, summary, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 4, homepage, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 5, license, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 6, version, -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 7, downloads);
        sqlite3_bind_double(insert, 8, rating);
        sqlite3_bind_text(insert, 9, stamp, -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 10, deprecated);
        check(sqlite3_step(insert), db, "insert");
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
    check(sqlite3_close(db), db, "close");
    return 0;
}
