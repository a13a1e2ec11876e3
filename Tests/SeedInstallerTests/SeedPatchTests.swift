import Foundation
import GRDB
import SeedInstaller
import SeederTestSupport
import Testing

/// `install()` with a changeset that leads from the working copy's seed to the bundled one: the
/// seed's rows change, the app's stay, the search table is rebuilt, and each conflict policy
/// settles a real conflict as docs/guides/updating-an-installed-seed.md says.
struct SeedPatchTests {
    /// A working copy of edition 1, the seed of edition 2, and the changeset between them.
    struct Setup {
        let fixture: SeedFixture
        let old: String
        let new: String
        let copy: String
        let changeset: String

        init() throws {
            fixture = try SeedFixture()
            old = try fixture.seed(edition: 1)
            new = try fixture.seed(edition: 2)
            changeset = try fixture.changeset(from: old, to: new)
            copy = fixture.workspace.path("copy.sqlite")
            #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        }

        /// Runs `sql` on the working copy as the app would.
        func app(_ sql: String) throws {
            let queue = try DatabaseQueue(path: copy)
            try queue.write { try $0.execute(sql: sql) }
            try queue.close()
        }

        func install(_ policy: SeedInstaller.ConflictPolicy) throws -> SeedInstallation {
            try SeedInstaller(seed: new, workingCopy: copy, changesets: [changeset], onConflict: policy).install()
        }

        /// The working copy's book `id` as (title, pages), or `nil` when it has none.
        func book(_ id: Int) throws -> [String]? {
            let queue = try DatabaseQueue(path: copy)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchOne(db, sql: "SELECT title, pages FROM book WHERE id = ?", arguments: [id]).map { ["\($0[0]!)", "\($0[1]!)"] }
            }
        }
    }

    @Test func thePatchedCopyHasTheNewSeedsRowsAndKeepsTheAppsOwn() throws {
        let setup = try Setup()
        try setup.app(
            """
            CREATE TABLE notes(id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book(id), text TEXT);
            INSERT INTO notes VALUES (1, 1, 'lend to Sam');
            INSERT INTO author (id, name) VALUES (50, 'App author');
            INSERT INTO book (id, title, blurb, pages, author_id) VALUES (60, 'Pirates', 'A dragon at sea', 10, 50);
            """)

        let outcome = try setup.install(.abort)
        // seed_metadata's digest, seed_source's book.json, and three books.
        #expect(
            outcome
                == .patched(.init(changeset: setup.changeset, appliedChanges: 5, conflicts: [])))
        var expected = try SeedFixture.rows(setup.new)
        let app = try SeedFixture.rows(setup.copy)
        #expect(app["notes"] == [#"[id:1 book_id:1 text:"lend to Sam"]"#])
        expected["notes"] = app["notes"]
        expected["author"] = (expected["author"]! + [#"[id:50 name:"App author"]"#]).sorted()
        expected["book"] = (expected["book"]! + [#"[id:60 title:"Pirates" blurb:"A dragon at sea" pages:10 author_id:50]"#]).sorted()
        #expect(app == expected)
        #expect(try SeedFixture.check(setup.copy, matching: "dragon") == [2, 60])
        #expect(try SeedFixture.check(setup.copy, matching: "anarchist") == [9])
        #expect(try SeedFixture.check(setup.copy, matching: "labyrinth") == [])
        // Patched once, the copy is the bundled seed.
        #expect(try setup.install(.abort) == .upToDate)
    }

    /// What the app did to the copy before the update, and the conflict it makes.
    enum AppEdit: String, CaseIterable {
        /// Retitled book 2, which the changeset retitles: DATA.
        case edited
        /// Deleted book 2, which the changeset updates: NOTFOUND.
        case deleted
        /// Inserted book 9, which the changeset inserts: CONFLICT.
        case inserted

        var sql: String {
            switch self {
            case .edited: return "UPDATE book SET title = 'My Guards', pages = 1 WHERE id = 2"
            case .deleted: return "DELETE FROM book WHERE id = 2"
            case .inserted: return "INSERT INTO book (id, title, blurb, pages, author_id) VALUES (9, 'Mine', 'x', 2, 1)"
            }
        }

        var id: Int { self == .inserted ? 9 : 2 }
        var kind: SeedInstallation.ConflictKind { [.edited: .data, .deleted: .notFound, .inserted: .conflict][self]! }
        /// Book `id` as the app left it, and as the new seed has it.
        var apps: [String]? { [.edited: ["My Guards", "1"], .deleted: nil, .inserted: ["Mine", "2"]][self]! }
        var seeds: [String]? { id == 9 ? ["The Dispossessed", "387"] : ["Guards! Guards!", "416"] }
    }

    @Test(arguments: AppEdit.allCases)
    func seedWinsWritesTheSeedsRowButLeavesADeletedRowDeleted(_ edit: AppEdit) throws {
        let setup = try Setup()
        try setup.app(edit.sql)
        let outcome = try setup.install(.seedWins)
        let resolution: SeedInstallation.Resolution = edit == .deleted ? .omitted : .seedRow
        #expect(
            outcome
                == .patched(
                    .init(
                        changeset: setup.changeset, appliedChanges: edit == .deleted ? 4 : 5,
                        conflicts: [
                            .init(table: "book", kind: edit.kind, resolution: resolution, count: 1)
                        ])))
        #expect(try setup.book(edit.id) == (edit == .deleted ? nil : edit.seeds))
        #expect(try SeedFixture.check(setup.copy, matching: "dragon") == (edit == .deleted ? [] : [2]))
    }

    @Test(arguments: AppEdit.allCases)
    func appWinsKeepsTheAppsRow(_ edit: AppEdit) throws {
        let setup = try Setup()
        try setup.app(edit.sql)
        let outcome = try setup.install(.appWins)
        #expect(
            outcome
                == .patched(
                    .init(
                        changeset: setup.changeset, appliedChanges: 4,
                        conflicts: [
                            .init(table: "book", kind: edit.kind, resolution: .omitted, count: 1)
                        ])))
        #expect(try setup.book(edit.id) == edit.apps)
        _ = try SeedFixture.check(setup.copy, matching: "dragon")
    }

    /// Conflicts are per column (docs/guides/updating-an-installed-seed.md, Conflicts): the app's
    /// edit of a column the seed leaves alone is kept beside the seed's change, with no conflict;
    /// under `.appWins`, an edit of a column the seed changes omits the seed's whole update of
    /// the row, its other columns included.
    @Test(arguments: [SeedInstaller.ConflictPolicy.seedWins, .appWins, .abort])
    func anEditOfAColumnTheSeedLeavesAloneIsNoConflict(_ policy: SeedInstaller.ConflictPolicy) throws {
        let setup = try Setup()
        try setup.app("UPDATE book SET author_id = 1 WHERE id = 2")
        #expect(try setup.install(policy) == .patched(.init(changeset: setup.changeset, appliedChanges: 5, conflicts: [])))
        #expect(try setup.book(2) == ["Guards! Guards!", "416"])
        #expect(try SeedFixture.rows(setup.copy)["book"]?.contains { $0.hasPrefix("[id:2 ") && $0.hasSuffix(" author_id:1]") } == true)
    }

    @Test func appWinsOmitsTheSeedsWholeUpdateOfARowTheAppRetitled() throws {
        let setup = try Setup()
        try setup.app("UPDATE book SET title = 'My Guards' WHERE id = 2")
        _ = try setup.install(.appWins)
        #expect(try setup.book(2) == ["My Guards", "400"])
    }

    @Test(arguments: AppEdit.allCases)
    func abortThrowsAndLeavesTheCopyAsItWas(_ edit: AppEdit) throws {
        let setup = try Setup()
        try setup.app(edit.sql)
        let before = try SeedFixture.bytes(setup.copy)
        #expect(throws: SeedInstallError.conflict(changeset: setup.changeset, table: "book", kind: edit.kind, key: ["id = \(edit.id)"])) {
            try setup.install(.abort)
        }
        #expect(try SeedFixture.bytes(setup.copy) == before)
        // The fallback the guide gives: replace, and the copy is the new seed.
        #expect(try SeedInstaller(seed: setup.new, workingCopy: setup.copy).replace() == .replaced(skipped: []))
        #expect(try SeedFixture.bytes(setup.copy) == SeedFixture.bytes(setup.new))
    }
}
