import Foundation
import GRDB
import SeedInstaller
import SeederTestSupport
import Testing

/// A seed beside a hot rollback journal, left by a writer that crashed mid-transaction
/// (docs/seed.md, Journals): the installer copies and patches only its committed rows.
struct SeedInstallerJournalTests {
    /// Leaves beside `path` the hot journal of a transaction that ran `sql` and never finished:
    /// the journal copied while the transaction is open, put back after its pages are written.
    static func crash(_ path: String, during sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        let journal = try queue.inDatabase { db -> Data in
            try db.execute(sql: "PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1; BEGIN")
            try db.execute(sql: sql)
            let journal = try Data(contentsOf: URL(fileURLWithPath: path + "-journal"))
            try db.execute(sql: "COMMIT")
            return journal
        }
        try queue.close()
        #expect(journal.first != 0)
        try journal.write(to: URL(fileURLWithPath: path + "-journal"))
    }

    static let retitle = """
        UPDATE book SET title = 'uncommitted ' || title;
        WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
        INSERT INTO book (id, title, blurb, pages, author_id) SELECT i, hex(zeroblob(250)), '', 1, 1 FROM n;
        """

    @Test func aBundledSeedIsInstalledAsCommitted() throws {
        let fixture = try SeedFixture()
        let seed = try fixture.seed(edition: 1)
        let committed = try SeedFixture.rows(seed)
        let bundled = fixture.workspace.path("bundled.sqlite")
        try FileManager.default.copyItem(atPath: seed, toPath: bundled)
        try Self.crash(bundled, during: Self.retitle)

        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: bundled, workingCopy: copy).install() == .installed)
        #expect(try SeedFixture.rows(copy) == committed)
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
    }

    @Test func aSeedIsPatchedAsCommitted() throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let changeset = try fixture.changeset(from: old, to: new)
        try Self.crash(old, during: Self.retitle)

        guard case .patched = try SeedInstaller.apply(changeset: changeset, to: old) else {
            Issue.record("not patched")
            return
        }
        #expect(try SeedFixture.rows(old) == (try SeedFixture.rows(new)))
    }
}
