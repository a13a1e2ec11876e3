import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

struct SeedSchemaTests {
    static let tasklist = """
        seeder: 1
        entities:
          User:
            attributes:
              id: integer
              name: { type: string, required: true }
              email: { type: string, unique: true }
          Project:
            attributes: { id: integer, name: { type: string, index: true }, createdAt: date }
            relationships:
              user: { to: User }
              tasks: { to: Task, many: true, inverse: project, ordered: true }
              tags: { to: Tag, many: true }
          Task:
            attributes: { id: integer, name: string }
            relationships:
              project: { to: Project }
              assignedUser: { to: User, from: assigned_user_id, required: true }
          Tag:
            identity: slug
            attributes: { slug: string }
          Card:
            identity: [suit, value]
            attributes: { suit: string, value: integer }
          Note:
            identity: none
            attributes: { text: string }
            relationships:
              card: { to: Card }
        """

    @Test func generatesTheSchemaOfSeedMD() throws {
        let schema = SeedSchema(mapping: try validMapping(Self.tasklist))
        #expect(
            schema.statements == [
                "CREATE TABLE \"seed_metadata\" (\n  \"key\" TEXT PRIMARY KEY NOT NULL,\n  \"value\" TEXT NOT NULL\n)",
                "CREATE TABLE \"seed_source\" (\n  \"path\" TEXT PRIMARY KEY NOT NULL,\n  \"files\" INTEGER NOT NULL,\n  \"sha256\" TEXT NOT NULL,\n  \"bytes\" INTEGER NOT NULL,\n  \"records\" INTEGER NOT NULL\n)",
                """
                CREATE TABLE "user" (
                  "id" INTEGER PRIMARY KEY,
                  "name" TEXT NOT NULL,
                  "email" TEXT
                )
                """,
                """
                CREATE TABLE "project" (
                  "id" INTEGER PRIMARY KEY,
                  "name" TEXT,
                  "created_at" TEXT,
                  "user_id" INTEGER,
                  FOREIGN KEY ("user_id") REFERENCES "user"("id")
                )
                """,
                """
                CREATE TABLE "task" (
                  "id" INTEGER PRIMARY KEY,
                  "name" TEXT,
                  "project_id" INTEGER,
                  "assigned_user_id" INTEGER NOT NULL,
                  "project_position" INTEGER,
                  FOREIGN KEY ("project_id") REFERENCES "project"("id"),
                  FOREIGN KEY ("assigned_user_id") REFERENCES "user"("id")
                )
                """,
                """
                CREATE TABLE "tag" (
                  "slug" TEXT NOT NULL,
                  PRIMARY KEY ("slug")
                )
                """,
                """
                CREATE TABLE "card" (
                  "suit" TEXT NOT NULL,
                  "value" INTEGER NOT NULL,
                  PRIMARY KEY ("suit", "value")
                )
                """,
                """
                CREATE TABLE "note" (
                  "_pk" INTEGER PRIMARY KEY,
                  "text" TEXT,
                  "card_suit" TEXT,
                  "card_value" INTEGER,
                  FOREIGN KEY ("card_suit", "card_value") REFERENCES "card"("suit", "value")
                )
                """,
                """
                CREATE TABLE "project_tags" (
                  "project_id" INTEGER NOT NULL,
                  "tag_id" TEXT NOT NULL,
                  PRIMARY KEY ("project_id", "tag_id"),
                  FOREIGN KEY ("project_id") REFERENCES "project"("id"),
                  FOREIGN KEY ("tag_id") REFERENCES "tag"("slug")
                )
                """,
                "CREATE UNIQUE INDEX \"user_email_index_unique\" ON \"user\"(\"email\")",
                "CREATE INDEX \"project_user_id_index\" ON \"project\"(\"user_id\")",
                "CREATE INDEX \"project_name_index\" ON \"project\"(\"name\")",
                "CREATE INDEX \"task_project_id_index\" ON \"task\"(\"project_id\")",
                "CREATE INDEX \"task_assigned_user_id_index\" ON \"task\"(\"assigned_user_id\")",
                "CREATE INDEX \"note_card_suit_card_value_index\" ON \"note\"(\"card_suit\", \"card_value\")",
                "CREATE INDEX \"project_tags_tag_id_index\" ON \"project_tags\"(\"tag_id\")",
            ])
    }

    @Test func isValidSQLiteThatPassesItsOwnChecks() throws {
        let schema = SeedSchema(mapping: try validMapping(Self.tasklist))
        let database = try DatabaseQueue()
        try database.write { db in
            for statement in schema.statements { try db.execute(sql: statement) }
            #expect(try db.tableExists("project_tags"))
            #expect(try db.foreignKeys(on: "note").first?.mapping.map(\.origin) == ["card_suit", "card_value"])
            #expect(try db.primaryKey("card").columns == ["suit", "value"])
        }
    }

    @Test func quotesEveryIdentifierItself() {
        #expect(SQLText.quote("plain") == "\"plain\"")
        #expect(SQLText.quote("we\"ird") == "\"we\"\"ird\"")
        #expect(SQLText.list(["a", "b"]) == "\"a\", \"b\"")
    }

    /// `_fields` keeps each slot's file and offset as a varint distance from the row's own,
    /// with the file only when it differs: before the row, far after it, in another file.
    @Test func rowOriginsRoundTrip() {
        let origins: [(file: Int, offset: Int)] = [(2, 1000), (2, 1003), (2, 40), (5, 7), (2, 5_000_000_000), (300, 1000), (2, 999)]
        var fields: [UInt8] = []
        for origin in origins {
            RowLayout.appendOrigin(file: origin.file, offset: origin.offset, rowFile: 2, rowOffset: 1000, to: &fields)
        }
        #expect(fields.count < origins.count * 3)
        let decoded = RowLayout.origins(in: fields, rowFile: 2, rowOffset: 1000)
        #expect(decoded.map(\.file) == origins.map(\.file))
        #expect(decoded.map(\.offset) == origins.map(\.offset))
        #expect(RowLayout.origin(ofSlot: 3, in: fields, rowFile: 2, rowOffset: 1000) == (5, 7))
        #expect(RowLayout.origin(ofSlot: 9, in: fields, rowFile: 2, rowOffset: 1000) == (2, 1000))
        // Slot 1 stands 3 bytes into its record; slot 0 where the record starts.
        #expect(RowLayout.isRowOrigin(ofSlot: 0, in: fields) && !RowLayout.isRowOrigin(ofSlot: 1, in: fields))
        let replaced = RowLayout.replacingOrigin(ofSlot: 1, in: fields, rowFile: 2, rowOffset: 1000, with: (7, 12))
        #expect(RowLayout.origins(in: replaced, rowFile: 2, rowOffset: 1000).map(\.offset) == [1000, 12, 40, 7, 5_000_000_000, 1000, 999])
        #expect(RowLayout.origin(ofSlot: 1, in: replaced, rowFile: 2, rowOffset: 1000) == (7, 12))
    }

    /// The encoder writes `_fields` inline up to 40 bytes, then spills into an array: the same
    /// bytes either way.
    @Test func rowOriginsInlineAndSpilled() {
        for slots in [0, 1, 13, 14, 40] {
            var array: [UInt8] = []
            var inline = OriginBytes()
            for slot in 0..<slots {
                // Two or three bytes a slot (distances of thousands of bytes): 40 slots spill.
                RowLayout.appendOrigin(file: 1, offset: 1000 + 4000 * slot, rowFile: 1, rowOffset: 1000, to: &array)
                RowLayout.appendOrigin(file: 1, offset: 1000 + 4000 * slot, rowFile: 1, rowOffset: 1000, to: &inline)
            }
            let bytes = inline.withUnsafeBytes { Array($0) }
            #expect(bytes == array)
            #expect(RowLayout.origins(in: bytes, rowFile: 1, rowOffset: 1000).map(\.offset) == (0..<slots).map { 1000 + 4000 * $0 })
        }
    }
}

/// The finished file's own checks (docs/seed.md, Checks): a dangling foreign key and a `NULL`
/// in a `NOT NULL` column are each caught, though the two run at once on two connections.
struct SeedChecksTests {
    @Test func catchesADanglingKeyAndABrokenConstraint() throws {
        let workspace = try Workspace.withDumps()
        let queue = try DatabaseQueue(path: workspace.root + "/seed.sqlite")
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE "user" ("id" INTEGER PRIMARY KEY, "name" TEXT);
                    CREATE TABLE "task" ("id" INTEGER PRIMARY KEY, "user_id" INTEGER REFERENCES "user"("id"));
                    INSERT INTO "user" VALUES (1, NULL);
                    INSERT INTO "task" VALUES (1, 1);
                    """)
            #expect(throws: Never.self) { try SeedChecks.check(db) }
            try db.execute(sql: "PRAGMA foreign_keys = OFF")  // as the build loads: GRDB turns them on
            try db.execute(sql: "INSERT INTO \"task\" VALUES (2, 9)")
            #expect(throws: AssemblyError.self) { try SeedChecks.check(db) }
            try db.execute(sql: "DELETE FROM \"task\" WHERE \"id\" = 2")
            // `NOT NULL` given after the rows, as `SeedFinisher.constrain` does.
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql: """
                    UPDATE "sqlite_schema" SET "sql" = 'CREATE TABLE "user" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)' WHERE "name" = 'user'
                    """)
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
            do {
                try SeedChecks.check(db)
                Issue.record("a NULL in a NOT NULL column passed the checks")
            } catch let error as AssemblyError {
                #expect(error.message.hasPrefix("the seed fails PRAGMA quick_check: NULL value in user.name"))
            }
        }
    }

    /// `keysMayDangle` says a table has a dangling key exactly when `PRAGMA foreign_key_check`
    /// finds one: single and composite keys, text keys, `NULL` in any column of a key (never a
    /// violation), a child whose value only matches once the parent column's affinity applies;
    /// a key that names no parent columns is always left to the pragma.
    @Test func findsWhatForeignKeyCheckFinds() throws {
        let workspace = try Workspace.withDumps()
        let queue = try DatabaseQueue(path: workspace.root + "/keys.sqlite")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql: """
                    CREATE TABLE "user" ("id" INTEGER PRIMARY KEY);
                    CREATE TABLE "tag" ("name" TEXT PRIMARY KEY NOT NULL);
                    CREATE TABLE "edition" ("book" TEXT NOT NULL, "number" INTEGER NOT NULL, PRIMARY KEY ("book", "number"));
                    CREATE TABLE "note" (
                        "id" INTEGER PRIMARY KEY, "user_id" TEXT REFERENCES "user"("id"), "tag_name" TEXT REFERENCES "tag"("name"),
                        "book" TEXT, "number" INTEGER, FOREIGN KEY ("book", "number") REFERENCES "edition"("book", "number"));
                    CREATE INDEX "note_user_id_index" ON "note"("user_id");
                    CREATE TABLE "comment" ("id" INTEGER PRIMARY KEY, "owner" INTEGER REFERENCES "user");
                    INSERT INTO "user" VALUES (1), (2);
                    INSERT INTO "tag" VALUES ('a'), ('b');
                    INSERT INTO "edition" VALUES ('x', 1), ('x', 2);
                    INSERT INTO "note" VALUES (1, '1', 'a', 'x', 1), (2, NULL, NULL, 'x', NULL), (3, 2, 'b', NULL, 9);
                    INSERT INTO "comment" VALUES (1, 1), (2, NULL);
                    """)
            func agree(_ change: String, dangles: Set<String>) throws {
                try db.execute(sql: "SAVEPOINT s; \(change)")
                defer { try? db.execute(sql: "ROLLBACK TO s; RELEASE s") }
                let pragma = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                #expect(Set(pragma.map { $0[0] as String }) == dangles, "\(change)")
                #expect(try SeedChecks.keysMayDangle(in: "note", db) == dangles.contains("note"), "\(change)")
                #expect(try SeedChecks.keysMayDangle(in: "comment", db), "\(change)")
                #expect(try SeedChecks.foreignKeyViolations(db).sorted() == pragma.map(\.description).sorted(), "\(change)")
            }
            try agree("", dangles: [])
            try agree("UPDATE \"note\" SET \"user_id\" = '3' WHERE \"id\" = 1", dangles: ["note"])
            try agree("UPDATE \"note\" SET \"user_id\" = 'one' WHERE \"id\" = 1", dangles: ["note"])
            try agree("UPDATE \"note\" SET \"tag_name\" = 'A' WHERE \"id\" = 1", dangles: ["note"])
            try agree("UPDATE \"note\" SET \"number\" = 3 WHERE \"id\" = 1", dangles: ["note"])
            try agree("UPDATE \"note\" SET \"book\" = 'y' WHERE \"id\" = 1", dangles: ["note"])
            try agree("UPDATE \"note\" SET \"book\" = 'y', \"number\" = NULL WHERE \"id\" = 1", dangles: [])
            try agree("UPDATE \"comment\" SET \"owner\" = 7 WHERE \"id\" = 2", dangles: ["comment"])
            try agree("DELETE FROM \"user\" WHERE \"id\" = 2", dangles: ["note"])
            try agree("DELETE FROM \"edition\" WHERE \"number\" = 2", dangles: [])
            try agree("DELETE FROM \"user\" WHERE \"id\" = 1", dangles: ["note", "comment"])
        }
    }
}
