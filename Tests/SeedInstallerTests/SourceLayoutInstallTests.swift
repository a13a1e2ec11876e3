import Foundation
import GRDB
import SeedInstaller
import SeederStore
import SeederTestSupport
import Testing

/// An app that installed a seed whose `seed_source` has the first layout (four columns, a row per
/// file) patches it to a seed of today's (docs/seed.md, Metadata): the installer gives its table
/// the `files` column before applying the changeset, and the copy ends with the new seed's rows,
/// its table as the seed has it, and the app's own rows.
struct SourceLayoutInstallTests {
    /// Rewrites `path`'s `seed_source` as seeders before sources had rows wrote it.
    static func makeFirstLayout(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE "seed_source_files" (
                      "path" TEXT PRIMARY KEY NOT NULL,
                      "sha256" TEXT NOT NULL,
                      "bytes" INTEGER NOT NULL,
                      "records" INTEGER NOT NULL
                    );
                    INSERT INTO seed_source_files SELECT path, sha256, bytes, records FROM seed_source;
                    DROP TABLE seed_source;
                    ALTER TABLE seed_source_files RENAME TO seed_source;
                    VACUUM;
                    """)
        }
        try queue.close()
    }

    static func sourceTable(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('seed_source') ORDER BY cid")
        }
    }

    @Test func aCopyOfTheFirstLayoutIsPatchedToTodaysSeed() throws {
        let fixture = try SeedFixture()
        let old = try fixture.seed(edition: 1)
        try Self.makeFirstLayout(old)
        #expect(try Self.sourceTable(old) == ["path", "sha256", "bytes", "records"])
        let new = try fixture.seed(edition: 2)
        // One reader for both: the old rows are files, the new ones sources (each file named after
        // its entity is one).
        let oldRows = try SeedSources.read(old), newRows = try SeedSources.read(new)
        #expect(oldRows.map(\.path) == ["author.json", "book.json"] && oldRows.allSatisfy { $0.scope == .file && $0.files == 1 })
        #expect(newRows.map(\.path) == ["author.json", "book.json"] && newRows.allSatisfy { $0.scope == .source && $0.files == 1 })
        let changeset = try fixture.changeset(from: old, to: new)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        let queue = try DatabaseQueue(path: copy)
        try queue.write {
            try $0.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'mine')")
        }
        try queue.close()

        let outcome = try SeedInstaller(seed: new, workingCopy: copy, changesets: [changeset]).install()
        guard case .patched = outcome else {
            Issue.record("not patched: \(outcome)")
            return
        }
        var rows = try SeedFixture.rows(copy)
        #expect(rows.removeValue(forKey: "notes") == [#"[id:1 text:"mine"]"#])
        #expect(rows == (try SeedFixture.rows(new)))
        #expect(try Self.sourceTable(copy) == ["path", "files", "sha256", "bytes", "records"])
        let schema = "SELECT sql FROM sqlite_master WHERE name = 'seed_source'"
        let sql = { (path: String) throws -> String? in
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { try String.fetchOne($0, sql: schema) }
        }
        #expect(try sql(copy) == sql(new))
        #expect(try SeedInstaller(seed: new, workingCopy: copy, changesets: [changeset]).install() == .upToDate)
    }
}
