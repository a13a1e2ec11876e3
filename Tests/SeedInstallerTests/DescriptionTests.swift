import Foundation
import SeedInstaller
import Testing

/// What an app logs: the outcome's and the errors' descriptions read as words, never as Swift's
/// type names (docs/guides/updating-an-installed-seed.md, The API).
struct DescriptionTests {
    @Test func resolutionsAreShortWords() {
        let words = [SeedInstallation.Resolution.seedRow, .omitted, .aborted, .deleted].map(\.description)
        #expect(words == ["seed row", "omitted", "aborted", "deleted"])
    }

    @Test func aConflictCountNamesTheTableTheCountTheKindAndTheResolution() {
        let count = SeedInstallation.ConflictCount(table: "notes", kind: .foreignKey, resolution: .deleted, count: 3)
        #expect(count.description == "notes: 3 FOREIGN_KEY -> deleted")
        #expect("\(count)" == "notes: 3 FOREIGN_KEY -> deleted")
    }

    @Test func aPatchReportSaysWhatWasAppliedMetAndSkipped() {
        let report = SeedInstallation.PatchReport(
            changeset: "from-2.changeset", appliedChanges: 12,
            conflicts: [
                .init(table: "book", kind: .data, resolution: .seedRow, count: 2),
                .init(table: "notes", kind: .foreignKey, resolution: .deleted, count: 1),
            ],
            skipped: [.init(changeset: "from-1.changeset", reason: .startsFromAnotherSeed)])
        #expect(
            report.description
                == "from-2.changeset: 12 changes applied, 3 conflicts (book: 2 DATA -> seed row; notes: 1 FOREIGN_KEY -> deleted); "
                + "skipped before it: from-1.changeset: starts from another seed than the working copy's")
        let quiet = SeedInstallation.PatchReport(changeset: "from-2.changeset", appliedChanges: 1, conflicts: [])
        #expect(quiet.description == "from-2.changeset: 1 change applied, no conflicts")
    }

    @Test func aDanglingRowWithoutRowidSaysSo() {
        #expect(SeedInstallation.DanglingReference(table: "book", rowid: 9, parent: "author").description == "book rowid 9 -> author")
        #expect(
            SeedInstallation.DanglingReference(table: "fav2", rowid: nil, parent: "recipe").description
                == "fav2 (a row without rowid) -> recipe")
    }

    /// A `WITHOUT ROWID` table of the app's points at book 3, which the new seed deletes: the
    /// patch is abandoned, and the message names the row as one without a rowid.
    @Test func aDanglingWithoutRowidRowIsNamedInTheError() throws {
        let setup = try SeedPatchTests.Setup()
        try setup.app(
            """
            CREATE TABLE fav2(book_id INTEGER PRIMARY KEY REFERENCES book(id)) WITHOUT ROWID;
            INSERT INTO fav2 VALUES (3);
            """)
        let before = try SeedFixture.bytes(setup.copy)
        #expect {
            try setup.install(.seedWins)
        } throws: { error in
            "\(error)"
                == "the changeset \(setup.changeset) would leave rows of the working copy pointing at nothing: "
                + "fav2 (a row without rowid) -> book; the patch was abandoned, nothing was applied"
        }
        #expect(try SeedFixture.bytes(setup.copy) == before)
    }
}
