-- The empty database tasklist-grdb.yaml fits: what the app's DatabaseMigrator writes into an
-- empty file (docs/guides/grdb.md), as `sqlite3 tasklist-grdb.sqlite .dump` shows it. Made with:
--   sqlite3 tasklist-grdb.sqlite < tasklist-grdb.sql
--
-- The app's migration:
--   migrator.registerMigration("v1") { db in
--       try db.create(table: "user") { t in
--           t.primaryKey("id", .integer)                     // the web service's id
--           t.column("name", .text).notNull()
--           t.column("email", .text)
--       }
--       try db.create(table: "project") { t in
--           t.autoIncrementedPrimaryKey("id")                // the app's own row id
--           t.column("remoteId", .integer).notNull().unique()
--           t.column("name", .text).notNull()
--           t.column("description", .text)
--           t.column("taskCount", .integer).notNull().defaults(to: 0)
--           t.belongsTo("user", onDelete: .setNull)
--       }
--       try db.create(table: "task") { t in
--           t.autoIncrementedPrimaryKey("id")
--           t.column("remoteId", .integer).notNull().unique()
--           t.belongsTo("project", onDelete: .cascade).notNull()
--           t.column("projectPosition", .integer)
--           t.column("name", .text).notNull()
--           t.column("dueAt", .datetime)
--           t.column("completed", .boolean).notNull().defaults(to: false)
--           t.belongsTo("assignedUser", inTable: "user", onDelete: .setNull)
--       }
--       try db.create(virtualTable: "task_ft", using: FTS5()) { t in
--           t.synchronize(withTable: "task")
--           t.column("name")
--       }
--   }
PRAGMA journal_mode = DELETE;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES ('v1');
CREATE TABLE "user" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "email" TEXT);
CREATE TABLE "project" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "remoteId" INTEGER NOT NULL UNIQUE, "name" TEXT NOT NULL, "description" TEXT, "taskCount" INTEGER NOT NULL DEFAULT 0, "userId" INTEGER REFERENCES "user"("id") ON DELETE SET NULL);
CREATE INDEX "index_project_on_userId" ON "project"("userId");
CREATE TABLE "task" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "remoteId" INTEGER NOT NULL UNIQUE, "projectId" INTEGER NOT NULL REFERENCES "project"("id") ON DELETE CASCADE, "projectPosition" INTEGER, "name" TEXT NOT NULL, "dueAt" DATETIME, "completed" BOOLEAN NOT NULL DEFAULT 0, "assignedUserId" INTEGER REFERENCES "user"("id") ON DELETE SET NULL);
CREATE INDEX "index_task_on_projectId" ON "task"("projectId");
CREATE INDEX "index_task_on_assignedUserId" ON "task"("assignedUserId");
CREATE VIRTUAL TABLE "task_ft" USING fts5(name, content='task', content_rowid='id');
CREATE TRIGGER "__task_ft_ai" AFTER INSERT ON "task" BEGIN
    INSERT INTO "task_ft"("rowid", "name") VALUES (new."id", new."name");
END;
CREATE TRIGGER "__task_ft_ad" AFTER DELETE ON "task" BEGIN
    INSERT INTO "task_ft"("task_ft", "rowid", "name") VALUES('delete', old."id", old."name");
END;
CREATE TRIGGER "__task_ft_au" AFTER UPDATE ON "task" BEGIN
    INSERT INTO "task_ft"("task_ft", "rowid", "name") VALUES('delete', old."id", old."name");
    INSERT INTO "task_ft"("rowid", "name") VALUES (new."id", new."name");
END;
COMMIT;
