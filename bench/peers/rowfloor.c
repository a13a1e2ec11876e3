/* The floor of the graph and pages workloads: the rows of a finished seed (the Python importer's,
 * whose schema is the workload's), read into memory first, then inserted into empty tables of the
 * same schema through one prepared statement per table, in one transaction, journal and sync
 * off, and the seed's indexes made after the load. No JSON, no merging, no checks: nothing can
 * put these rows into SQLite faster through its public API. Only the insertion is timed; it is
 * printed to stderr as `floor-seconds: S`, which bench/run takes instead of the process's wall
 * time (reading the rows back is not part of an import).
 *
 *   cc -O2 -o rowfloor rowfloor.c -lsqlite3 && ./rowfloor SEED.sqlite OUT.sqlite
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void check(int status, sqlite3 *db, const char *what) {
    if (status != SQLITE_OK && status != SQLITE_DONE && status != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}
typedef struct { char *name; char *sql; int columns; long count; sqlite3_value **values; } Table;

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: rowfloor SEED.sqlite OUT.sqlite\n"); return 64; }
    sqlite3 *in, *out;
    check(sqlite3_open_v2(argv[1], &in, SQLITE_OPEN_READONLY, 0), in, "open seed");
    Table tables[64]; int tableCount = 0;
    char *indexes[256]; int indexCount = 0;
    sqlite3_stmt *schema;
    check(sqlite3_prepare_v2(in, "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid", -1, &schema, 0), in, "schema");
    while (sqlite3_step(schema) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(schema, 0);
        if (strcmp(type, "table") == 0) {
            Table *t = &tables[tableCount++];
            t->name = strdup((const char *)sqlite3_column_text(schema, 1));
            t->sql = strdup((const char *)sqlite3_column_text(schema, 2));
        } else if (strcmp(type, "index") == 0) {
            indexes[indexCount++] = strdup((const char *)sqlite3_column_text(schema, 2));
        }
    }
    sqlite3_finalize(schema);
    for (int i = 0; i < tableCount; i++) {
        Table *t = &tables[i];
        char sql[512]; sqlite3_stmt *rows;
        snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", t->name);
        check(sqlite3_prepare_v2(in, sql, -1, &rows, 0), in, "select");
        t->columns = sqlite3_column_count(rows);
        long capacity = 1024; t->count = 0; t->values = malloc(sizeof(sqlite3_value *) * capacity * t->columns);
        while (sqlite3_step(rows) == SQLITE_ROW) {
            if (t->count == capacity) { capacity *= 2; t->values = realloc(t->values, sizeof(sqlite3_value *) * capacity * t->columns); }
            for (int c = 0; c < t->columns; c++) t->values[t->count * t->columns + c] = sqlite3_value_dup(sqlite3_column_value(rows, c));
            t->count++;
        }
        sqlite3_finalize(rows);
    }
    remove(argv[2]);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    check(sqlite3_open(argv[2], &out), out, "open");
    check(sqlite3_exec(out, "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN", 0, 0, 0), out, "pragmas");
    long total = 0;
    for (int i = 0; i < tableCount; i++) {
        Table *t = &tables[i];
        check(sqlite3_exec(out, t->sql, 0, 0, 0), out, "create");
        char sql[4096]; int at = snprintf(sql, sizeof sql, "INSERT INTO \"%s\" VALUES (?", t->name);
        for (int c = 1; c < t->columns; c++) at += snprintf(sql + at, sizeof sql - at, ", ?");
        snprintf(sql + at, sizeof sql - at, ")");
        sqlite3_stmt *insert;
        check(sqlite3_prepare_v2(out, sql, -1, &insert, 0), out, "prepare");
        for (long r = 0; r < t->count; r++) {
            for (int c = 0; c < t->columns; c++) sqlite3_bind_value(insert, c + 1, t->values[r * t->columns + c]);
            check(sqlite3_step(insert), out, "insert");
            sqlite3_reset(insert);
        }
        sqlite3_finalize(insert);
        total += t->count;
    }
    for (int i = 0; i < indexCount; i++) check(sqlite3_exec(out, indexes[i], 0, 0, 0), out, "index");
    check(sqlite3_exec(out, "COMMIT", 0, 0, 0), out, "commit");
    check(sqlite3_close(out), out, "close");
    clock_gettime(CLOCK_MONOTONIC, &end);
    fprintf(stderr, "floor-seconds: %.6f\n%ld rows\n", (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9, total);
    return 0;
}
