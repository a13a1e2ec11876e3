import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `schema: { template }` on the database a real GRDB `DatabaseMigrator` makes (docs/mapping.md,
/// Fitting the app's own schema): the app's tables filled with row numbers in source order, its
/// migrations, pragmas, triggers and full-text table as the app left them.
struct TemplateSchemaTests {
    /// The app's migrations: v1 authors and books (with a trigger of the app's own that logs
    /// each book added), v2 tags, the books' tags and a full-text index of the books' titles.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("remoteId", .text).notNull().unique()
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("remoteId", .text).notNull().unique()
                t.belongsTo("author").notNull()
                t.column("title", .text).notNull()
                t.column("publishedAt", .integer)
                t.column("rating", .double)
            }
            try db.create(table: "activity") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("note", .text).notNull()
            }
            try db.execute(
                sql: "CREATE TRIGGER book_added AFTER INSERT ON book BEGIN INSERT INTO activity(note) VALUES ('added ' || NEW.title); END")
        }
        migrator.registerMigration("v2") { db in
            try db.create(table: "tag") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
            }
            try db.create(table: "bookTag") { t in
                t.primaryKey {
                    t.belongsTo("book", onDelete: .cascade)
                    t.belongsTo("tag", onDelete: .cascade)
                }
            }
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
        }
        return migrator
    }

    /// Makes the app's empty database at `path`, as the app does on its first launch.
    static func makeTemplate(at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "PRAGMA user_version = 7")
            try db.execute(sql: "PRAGMA application_id = 1234567")
        }
        try queue.close()
    }

    static let mapping = """
        seeder: 1
        schema: { template: app.sqlite }
        entities:
          Author:
            identity: remoteId
            attributes: { remoteId: string, name: { type: string, required: true } }
          Book:
            identity: remoteId
            attributes:
              remoteId: string
              title: { type: string, required: true }
              publishedAt: { type: date, storage: unixepoch_ms }
              rating: real
            relationships:
              author: { to: Author, required: true }
              tags: { to: Tag, many: true, table: bookTag }
          Tag:
            identity: name
            attributes: { name: string }
        sources:
          - path: authors.json
            entity: Author
          - path: books.json
            entity: Book

        """

    static let authors = #"[{"remoteId": "a9", "name": "Ursula"}, {"remoteId": "a1", "name": "Iain"}]"#

    static let books = """
        [{"remoteId": "b3", "title": "The Dispossessed", "author": "a9", "publishedAt": "1974-05-01T00:00:00Z", "rating": 4.5,
          "tags": [{"name": "utopia"}, {"name": "classic"}]},
         {"remoteId": "b1", "title": "Consider Phlebas", "author": "a1", "publishedAt": "1987-04-23T12:30:00.250Z",
          "tags": [{"name": "space"}, {"name": "classic"}]},
         {"remoteId": "b2", "title": "The Left Hand of Darkness", "author": "a9", "rating": 4.25, "tags": []}]
        """

    /// A workspace with the app's template, the mapping and its dumps.
    static func workspace(books: String = books) throws -> Workspace {
        let workspace = try Workspace.withDumps()
        try makeTemplate(at: workspace.path("app.sqlite"))
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/authors.json", authors)
        try workspace.write("dumps/books.json", books)
        return workspace
    }

    /// The schema's text, other than seeder's own tables.
    static func schemaText(_ db: Database) throws -> [String] {
        try Row.fetchAll(
            db,
            sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE tbl_name NOT LIKE 'seed\\_%' ESCAPE '\\' ORDER BY rowid"
        ).map(\.description)
    }

    @Test func fillsTheAppsTablesAsItsMigratorMadeThem() throws {
        let workspace = try Self.workspace()
        let templateBytes = try Data(contentsOf: URL(fileURLWithPath: workspace.path("app.sqlite")))
        let report = workspace.build { $0.sourceDateEpoch = "1700000000" }
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)

        // Row numbers in source order; each book's author is its author's generated id.
        #expect(
            try workspace.rows("SELECT * FROM author ORDER BY id") == [
                #"[id:1 remoteId:"a9" name:"Ursula"]"#, #"[id:2 remoteId:"a1" name:"Iain"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM book ORDER BY id") == [
                #"[id:1 remoteId:"b3" authorId:1 title:"The Dispossessed" publishedAt:136598400000 rating:4.5]"#,
                #"[id:2 remoteId:"b1" authorId:2 title:"Consider Phlebas" publishedAt:546179400250 rating:NULL]"#,
                #"[id:3 remoteId:"b2" authorId:1 title:"The Left Hand of Darkness" publishedAt:NULL rating:4.25]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM tag ORDER BY id") == [
                #"[id:1 name:"utopia"]"#, #"[id:2 name:"classic"]"#, #"[id:3 name:"space"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM bookTag ORDER BY bookId, tagId") == [
                "[bookId:1 tagId:1]", "[bookId:1 tagId:2]", "[bookId:2 tagId:2]", "[bookId:2 tagId:3]",
            ])
        // The app's trigger did not run; AUTOINCREMENT's counters follow the rows.
        #expect(try workspace.rows("SELECT count(*) AS n FROM activity") == ["[n:0]"])
        #expect(
            try workspace.rows("SELECT name, seq FROM sqlite_sequence ORDER BY name") == [
                #"[name:"author" seq:2]"#, #"[name:"book" seq:3]"#, #"[name:"tag" seq:3]"#,
            ])
        // The full-text table answers from its rebuilt index.
        #expect(
            try workspace.rows("SELECT rowid FROM book_ft WHERE book_ft MATCH 'darkness OR phlebas' ORDER BY rowid") == [
                "[rowid:2]", "[rowid:3]",
            ])

        let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        let template = try DatabaseQueue(path: workspace.path("app.sqlite"))
        try seed.read { db in
            // The app's migrations are all applied, as its own first launch left them.
            #expect(try Self.migrator.hasCompletedMigrations(db))
            #expect(try Self.migrator.appliedMigrations(db) == ["v1", "v2"])
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 7)
            #expect(try Int.fetchOne(db, sql: "PRAGMA application_id") == 1_234_567)
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "delete")
            let seedSchema = try Self.schemaText(db)
            let templateSchema = try template.read { try Self.schemaText($0) }
            #expect(seedSchema == templateSchema)
        }
        try template.close()
        try seed.close()
        // The template is as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("app.sqlite"))) == templateBytes)

        // The app's migrator, run on a copy of the seed, has nothing to do.
        try FileManager.default.copyItem(atPath: workspace.path("seed.sqlite"), toPath: workspace.path("copy.sqlite"))
        let copy = try DatabaseQueue(path: workspace.path("copy.sqlite"))
        let before = try copy.read { try Self.schemaText($0) }
        try Self.migrator.migrate(copy)
        #expect(try copy.read { try Self.schemaText($0) } == before)
        #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM book") } == 3)
        try copy.close()
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: workspace.path("copy.sqlite")))
                == Data(contentsOf: URL(fileURLWithPath: workspace.path("seed.sqlite"))))

        // Built again, from another directory, the file is the same bytes.
        let again = try Self.workspace()
        #expect(again.build { $0.sourceDateEpoch = "1700000000" }.outcome == .success)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: again.path("seed.sqlite")))
                == Data(contentsOf: URL(fileURLWithPath: workspace.path("seed.sqlite"))))
    }

    /// The app's own code, once the seed is its database, inserts after the seeded rows: the
    /// next id is past them, and the app's trigger and full-text sync run again.
    @Test func theAppWritesOnTopOfTheSeed() throws {
        let workspace = try Self.workspace()
        #expect(workspace.build().outcome == .success)
        let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        try seed.write { db in
            try db.execute(sql: "INSERT INTO book (remoteId, authorId, title) VALUES ('b4', 2, 'Excession')")
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM book WHERE remoteId = 'b4'") == 4)
            #expect(try String.fetchAll(db, sql: "SELECT note FROM activity") == ["added Excession"])
            #expect(try Int.fetchAll(db, sql: "SELECT rowid FROM book_ft WHERE book_ft MATCH 'excession'") == [4])
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
        }
        try seed.close()
    }
}
