import Foundation
import GRDB
import SeedInstaller
import SeederTestSupport
import Testing

/// `install()` without a patch: the first copy, the same seed left alone, another seed replaced
/// (also over a WAL the old copy never checkpointed), and files that are no seed refused
/// (docs/guides/updating-an-installed-seed.md).
struct SeedInstallerTests {
    @Test func firstInstallCopiesTheSeedAndLeavesNoOtherFile() throws {
        let fixture = try SeedFixture()
        let seed = try fixture.seed(edition: 1)
        let copy = fixture.workspace.path("copy.sqlite")
        // A killed install's leftover, which the next one removes.
        try fixture.workspace.write(".copy.sqlite.seed-install", "half a file")
        let before = Set(fixture.workspace.files)

        #expect(try SeedInstaller(seed: seed, workingCopy: copy).install() == .installed)
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(seed))
        #expect(Set(fixture.workspace.files) == before.subtracting([".copy.sqlite.seed-install"]).union(["copy.sqlite"]))
    }

    @Test func theSameSeedIsNotWrittenEvenAfterTheAppEditedRows() throws {
        let fixture = try SeedFixture()
        let seed = try fixture.seed(edition: 1)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: seed, workingCopy: copy).install() == .installed)
        let app = try DatabaseQueue(path: copy)
        try app.write { try $0.execute(sql: "UPDATE book SET title = 'Edited' WHERE id = 1") }
        try app.close()
        // An mtime of the past, so that any write would show.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: copy)
        let bytes = try SeedFixture.bytes(copy)

        #expect(try SeedInstaller(seed: seed, workingCopy: copy).install() == .upToDate)
        #expect(try SeedFixture.bytes(copy) == bytes)
        let modified = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date
        #expect(modified == Date(timeIntervalSince1970: 1_000_000))
    }

    @Test func anotherSeedWithoutAChangesetReplacesTheCopy() throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        let app = try DatabaseQueue(path: copy)
        try app.write { try $0.execute(sql: "INSERT INTO author (id, name) VALUES (77, 'App')") }
        try app.close()

        #expect(try SeedInstaller(seed: new, workingCopy: copy).install() == .replaced(skipped: []))
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(new))
    }

    /// The app died with transactions in its WAL: replacing the file without settling the WAL
    /// first would let SQLite apply those frames to the new file.
    @Test func replacingACopyWithAnUncheckpointedWALGivesAnIntactNewSeed() throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let live = fixture.workspace.path("live.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: live).install() == .installed)
        let pool = try DatabasePool(path: live)
        try pool.write { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            for id in 100..<400 {
                try db.execute(sql: "INSERT INTO book (id, title, blurb, pages, author_id) VALUES (?, 'App', 'x', 1, 1)", arguments: [id])
            }
        }
        try pool.write { try $0.execute(sql: "DELETE FROM book WHERE id < 100") }
        // The files as a crash would leave them: the database, its WAL (the app's rows are only
        // there) and the WAL's index.
        try FileManager.default.createDirectory(atPath: fixture.workspace.path("crashed"), withIntermediateDirectories: false)
        let copy = fixture.workspace.path("crashed/copy.sqlite")
        try FileManager.default.copyItem(atPath: live, toPath: copy)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: copy + "-wal")
        try FileManager.default.copyItem(atPath: live + "-shm", toPath: copy + "-shm")
        try pool.close()
        #expect(try FileManager.default.attributesOfItem(atPath: copy + "-wal")[.size] as? Int ?? 0 > 0)

        #expect(try SeedInstaller(seed: new, workingCopy: copy).install() == .replaced(skipped: []))
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        #expect(try SeedFixture.check(copy, matching: "dragon") == [2])
        #expect(try SeedFixture.rows(copy) == SeedFixture.rows(new))
    }

    @Test(arguments: ["text", "database", "directory", "empty"])
    func aCopyThatIsNoSeedIsRefusedAndUntouched(_ kind: String) throws {
        let fixture = try SeedFixture()
        let seed = try fixture.seed(edition: 1)
        let copy = fixture.workspace.path("copy.sqlite")
        let reason: String
        switch kind {
        case "text":
            try fixture.workspace.write("copy.sqlite", "my notes, not a database\n" + String(repeating: "x", count: 200))
            reason = "not an SQLite database"
        case "database":
            let queue = try DatabaseQueue(path: copy)
            try queue.write { try $0.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)") }
            try queue.close()
            reason = "no seed_metadata table"
        case "empty":
            try fixture.workspace.write("copy.sqlite", "")
            reason = "no seed_metadata table"
        default:
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
            reason = "not a regular file"
        }
        let before = kind == "directory" ? Data() : try SeedFixture.bytes(copy)
        let files = fixture.workspace.files
        for replace in [false, true] {
            let installer = SeedInstaller(seed: seed, workingCopy: copy)
            #expect(throws: SeedInstallError.notASeed(path: copy, reason: reason)) {
                replace ? try installer.replace() : try installer.install()
            }
        }
        #expect((kind == "directory" ? Data() : try SeedFixture.bytes(copy)) == before)
        #expect(fixture.workspace.files == files)
    }

    @Test func aChangesetFromAnotherSeedIsSkipped() throws {
        let fixture = try SeedFixture()
        let (old, new, other) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2), try fixture.seed(edition: 3))
        let changeset = try fixture.changeset(from: other, to: new)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)

        let installer = SeedInstaller(seed: new, workingCopy: copy, changesets: [changeset], onConflict: .seedWins)
        let outcome = try installer.install()
        #expect(outcome == .replaced(skipped: [.init(changeset: changeset, reason: .startsFromAnotherSeed)]))
        guard case let .replaced(skipped) = outcome else { return }
        #expect(skipped.map(\.description) == ["\(changeset): starts from another seed than the working copy's"])
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(new))
    }

    /// The trial's case: a changeset of an earlier release (1 to 2) left in the bundle of release
    /// 3. It starts from the copy's seed, which is not at fault: it leads elsewhere.
    @Test func aChangesetFromTheCopysSeedToAnotherThanTheBundledOneIsSkippedAsSuch() throws {
        let fixture = try SeedFixture()
        let (old, new, bundled) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2), try fixture.seed(edition: 3))
        let changeset = try fixture.changeset(from: old, to: new)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)

        let outcome = try SeedInstaller(seed: bundled, workingCopy: copy, changesets: [changeset], onConflict: .seedWins).install()
        #expect(outcome == .replaced(skipped: [.init(changeset: changeset, reason: .leadsToAnotherSeed)]))
        guard case let .replaced(skipped) = outcome else { return }
        #expect(
            skipped.map(\.description) == [
                "\(changeset): leads from the working copy's seed to another seed than the bundled one"
            ])
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(bundled))
    }
}
