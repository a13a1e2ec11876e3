import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Adds the search tables to a finished seed (docs/seed.md, Search), after everything that can
/// move a rowid: an FTS index names content rows by rowid, and a VACUUM may renumber the rowids
/// of a table without an `INTEGER PRIMARY KEY` (a text or composite identity). So the index is
/// filled in the file that is already final, vacuumed or not.
///
/// Filling merges index segments, which frees pages; a seed holds none (docs/seed.md), so such a
/// file goes through one more `VACUUM INTO`, and the copy is checked to keep every content
/// row's rowid, the one thing the index relies on. Both steps are deterministic: the same
/// inputs give the same bytes.
struct SearchIndexer {
    let tables: [SearchTable]
    /// Each content table with a rowid that is no column, and its primary key.
    private let movable: [(table: String, key: [String])]

    init(mapping: Mapping, schema: SeedSchema) {
        tables = SearchTable.all(for: mapping, schema: schema)
        let contents = Set(tables.filter { $0.rowidColumn == nil }.map(\.content))
        movable = schema.tables.filter { contents.contains($0.name) }.map { ($0.name, $0.primaryKey) }
    }

    /// Indexes the seed file `built`, then makes it final and checks it
    /// (`FinishedFile.compact`): vacuumed into `spare` if the index freed pages, the copy's
    /// rowids checked against the file's.
    func index(_ built: FinishedFile, spare: String) throws -> FinishedFile {
        let seed = try DatabaseQueue(path: built.path, configuration: WritingConnection.configuration(journal: .off))
        let finished = try seed.inDatabase { db in
            try db.execute(sql: "BEGIN")
            for table in tables {
                try db.execute(sql: table.create)
                for statement in table.fill + table.triggerStatements { try db.execute(sql: statement) }
            }
            try db.execute(sql: "COMMIT")
            return try FinishedFile.compact(db, at: built.path, spare: spare, checking: true) { copy, indexed in
                try copy.execute(sql: "ATTACH DATABASE ? AS \"indexed\"", arguments: [indexed])
                for (table, key) in movable { try Self.checkRowids(of: table, key: key, copy) }
                try copy.execute(sql: "DETACH DATABASE \"indexed\"")
            }
        }
        try seed.close()
        return finished
    }

    /// Every row of `table` in the vacuumed copy (`main`) has the rowid it had when it was indexed
    /// (`indexed`), found by its primary key.
    static func checkRowids(of table: String, key: [String], _ db: Database) throws {
        let quoted = SQLText.quote(table)
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"main\".\(quoted)") ?? 0
        let kept =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM "main".\(quoted) AS a JOIN "indexed".\(quoted) AS b \
                    ON a."rowid" = b."rowid" AND \(key.map { "a.\(SQLText.quote($0)) IS b.\(SQLText.quote($0))" }.joined(separator: " AND "))
                    """) ?? 0
        guard kept == rows else {
            throw AssemblyError(message: "VACUUM moved the rowids of table '\(table)', which its search table names")
        }
    }
}
