import Foundation
import GRDB
import SeederStore
import SeederTestSupport
import Testing

/// Seeds of one small library mapping (authors, books with a search table), built from dumps in a
/// scratch directory, with the changesets between them and a text view of their rows.
struct SeedFixture {
    let workspace: Workspace

    static let mapping = """
        seeder: 1
        entities:
          Author:
            attributes: { id: integer, name: string }
          Book:
            attributes: { id: integer, title: string, blurb: string, pages: integer }
            relationships:
              author: { to: Author }
            search: { fields: [title, blurb], engine: fts5 }
        """

    static let authors = #"[{"id": 1, "name": "Ursula"}, {"id": 2, "name": "Terry"}]"#

    /// Books 1 to 4; `edition` 2 retitles book 2, drops book 3 and adds book 9.
    static func books(edition: Int) -> String {
        var books = [
            #"{"id": 1, "title": "Wizard of Earthsea", "blurb": "A boy and a shadow", "pages": 200, "author": 1}"#,
            #"{"id": 2, "title": "Guards Guards", "blurb": "A dragon in the city", "pages": 400, "author": 2}"#,
            #"{"id": 3, "title": "Tombs of Atuan", "blurb": "A labyrinth", "pages": 180, "author": 1}"#,
            #"{"id": 4, "title": "Mort", "blurb": "Death takes an apprentice", "pages": 300, "author": 2}"#,
        ]
        if edition == 2 {
            books[1] = #"{"id": 2, "title": "Guards! Guards!", "blurb": "A dragon and a watchman", "pages": 416, "author": 2}"#
            books.remove(at: 2)
            books.append(#"{"id": 9, "title": "The Dispossessed", "blurb": "An anarchist moon", "pages": 387, "author": 1}"#)
        }
        if edition == 3 { books.append(#"{"id": 5, "title": "Small Gods", "blurb": "A tortoise", "pages": 380, "author": 2}"#) }
        return "[" + books.joined(separator: ",\n") + "]"
    }

    init() throws {
        workspace = try Workspace()
        try workspace.write("mapping.yaml", Self.mapping)
    }

    /// Builds the seed of `edition` at `seed-<edition>.sqlite` and returns its path.
    func seed(edition: Int) throws -> String {
        let dumps = "dumps-\(edition)"
        try workspace.write(dumps + "/author.json", Self.authors)
        try workspace.write(dumps + "/book.json", Self.books(edition: edition))
        var options = BuildOptions(mapping: workspace.path("mapping.yaml"), dumps: workspace.path(dumps))
        options.output = workspace.path("seed-\(edition).sqlite")
        let report = SeedBuilder.build(options)
        #expect(report.outcome == .success, "\(report.diagnostics)")
        return options.output!
    }

    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Every ordinary table but the search table's shadows, each row as text, sorted.
    static func rows(_ path: String) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE '%search%'")
            var result: [String: [String]] = [:]
            for table in tables {
                result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description).sorted()
            }
            return result
        }
    }

    /// SQLite's checks of the file and of its search table, and the books `query` finds.
    static func check(_ path: String, matching query: String) throws -> [Int] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.write { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            try db.execute(sql: "INSERT INTO book_search(book_search, rank) VALUES ('integrity-check', 1)")
            return try Int.fetchAll(
                db, sql: "SELECT book.id FROM book_search JOIN book ON book.rowid = book_search.rowid WHERE book_search MATCH ? ORDER BY 1",
                arguments: [query])
        }
    }

    /// Writes the changeset from seed `old` to seed `new` at `changeset-<old>-<new>`, as `seeder
    /// diff --changeset` does: naming every identity key of `old` in its `seed_metadata` changes.
    func changeset(from old: String, to new: String) throws -> String {
        let path = workspace.path("changeset-\((old as NSString).lastPathComponent)-\((new as NSString).lastPathComponent)")
        _ = try SeedChangeset.write(old: old, new: new, to: path)
        try ChangesetRecords(reading: path).pinned(from: old).write(to: path)
        return path
    }
}
