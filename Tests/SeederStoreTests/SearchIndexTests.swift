import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Search tables in the finished seed (docs/seed.md, Search): `MATCH` finds the right content
/// rows through the rowids for integer and text identities, with FTS5 and FTS4; the triggers
/// keep the index right on a copy; rebuilds are byte-identical.
struct SearchIndexTests {
    /// A `Book` keyed by `key` (`id: integer` or `isbn: string`), its title and blurb indexed.
    static func mapping(key: String, engine: String, extra: String = "") -> String {
        """
        seeder: 1
        entities:
          Book:
            identity: \(key.split(separator: ":")[0])
            attributes: { \(key), title: string, blurb: string, pages: integer }
            search: { fields: [title, blurb], engine: \(engine)\(extra) }
        """
    }

    /// Four books; the text identities sort otherwise than their source order, and `b3` comes
    /// twice, merged into one row.
    static func books(text: Bool) -> String {
        let keys =
            text
            ? [#""isbn": "z9""#, #""isbn": "a1""#, #""isbn": "m5""#, #""isbn": "b3""#]
            : [#""id": 40"#, #""id": 7"#, #""id": 19"#, #""id": 3"#]
        return """
            [{\(keys[0]), "title": "Dragon Tales", "blurb": "A dragon and a knight", "pages": 10},
             {\(keys[1]), "title": "Garden Notes", "blurb": "Roses and tulips", "pages": 20},
             {\(keys[2]), "title": "Knight School", "blurb": "Swords, not dragons", "pages": 30},
             {\(keys[3]), "title": "Sea Stories", "blurb": null, "pages": 40},
             {\(keys[3]), "title": "Sea Stories", "pages": 40}]
            """
    }

    /// The keys of the books whose index entry matches `query`, found through the rowids.
    static func matches(_ query: String, key: String, in db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT CAST(b.\(key) AS TEXT) FROM book_search JOIN book AS b ON b.rowid = book_search.rowid \
                WHERE book_search MATCH ? ORDER BY b.\(key)
                """, arguments: [query])
    }

    /// FTS's own check of its index against the content table, then SQLite's of the file.
    static func checkIndex(engine: String, _ db: Database) throws {
        let check = engine == "fts5" ? "('integrity-check', 1)" : "('integrity-check')"
        let columns = engine == "fts5" ? "(book_search, rank)" : "(book_search)"
        try db.execute(sql: "INSERT INTO book_search\(columns) VALUES \(check)")
        #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
        #expect(try Int.fetchOne(db, sql: "PRAGMA freelist_count") == 0)
    }

    static let identities = [("id: integer", "id", false), ("isbn: string", "isbn", true)]

    @Test(arguments: ["fts5", "fts4"], identities)
    func matchFindsTheRowsThatHoldTheWords(engine: String, identity: (String, String, Bool)) throws {
        let (declaration, key, text) = identity
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping(key: declaration, engine: engine))
        try workspace.write("dumps/book.json", Self.books(text: text))
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        try seed.write { db in
            // Prefix queries reach "dragons"; a word in two columns of one row finds it once.
            #expect(try Self.matches("dragon*", key: key, in: db) == (text ? ["m5", "z9"] : ["19", "40"]))
            #expect(try Self.matches("knight", key: key, in: db) == (text ? ["m5", "z9"] : ["19", "40"]))
            #expect(try Self.matches("tulips", key: key, in: db) == (text ? ["a1"] : ["7"]))
            #expect(try Self.matches("sea", key: key, in: db) == (text ? ["b3"] : ["3"]))
            #expect(try Self.matches("unicorn", key: key, in: db) == [])
            try Self.checkIndex(engine: engine, db)
        }
    }

    /// A text identity with enough text that FTS writes several segments and 'optimize' frees
    /// them: the seed is vacuumed again after the fill, and each row is still found by its rowid.
    /// Built twice, from two directories, the two files are byte-identical.
    @Test func aLargeIndexIsVacuumedAndRebuildsToTheSameBytes() throws {
        var words: [String] = []
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words.append(String(state >> 20, radix: 36))
        }
        var records: [String] = []
        for number in 0..<6000 {
            let blurb = (0..<40).map { words[($0 * 7919 + number * 104_729) % words.count] }.joined(separator: " ")
            // Keys in reverse of source order; every 10th record is repeated and merged.
            records.append(#"{"isbn": "k\#(String(format: "%05d", 6000 - number))", "title": "unique\#(number)", "blurb": "\#(blurb)"}"#)
            if number % 10 == 0 { records.append(records.last!) }
        }
        var files: [Data] = []
        for _ in 0..<2 {
            let workspace = try Workspace.withDumps()
            try workspace.write("mapping.yaml", Self.mapping(key: "isbn: string", engine: "fts5"))
            try workspace.write("dumps/book.json", "[" + records.joined(separator: ",\n") + "]")
            let report = workspace.build { $0.sourceDateEpoch = "1700000000" }
            #expect(report.outcome == .success, "\(report.messages(workspace))")
            let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
            try seed.write { db in
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM book_search_data") ?? 0 > 100)
                for number in [0, 1, 1234, 5999] {
                    #expect(try Self.matches("unique\(number)", key: "isbn", in: db) == [String(format: "k%05d", 6000 - number)])
                }
                try Self.checkIndex(engine: "fts5", db)
            }
            try seed.close()
            files.append(try Data(contentsOf: URL(fileURLWithPath: workspace.path("seed.sqlite"))))
        }
        #expect(files[0] == files[1])
    }

    /// `sync: triggers`: an app that writes to a copy of the seed keeps its index right.
    @Test(arguments: ["fts5", "fts4"], identities)
    func triggersKeepTheIndexRightOnACopy(engine: String, identity: (String, String, Bool)) throws {
        let (declaration, key, text) = identity
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping(key: declaration, engine: engine, extra: ", sync: triggers"))
        try workspace.write("dumps/book.json", Self.books(text: text))
        #expect(workspace.build().outcome == .success)
        let copy = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        try copy.write { db in
            let (new, garden, dragon) = text ? ("'q7'", "'a1'", "'z9'") : ("77", "7", "40")
            try db.execute(sql: "INSERT INTO book (\(key), title, blurb, pages) VALUES (\(new), 'Unicorn Care', 'Horns and hay', 5)")
            try db.execute(sql: "UPDATE book SET blurb = 'Roses and a dragon' WHERE \(key) = \(garden)")
            try db.execute(sql: "DELETE FROM book WHERE \(key) = \(dragon)")
        }
        try copy.write { db in
            #expect(try Self.matches("unicorn", key: key, in: db) == (text ? ["q7"] : ["77"]))
            #expect(try Self.matches("dragon*", key: key, in: db) == (text ? ["a1", "m5"] : ["7", "19"]))
            #expect(try Self.matches("tulips", key: key, in: db) == [])
            try db.execute(
                sql: engine == "fts5"
                    ? "INSERT INTO book_search(book_search, rank) VALUES ('integrity-check', 1)"
                    : "INSERT INTO book_search(book_search) VALUES ('integrity-check')")
        }
    }

    /// Without `sync: triggers` the seed has no trigger at all.
    @Test func writesNoTriggerUnlessAsked() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping(key: "id: integer", engine: "fts5"))
        try workspace.write("dumps/book.json", Self.books(text: false))
        #expect(workspace.build().outcome == .success)
        let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        try seed.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'book_search'")
            #expect(
                sql
                    == #"CREATE VIRTUAL TABLE "book_search" USING fts5("title", "blurb", content='book', content_rowid='id')"#)
        }
    }

    /// The check after the last VACUUM: a row whose rowid moved is a seeder bug, reported.
    @Test func aRowidThatMovedIsReported() throws {
        let workspace = try Workspace()
        let queue = try DatabaseQueue(path: workspace.path("indexed.sqlite"))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE book (isbn TEXT PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO book (rowid, isbn) VALUES (1, 'a'), (2, 'b')")
        }
        try queue.close()
        let copy = try DatabaseQueue(path: workspace.path("copy.sqlite"))
        try copy.inDatabase { db in
            try db.execute(sql: "CREATE TABLE book (isbn TEXT PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO book (rowid, isbn) VALUES (1, 'a'), (3, 'b')")
            try db.execute(sql: "ATTACH DATABASE ? AS \"indexed\"", arguments: [workspace.path("indexed.sqlite")])
            #expect(throws: AssemblyError.self) { try SearchIndexer.checkRowids(of: "book", key: ["isbn"], db) }
            try db.execute(sql: "UPDATE book SET rowid = 2 WHERE isbn = 'b'")
            try SearchIndexer.checkRowids(of: "book", key: ["isbn"], db)
        }
    }
}
