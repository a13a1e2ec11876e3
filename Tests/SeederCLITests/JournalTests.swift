import Foundation
import SeederTestSupport
import Testing

/// Rollback journals beside a seed (docs/seed.md, Journals): `build` and `patch` never publish
/// beside a journal that the next open would roll into the new file; `inspect`, `diff` and
/// `patch` refuse a seed whose journal is hot rather than read pages that never committed.
struct JournalTests {
    /// Leaves beside `path` what a writer leaves when it crashes after writing its pages and
    /// before deleting its journal: `sql` runs in a transaction of a rollback-mode connection whose
    /// cache spills, the journal is copied while the transaction is open, and put back after the
    /// commit. The file's pages then hold `sql`'s changes; the journal, hot, the pages as they were.
    static func crash(_ path: String, during sql: [String]) throws {
        let journal: Data
        do {
            let database = try RawDatabase(path)
            _ = try database.rows("PRAGMA journal_mode = DELETE")
            try database.execute("PRAGMA cache_size = 1")
            try database.execute("BEGIN")
            for statement in sql { try database.execute(statement) }
            journal = try Data(contentsOf: URL(fileURLWithPath: path + "-journal"))
            try database.execute("COMMIT")
        }
        #expect(journal.count > 512 && journal.first != 0)
        try journal.write(to: URL(fileURLWithPath: path + "-journal"))
    }

    /// The users' names, read by an ordinary connection, which rolls a hot journal back first.
    static func names(_ path: String) throws -> [String] {
        try RawDatabase(path).rows("SELECT name FROM user ORDER BY id").map { "\($0[0])" }
    }

    /// `v1.sqlite`, `hot.sqlite` beside a hot journal of `uncommitted`, and an empty changeset.
    static func seedBesideAHotJournal() async throws -> Workspace {
        let scratch = try await DiffCommandTests.seeds([
            ("v1", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
            ("hot", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
        ])
        try scratch.write("empty.changeset", "")
        try crash(scratch.path("hot.sqlite"), during: uncommitted)
        return scratch
    }

    static let uncommitted = [
        "UPDATE user SET name = 'uncommitted ' || name",
        // Enough pages that the cache spills them into the file, which syncs the journal first.
        "WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < 400) "
            + "INSERT INTO user (id, name) SELECT i, hex(zeroblob(250)) FROM n",
    ]

    @Test func buildRemovesTheOldOutputsJournalBeforeItPublishes() async throws {
        let scratch = try await DiffCommandTests.seeds([("out", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000")])
        let out = scratch.path("out.sqlite")
        let built = try Self.names(out)
        // The old output's last commit renamed every user; a crashed writer left its journal.
        try RawDatabase(out).execute("UPDATE user SET name = 'stale ' || name")
        try Self.crash(out, during: Self.uncommitted)

        let run = try await seeder(["build", "mappings/tasklist.yaml", "seeds/tasklist", "-o", out, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: out + "-journal"))
        // An ordinary open finds the seed as built, not the stale pages rolled into it.
        #expect(try Self.names(out) == built)
        #expect(try RawDatabase(out).rows("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(scratch.files == ["out.sqlite"])
    }

    /// The app's template is read into memory as its file holds it: beside a hot journal those
    /// bytes are a transaction that never committed, so the build refuses it (exit 1, at the key).
    @Test(arguments: [false, true])
    func aTemplateWithAHotJournalIsRefused(throughALink: Bool) async throws {
        let scratch = try TemplateCommandTests.scratch()
        var template = scratch.path("app.sqlite")
        if throughALink {
            // The mapping names app.sqlite, a link to the template elsewhere, its journal beside it.
            try FileManager.default.createDirectory(atPath: scratch.path("real"), withIntermediateDirectories: false)
            try FileManager.default.moveItem(atPath: template, toPath: scratch.path("real/app.sqlite"))
            try FileManager.default.createSymbolicLink(atPath: template, withDestinationPath: "real/app.sqlite")
            template = try #require(realpath(scratch.path("real/app.sqlite"), nil).map { String(cString: $0) })
        }
        try Self.crash(
            template,
            during: [
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
                    + "INSERT INTO author (remote_id, name) SELECT 'r' || i, hex(zeroblob(250)) FROM n"
            ])
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "mapping.yaml:2:21: error: the template 'app.sqlite': \(throughALink ? template : "app.sqlite")-journal beside it holds a transaction that never "
                    + "committed (a program crashed writing it, or is writing it now); open it once with sqlite3 to roll the transaction back\n"
            ),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))
    }

    /// A journal that cannot be removed (here a directory) stops the build before the rename:
    /// the old output stays, and no new seed is published beside it.
    @Test func aJournalThatCannotBeRemovedKeepsTheOldOutput() async throws {
        let scratch = try await DiffCommandTests.seeds([("out", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000")])
        let out = scratch.path("out.sqlite")
        try FileManager.default.createDirectory(atPath: out + "-journal/inside", withIntermediateDirectories: true)
        let before = try Data(contentsOf: URL(fileURLWithPath: out))

        let run = try await seeder(["build", "mappings/tasklist.yaml", "seeds/tasklist", "-o", out, "--quiet"])
        #expect(run.status == 2)
        #expect(
            run.stderr == "error: cannot remove \(out)-journal: Is a directory\nbuild failed: 1 error, 0 warnings; nothing was written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == before)
        #expect(scratch.files == ["out.sqlite", "out.sqlite-journal"])
    }

    @Test func patchRemovesTheOldOutputsJournalBeforeItPublishes() async throws {
        let scratch = try await PatchCommandTests.seedsAndChangeset()
        let out = scratch.path("v1-again.sqlite")
        try RawDatabase(out).execute("UPDATE user SET name = 'stale ' || name")
        try Self.crash(out, during: Self.uncommitted)

        let run = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "v1-again.sqlite"], in: scratch.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "-journal"))
        #expect(try Self.names(out) == (try Self.names(scratch.path("v2.sqlite"))))
    }

    @Test(arguments: [
        ["inspect", "hot.sqlite"],
        ["inspect", "hot.sqlite", "--json"],
        ["diff", "v1.sqlite", "hot.sqlite"],
        ["diff", "hot.sqlite", "v1.sqlite", "--changeset", "out.changeset"],
        ["patch", "hot.sqlite", "empty.changeset", "-o", "out.sqlite"],
    ])
    func readersRefuseASeedWithAHotJournal(_ arguments: [String]) async throws {
        let scratch = try await Self.seedBesideAHotJournal()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("hot.sqlite")))

        let run = try await seeder(arguments, in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "hot.sqlite: error: hot.sqlite-journal beside it holds a transaction that never committed (a program crashed "
                + "writing it, or is writing it now); open it once with sqlite3 to roll the transaction back\n")
        // Nothing written, nothing rolled back: the file and its journal as they were.
        #expect(scratch.files == ["empty.changeset", "hot.sqlite", "hot.sqlite-journal", "v1.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("hot.sqlite"))) == before)
    }

    /// SQLite keeps a database's journal and WAL beside the file a symbolic link leads to, not
    /// beside the link: a seed or a template named through a link is checked there.
    @Test(arguments: [
        ["inspect", "link/hot.sqlite"],
        ["diff", "v1.sqlite", "link/hot.sqlite"],
        ["patch", "link/hot.sqlite", "empty.changeset", "-o", "out.sqlite"],
    ])
    func aHotJournalIsFoundBesideTheFileALinkLeadsTo(_ arguments: [String]) async throws {
        let scratch = try await Self.seedBesideAHotJournal()
        try FileManager.default.createDirectory(atPath: scratch.path("link"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link/hot.sqlite"), withDestinationPath: "../hot.sqlite")

        let run = try await seeder(arguments, in: scratch.root)
        #expect(run.status == 2)
        let journal = try #require(realpath(scratch.path("hot.sqlite"), nil).map { String(cString: $0) + "-journal" })
        #expect(
            run.stderr
                == "link/hot.sqlite: error: \(journal) beside it holds a transaction that never committed (a program crashed "
                + "writing it, or is writing it now); open it once with sqlite3 to roll the transaction back\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
    }

    /// A WAL beside the file a link leads to holds transactions the file does not: `diff` reads
    /// them, as SQLite does, instead of the file's pages alone.
    @Test func aWALBesideTheFileALinkLeadsToIsRead() async throws {
        let scratch = try await DiffCommandTests.seeds([
            ("v1", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
            ("wal", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
        ])
        // A connection that stays open keeps its WAL: the renames live only there.
        let writer = try RawDatabase(scratch.path("wal.sqlite"))
        _ = try writer.rows("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("UPDATE user SET name = 'renamed ' || name")
        try FileManager.default.createDirectory(atPath: scratch.path("link"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link/wal.sqlite"), withDestinationPath: "../wal.sqlite")

        let direct = try await seeder(["diff", "v1.sqlite", "wal.sqlite"], in: scratch.root)
        let linked = try await seeder(["diff", "v1.sqlite", "link/wal.sqlite"], in: scratch.root)
        #expect(direct.status == 1, "\(direct.stderr)")
        #expect(linked.status == 1, "\(linked.stderr)")
        #expect(linked.stdout == direct.stdout.replacingOccurrences(of: "wal.sqlite", with: "link/wal.sqlite"))
        _ = writer
    }

    /// A journal that is no longer hot (emptied by `TRUNCATE` mode, zeroed by `PERSIST` mode)
    /// holds nothing to roll back: the seed is read as it is.
    @Test(arguments: [Data(), Data(repeating: 0, count: 4096)])
    func aJournalThatIsNotHotIsIgnored(_ journal: Data) async throws {
        let scratch = try await DiffCommandTests.seeds([("v1", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000")])
        try scratch.write("v1.sqlite-journal", journal)
        let run = try await seeder(["inspect", "v1.sqlite"], in: scratch.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  user        3  User\n"), "\(run.stdout)")
    }
}
