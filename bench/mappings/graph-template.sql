-- bench "fitted": graph's tables as a GRDB app declares them (docs/guides/grdb.md): each row
-- numbered by an AUTOINCREMENT id, the server's id in a UNIQUE column, foreign keys to the
-- parents' row numbers with an index on each, and the migrator's own table. bench/run makes
-- bench/out/graph-template.sqlite from it.
CREATE TABLE "grdb_migrations" ("identifier" TEXT NOT NULL PRIMARY KEY);
INSERT INTO "grdb_migrations" VALUES ('v1');
CREATE TABLE "user" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "remoteId" INTEGER NOT NULL UNIQUE, "name" TEXT NOT NULL, "email" TEXT);
CREATE TABLE "project" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "remoteId" INTEGER NOT NULL UNIQUE, "name" TEXT, "description" TEXT,
  "userId" INTEGER REFERENCES "user"("id") ON DELETE CASCADE);
CREATE INDEX "project_on_userId" ON "project"("userId");
CREATE TABLE "task" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "remoteId" INTEGER NOT NULL UNIQUE, "name" TEXT, "dueAt" DATETIME,
  "completed" BOOLEAN, "projectId" INTEGER REFERENCES "project"("id") ON DELETE CASCADE, "projectPosition" INTEGER,
  "assignedUserId" INTEGER REFERENCES "user"("id") ON DELETE SET NULL);
CREATE INDEX "task_on_projectId" ON "task"("projectId");
CREATE INDEX "task_on_assignedUserId" ON "task"("assignedUserId");
