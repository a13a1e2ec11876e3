-- SQLite's own JSON import of the flat workload, run by the sqlite3 shell in the dumps
-- directory: json_each over the whole file, ->> for each column (SQLite 3.38+).
PRAGMA page_size = 4096;
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE "pod" ("id" INTEGER PRIMARY KEY, "name" TEXT, "summary" TEXT, "homepage" TEXT, "license" TEXT,
  "version" TEXT, "downloads" INTEGER, "rating" REAL, "created_at" TEXT, "deprecated" INTEGER);
BEGIN;
INSERT INTO "pod" SELECT value->>'id', value->>'name', value->>'summary', value->>'homepage', value->>'license',
  value->>'version', value->>'downloads', value->>'rating', value->>'created_at', value->>'deprecated'
  FROM json_each(readfile('flat.json'));
COMMIT;
