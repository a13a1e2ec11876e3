import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// What does not fit the app's own schema (docs/mapping.md, Fitting the app's own schema): each
/// error's exact text at the mapping's node, every error of a run reported together, and nothing
/// written.
struct TemplateSchemaErrorTests {
    /// An app's empty database as sqflite or a hand-written migration makes it.
    static let templateSQL = """
        CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, born INTEGER);
        CREATE TABLE book (id INTEGER PRIMARY KEY, remote_id TEXT NOT NULL UNIQUE, author_id INTEGER REFERENCES author(id),
                           title TEXT NOT NULL, isbn TEXT NOT NULL UNIQUE);
        CREATE TABLE book_tag (book_id INTEGER NOT NULL REFERENCES book(id), tag_id INTEGER NOT NULL REFERENCES tag(id),
                               PRIMARY KEY (book_id, tag_id));
        CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE review (id INTEGER PRIMARY KEY, code TEXT NOT NULL, book_isbn TEXT REFERENCES book(isbn), stars INTEGER);
        """

    /// A workspace with the template made from `sql` (the app's, by default), `mapping` and an
    /// empty dump.
    static func workspace(_ mapping: String, sql: String = templateSQL, template: String = "app.sqlite") throws -> Workspace {
        let workspace = try Workspace.withDumps()
        let queue = try DatabaseQueue(path: workspace.path(template))
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/authors.json", "[]")
        return workspace
    }

    /// Builds, and expects `messages` and nothing written.
    static func expectErrors(
        _ workspace: Workspace, _ messages: [String], outcome: BuildReport.Outcome = .invalid,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let report = workspace.build()
        #expect(report.messages(workspace) == messages, sourceLocation: sourceLocation)
        #expect(report.outcome == outcome, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("seed.sqlite")), sourceLocation: sourceLocation)
    }

    @Test func everyMismatchOfARunIsReportedAtItsNode() throws {
        let workspace = try Self.workspace(
            """
            seeder: 1
            schema: { template: app.sqlite }
            entities:
              Author:
                identity: remoteId
                attributes: { remoteId: string, name: string, born: date, nickname: string }
              Book:
                identity: remoteId
                attributes: { remoteId: string, title: { type: string, required: true } }
                relationships:
                  author: { to: Author }
                  editor: { to: Author }
                  tags: { to: Tag, many: true }
              Tag:
                identity: name
                attributes: { name: string }
              Revue:
                identity: code
                attributes: { code: string }
            sources:
              - path: authors.json
                entity: Author

            """)
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:17:3: error: entity 'Revue' has no table in the app's schema (did you mean 'review'?); name it with 'table:'; the schema's tables: 'author', 'book', 'book_tag', 'tag' and 'review'"#,
                #"mapping.yaml:6:51: error: attribute 'born' is stored as TEXT, which does not suit column 'born' (INTEGER, INTEGER affinity) of table 'author': choose 'storage: unixepoch_ms' (milliseconds since 1970, as Room's converters store them)"#,
                #"mapping.yaml:6:63: error: table 'author' of the app's schema has no column for attribute 'nickname'; name it with 'column:'; its columns: 'id', 'remote_id', 'name' and 'born'"#,
                #"mapping.yaml:12:7: error: relationship 'editor' matches none of the foreign keys of table 'book' to 'author', on (author_id); name its column with 'column:'"#,
                #"mapping.yaml:13:7: error: the many-to-many 'Book.tags' has no join table 'book_tags' in the app's schema (did you mean 'book_tag'?); name it with 'table:'; the schema's tables: 'author', 'book', 'book_tag', 'tag' and 'review'"#,
                #"mapping.yaml:7:3: error: table 'book' has a NOT NULL column without a default that nothing fills: 'isbn'; map an attribute onto it"#,
            ])
    }

    @Test func aForeignKeyToNeitherIdentityNorRowidIsAnError() throws {
        let workspace = try Self.workspace(
            """
            seeder: 1
            schema: { template: app.sqlite }
            entities:
              Book:
                identity: remoteId
                attributes: { remoteId: string, title: { type: string, required: true }, isbn: { type: string, required: true } }
              Review:
                identity: code
                attributes: { code: string, stars: integer }
                relationships:
                  book: { to: Book, column: book_isbn }
            sources:
              - path: authors.json
                entity: Review

            """)
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:11:7: error: the foreign key (book_isbn) of table 'review' references book(isbn), which is neither the identity of entity 'Book' (remote_id) nor its table's rowid"#
            ])
    }

    @Test func aToOneWithoutAColumnListsTheTablesColumns() throws {
        let workspace = try Self.workspace(
            """
            seeder: 1
            schema: { template: app.sqlite }
            entities:
              Tag:
                identity: name
                attributes: { name: string }
                relationships:
                  parent: { to: Tag }
            sources:
              - path: authors.json
                entity: Tag

            """)
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:8:7: error: table 'tag' of the app's schema has no column for relationship 'parent'; name it with 'column:'; its columns: 'id' and 'name'"#
            ])
    }

    @Test func tableOnAToOneIsAMappingError() throws {
        let workspace = try Self.workspace(
            """
            seeder: 1
            schema: { template: app.sqlite }
            entities:
              Author:
                identity: remoteId
                attributes: { remoteId: string, name: { type: string, required: true } }
              Book:
                identity: remoteId
                attributes: { remoteId: string, title: { type: string, required: true }, isbn: { type: string, required: true } }
                relationships:
                  author: { to: Author, table: book_author }
                  reviews: { to: Review, many: true, inverse: book, table: book_reviews }
              Review:
                identity: code
                attributes: { code: string }
                relationships:
                  book: { to: Book }
            sources:
              - path: authors.json
                entity: Author

            """)
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:11:29: error: 'table' names the join table of a many-to-many; 'author' is a to-one"#,
                #"mapping.yaml:12:57: error: 'table' names the join table of a many-to-many; 'reviews' is a one-to-many (it has 'inverse')"#,
            ])
    }

    /// A template that is not a database: a text file, an empty file.
    @Test(arguments: [
        ("CREATE TABLE author (id INTEGER);\n", "it does not begin with SQLite's header"), ("", "the file is empty"),
    ])
    func aTemplateThatIsNotSQLiteIsAnError(_ content: String, _ reason: String) throws {
        let workspace = try Self.workspace(Self.minimal)
        try workspace.write("app.sqlite", content)
        Self.expectErrors(workspace, ["mapping.yaml:2:21: error: the template 'app.sqlite' is not a SQLite database: \(reason)"])
    }

    static let minimal = """
        seeder: 1
        schema: { template: app.sqlite }
        entities:
          Author:
            identity: remoteId
            attributes: { remoteId: string, name: { type: string, required: true } }
        sources:
          - path: authors.json
            entity: Author

        """

    /// A template in WAL mode whose `-wal` holds part of it, as a running app leaves it.
    @Test func aTemplateWithAWALBesideItIsRefused() throws {
        let workspace = try Self.workspace(Self.minimal)
        let queue = try DatabasePool(path: workspace.path("app.sqlite"))
        try queue.write { db in try db.execute(sql: "CREATE TABLE later (x)") }
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:2:21: error: the template 'app.sqlite' is in WAL mode and 'app.sqlite-wal' beside it holds part of it: checkpoint it (PRAGMA wal_checkpoint(TRUNCATE), or close every connection to it), or make it with journal_mode=DELETE"#
            ])
        try queue.close()
        // Checkpointed and closed, the same file is a template.
        #expect(!FileManager.default.fileExists(atPath: workspace.path("app.sqlite-wal")))
        #expect(workspace.build().outcome == .success)
    }

    @Test func aTemplateHoldingRowsOrSeedersTablesIsRefused() throws {
        let workspace = try Self.workspace(
            Self.minimal,
            sql: Self.templateSQL + "INSERT INTO author (remote_id, name) VALUES ('a1', 'Iain');"
                + "CREATE TABLE seed_metadata (key TEXT PRIMARY KEY, value TEXT);")
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:2:21: error: the app's schema already has a table 'seed_metadata': it is a seed, not an empty schema; seeder adds its own"#
            ])
        // Without seeder's tables, the rows are the error.
        let rows = try Self.workspace(Self.minimal, sql: Self.templateSQL + "INSERT INTO author (remote_id, name) VALUES ('a1', 'Iain');")
        Self.expectErrors(
            rows,
            [
                #"mapping.yaml:2:21: error: the app's schema holds 1 row in table 'author', which seeder fills: give an empty database, made by the app before it stores anything"#
            ])
    }

    @Test func searchAndSchemaVersionDoNotApplyWithSchema() throws {
        let workspace = try Self.workspace(
            """
            seeder: 1
            schemaVersion: 3
            schema: { template: app.sqlite }
            entities:
              Author:
                identity: remoteId
                attributes: { remoteId: string, name: { type: string, required: true } }
                search: { fields: [name] }
            sources:
              - path: authors.json
                entity: Author

            """)
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:2:1: error: 'schemaVersion' does not apply with 'schema:': the seed takes the app schema's user_version"#,
                #"mapping.yaml:8:5: error: 'search' does not apply with 'schema:': the app's schema declares its own full-text tables; map an entity onto one, or give it a content table that seeder fills"#,
            ])
    }

    /// The Core Data store with an entity Note and its subentity Memo, whose rows share ZNOTE.
    static let hierarchySQL = CoreDataStore.sql.replacingOccurrences(
        of: "VALUES (3, 'Tag', 0, 0);",
        with: "VALUES (3, 'Tag', 0, 0);\nINSERT INTO Z_PRIMARYKEY VALUES (4, 'Note', 0, 0), (5, 'Memo', 4, 0);\n"
            + "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR );")

    @Test func whatCoreDataCannotHoldIsAnErrorAtItsNode() throws {
        let workspace = try Self.workspace(
            """
            seeder: 1
            schema: { template: Store.sqlite }
            entities:
              Auther:
                identity: remoteID
                attributes: { remoteID: string }
              Author:
                identity: remoteID
                attributes: { remoteID: string, name: string }
                relationships:
                  posts: { to: Post, many: true, inverse: author, ordered: true }
                  favorite: { to: { by: type, cases: { tag: Tag, author: Author } } }
                  tags: { to: Tag, many: true, ordered: true }
              Post:
                identity: remoteID
                attributes: { remoteID: string }
                relationships:
                  author: { to: Author }
              Memo:
                identity: text
                attributes: { text: string }
              Tag:
                identity: name
                attributes: { name: string }
            sources:
              - path: authors.json
                entity: Author

            """, sql: Self.hierarchySQL, template: "Store.sqlite")
        Self.expectErrors(
            workspace,
            [
                #"mapping.yaml:4:3: error: entity 'Auther' is not an entity of the Core Data store (did you mean 'Author'?); its entities: 'Author', 'Post', 'Tag', 'Note' and 'Memo'"#,
                #"mapping.yaml:19:3: error: entity 'Memo' is part of an entity hierarchy in the Core Data store (with 'Note'); seeder cannot fill subentities, which share their root's table"#,
                #"mapping.yaml:11:7: error: seeder cannot fill Core Data's ordered relationships; leave out 'ordered' on 'Author.posts'"#,
                #"mapping.yaml:12:7: error: Core Data has no polymorphic relationships: 'Author.favorite' cannot be stored"#,
                #"mapping.yaml:13:7: error: seeder cannot fill Core Data's ordered relationships; leave out 'ordered' on 'Author.tags'"#,
            ])
    }
}
