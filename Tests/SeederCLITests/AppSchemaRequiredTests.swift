import Foundation
import GRDB
import SeederTestSupport
import Testing

/// The app's `NOT NULL` columns make the attributes and to-ones that fill them required, as if
/// the mapping said `required: true` (docs/mapping.md, Fitting the app's own schema): a record
/// without the value is an error at the record, naming the column; a `NOT NULL` column with a
/// default takes it.
struct AppSchemaRequiredTests {
    static let mapping = """
        seeder: 1
        schema: { template: app.sqlite }
        entities:
          Author:
            identity: remoteId
            attributes: { remoteId: string, name: string }
          Book:
            identity: remoteId
            attributes: { remoteId: string, title: string, pages: integer }
            relationships:
              author: { to: Author }
        sources:
          - path: authors.json
            entity: Author
          - path: books.json
            entity: Book

        """

    static func scratch(books: String) throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        let queue = try DatabaseQueue(path: scratch.path("app.sqlite"))
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
                    CREATE TABLE book (id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                                       pages INTEGER NOT NULL DEFAULT 0, author_id INTEGER NOT NULL REFERENCES author(id));
                    """)
        }
        try queue.close()
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/authors.json", #"[{"remoteId": "a1", "name": "Iain"}]"#)
        try scratch.write("dumps/books.json", books)
        return scratch
    }

    /// No record has `pages`: its column's default fills it, and, as for a `default:`, no
    /// "matched no key" warning.
    @Test func aMappingNeedNotRepeatTheSchema() async throws {
        let scratch = try Self.scratch(
            books:
                #"[{"remoteId": "b1", "title": "Excession", "author": "a1"}, {"remoteId": "b2", "title": "Look to Windward", "author": "a1"}]"#
        )
        let built = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr == "")
        let books = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM book").map(\.description)
        }
        #expect(
            books == [
                #"[id:1 remote_id:"b1" title:"Excession" pages:0 author_id:1]"#,
                #"[id:2 remote_id:"b2" title:"Look to Windward" pages:0 author_id:1]"#,
            ])
    }

    @Test func aRecordWithoutTheValueIsAnErrorAtTheRecord() async throws {
        let scratch = try Self.scratch(
            books: """
                [{"remoteId": "b1", "title": "Excession", "author": "a1", "pages": 451},
                 {"remoteId": "b2", "author": "a1"},
                 {"remoteId": "b3", "title": null, "author": "a1"},
                 {"remoteId": "b4", "title": "Inversions"}]
                """)
        let built = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(built.status == 1)
        #expect(
            built.stderr == """
                dumps/books.json:3:30: error: Book b3: 'title' is null, but it is required (column 'title' of table 'book' is NOT NULL)  [/2/title]
                dumps/books.json:2:2: error: Book b2: 'title' is required, but no occurrence has it (column 'title' of table 'book' is NOT NULL)  [/1]
                dumps/books.json:4:2: error: Book b4: 'author' is required, but no occurrence has it (column 'author_id' of table 'book' is NOT NULL)  [/3]
                build failed: 3 errors, 0 warnings; nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))
    }

    /// A `NOT NULL` column that no attribute fills is still a mapping error.
    @Test func aColumnNothingFillsIsStillAnError() async throws {
        let scratch = try Self.scratch(books: "[]")
        try scratch.write(
            "mapping.yaml", Self.mapping.replacingOccurrences(of: "remoteId: string, title: string,", with: "remoteId: string,"))
        let built = try await seeder(["validate", "mapping.yaml", "dumps"], in: scratch.root)
        #expect(built.status == 1)
        #expect(
            built.stderr.hasPrefix(
                "mapping.yaml:7:3: error: table 'book' has a NOT NULL column without a default that nothing fills: 'title'; map an attribute onto it\n"
            ), "\(built.stderr)")
    }

    /// Room's exported schema says the same: the example's users need a name.
    @Test func roomsNonNullFields() async throws {
        let scratch = try Workspace(directories: ["dumps", "mappings"])
        try FileManager.default.copyItem(atPath: repository + "/mappings/schemas", toPath: scratch.path("mappings/schemas"))
        try FileManager.default.copyItem(
            atPath: repository + "/mappings/tasklist-room.yaml", toPath: scratch.path("mappings/tasklist-room.yaml"))
        for name in try FileManager.default.contentsOfDirectory(atPath: repository + "/seeds/tasklist") {
            try FileManager.default.copyItem(atPath: repository + "/seeds/tasklist/" + name, toPath: scratch.path("dumps/" + name))
        }
        // Rachit Shukla, under another key wherever he appears.
        for name in ["users.json", "task_list.json"] {
            let text = try String(contentsOfFile: scratch.path("dumps/" + name), encoding: .utf8)
            try scratch.write("dumps/" + name, text.replacingOccurrences(of: #""name": "Rachit Shukla""#, with: #""nom": "Rachit Shukla""#))
        }
        let run = try await seeder(["validate", "mappings/tasklist-room.yaml", "dumps"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "dumps/users.json:4:3: error: User 3: 'name' is required, but no occurrence has it (column 'name' of table 'users' is NOT NULL)  [/2]"
            ), "\(run.stderr)")
    }
}
