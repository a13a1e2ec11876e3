import Foundation
import GRDB
import SeedInstaller
import SeederTestSupport
import Testing

/// A patch whose changes leave rows pointing at nothing, and one that meets a seed table the app
/// altered (docs/guides/updating-an-installed-seed.md, Rows left pointing at nothing; The changesets).
struct SeedPatchDanglingTests {
    typealias Setup = SeedPatchTests.Setup

    /// The app's notes on books, and replies to notes: note 1 is on book 3, which the new seed
    /// deletes; note 3 pointed at nothing before the update.
    static let notes = """
        CREATE TABLE notes(id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book(id), text TEXT);
        CREATE TABLE replies(id INTEGER PRIMARY KEY, note_id INTEGER REFERENCES notes(id));
        INSERT INTO notes VALUES (1, 3, 'on Tombs'), (2, 1, 'lend to Sam'), (3, 777, 'orphan');
        INSERT INTO replies VALUES (1, 1), (2, 2);
        """

    /// Runs `sql` on the working copy without enforcing foreign keys, as an app may have.
    static func appWithoutForeignKeys(_ setup: Setup, _ sql: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: setup.copy, configuration: configuration)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    static func rows(_ setup: Setup, _ sql: String) throws -> [String] {
        let queue = try DatabaseQueue(path: setup.copy)
        defer { try? queue.close() }
        return try queue.read { try Row.fetchAll($0, sql: sql).map(\.description) }
    }

    @Test(arguments: [SeedInstaller.ConflictPolicy.seedWins, .appWins])
    func appRowsLeftPointingAtADeletedSeedRowAreDeletedInCascade(_ policy: SeedInstaller.ConflictPolicy) throws {
        let setup = try Setup()
        try Self.appWithoutForeignKeys(setup, Self.notes)

        let outcome = try setup.install(policy)
        #expect(
            outcome
                == .patched(
                    .init(
                        changeset: setup.changeset, appliedChanges: 5,
                        conflicts: [
                            .init(table: "notes", kind: .foreignKey, resolution: .deleted, count: 1),
                            .init(table: "replies", kind: .foreignKey, resolution: .deleted, count: 1),
                        ])))
        #expect(try Self.rows(setup, "SELECT id FROM notes ORDER BY id") == ["[id:2]", "[id:3]"])
        #expect(try Self.rows(setup, "SELECT id FROM replies") == ["[id:2]"])
        // The orphan the app had is its own business: still there, and the only one.
        #expect(try Self.rows(setup, "PRAGMA foreign_key_check") == [#"[table:"notes" rowid:3 parent:"book" fkid:0]"#])
        #expect(try setup.install(policy) == .upToDate)
    }

    @Test(arguments: [SeedInstaller.ConflictPolicy.seedWins, .appWins])
    func aNewSeedRowPointingAtARowTheAppDeletedIsDeleted(_ policy: SeedInstaller.ConflictPolicy) throws {
        let setup = try Setup()
        // Author 1 and their books; the new seed adds book 9 by author 1.
        try setup.app("DELETE FROM book WHERE author_id = 1; DELETE FROM author WHERE id = 1")

        let outcome = try setup.install(policy)
        #expect(
            outcome
                == .patched(
                    .init(
                        changeset: setup.changeset, appliedChanges: 4,
                        conflicts: [
                            .init(table: "book", kind: .notFound, resolution: .omitted, count: 1),
                            .init(table: "book", kind: .foreignKey, resolution: .deleted, count: 1),
                        ])))
        #expect(try setup.book(9) == nil)
        #expect(try setup.book(2) == ["Guards! Guards!", "416"])
        #expect(try SeedFixture.check(setup.copy, matching: "anarchist OR dragon") == [2])
    }

    @Test func abortNamesTheDanglingRowsAndLeavesTheCopyAsItWas() throws {
        let setup = try Setup()
        try Self.appWithoutForeignKeys(setup, Self.notes)
        let before = try SeedFixture.bytes(setup.copy)

        let error = SeedInstallError.danglingReferences(
            changeset: setup.changeset, rows: [.init(table: "notes", rowid: 1, parent: "book")])
        #expect(throws: error) { try setup.install(.abort) }
        #expect(try SeedFixture.bytes(setup.copy) == before)
        #expect(
            error.localizedDescription
                == "the changeset \(setup.changeset) would leave rows of the working copy pointing at nothing: notes rowid 1 -> book; "
                + "the patch was abandoned, nothing was applied")
    }

    /// The app altered a seed table: the changeset leads from the copy's seed but cannot apply,
    /// and replacing the copy would drop the app's rows without a word.
    @Test(arguments: [
        ("ALTER TABLE book ADD COLUMN rating INTEGER", "book"),
        ("DROP TABLE book_search", "book_search"),
    ])
    func aCopyWhoseSeedTableTheAppAlteredIsNeitherPatchedNorReplaced(_ sql: String, _ table: String) throws {
        let setup = try Setup()
        try setup.app(sql)
        let before = try SeedFixture.bytes(setup.copy)

        #expect {
            try setup.install(.seedWins)
        } throws: { error in
            guard case let .changesetDoesNotFit(changeset, misfit, _) = error as? SeedInstallError else { return false }
            return changeset == setup.changeset && misfit == table
        }
        #expect(try SeedFixture.bytes(setup.copy) == before)
        // Without a changeset that leads from it, the copy is replaced.
        #expect(try SeedInstaller(seed: setup.new, workingCopy: setup.copy).install() == .replaced(skipped: []))
    }
}
