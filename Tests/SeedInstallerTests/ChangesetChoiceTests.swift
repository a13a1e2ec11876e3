import Foundation
import GRDB
import SeedInstaller
import SeederStore
import SeederTestSupport
import Testing

/// Which changeset `install()` trusts: only one that names the copy's whole identity, never one it
/// cannot read; and the files it refuses, with messages an app can log
/// (docs/guides/updating-an-installed-seed.md).
struct ChangesetChoiceTests {
    /// The trial's case: the copy was built from edition 1's dumps under another mapping (the same
    /// tables, `title` read from `blurb`), so its inputs are edition 1's but its rows are not. The
    /// changeset is the writer's own, pinned or not.
    @Test func aChangesetFromTheSameDumpsUnderAnotherMappingIsNotApplied() throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        try fixture.workspace.write(
            "other.yaml", SeedFixture.mapping.replacingOccurrences(of: "title: string", with: "title: { type: string, from: blurb }"))
        var options = BuildOptions(mapping: fixture.workspace.path("other.yaml"), dumps: fixture.workspace.path("dumps-1"))
        options.output = fixture.workspace.path("other.sqlite")
        #expect(SeedBuilder.build(options).outcome == .success)
        let changeset = fixture.workspace.path("written.changeset")
        _ = try SeedChangeset.write(old: old, new: new, to: changeset)
        let copy = fixture.workspace.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: options.output!, toPath: copy)

        let outcome = try SeedInstaller(seed: new, workingCopy: copy, changesets: [changeset], onConflict: .seedWins).install()
        guard case let .replaced(skipped) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(skipped.map(\.changeset) == [changeset])
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(new))
    }

    /// A changeset without the no-op updates that name the identity keys it leaves alone (as
    /// `sqldiff --changeset` makes), or whose metadata updates carry no old values (as a patchset
    /// has them), here from edition 3 to 2: it does not say which seed it starts from.
    @Test(arguments: [false, true])
    func aChangesetThatDoesNotNameTheWholeIdentityIsSkipped(withoutOldValues: Bool) throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let pinned = try fixture.changeset(from: withoutOldValues ? try fixture.seed(edition: 3) : old, to: new)
        let unpinned = fixture.workspace.path("unpinned.changeset")
        var records = try ChangesetRecords(reading: pinned).unpinned
        if withoutOldValues {
            for index in records.records.indices where records.records[index].table == "seed_metadata" {
                records.records[index].old[1] = nil
            }
        }
        try records.write(to: unpinned)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        let app = try DatabaseQueue(path: copy)
        try app.write { try $0.execute(sql: "INSERT INTO author (id, name) VALUES (77, 'App')") }
        try app.close()

        #expect(
            try SeedInstaller(seed: new, workingCopy: copy, changesets: [unpinned], onConflict: .seedWins).install()
                == .replaced(skipped: [.init(changeset: unpinned, reason: .identityNotPinned)]))
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(new))
    }

    /// A FIFO is skipped as not a regular file, without waiting for a writer that never comes.
    @Test func aFIFOAsChangesetIsSkippedWithoutWaiting() async throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let fifo = fixture.workspace.path("fifo.changeset")
        #expect(mkfifo(fifo, 0o644) == 0)
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        let outcome: SeedInstallation
        do {
            outcome = try await ChangesetFormatTests.returning(within: 30) {
                try SeedInstaller(seed: new, workingCopy: copy, changesets: [fifo]).install()
            }
        } catch let error as ChangesetFormatTests.Spun {
            // Frees the waiting reader, so that the run can end.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            throw error
        }
        guard case let .replaced(skipped) = outcome, case let .unreadable(reason) = skipped.first?.reason else {
            Issue.record("\(outcome)")
            return
        }
        #expect(skipped.map(\.changeset) == [fifo])
        #expect(reason == "not a regular file")
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(new))
    }

    /// Files that are no changeset, or not a whole one, before or after the one that leads.
    @Test(arguments: ["missing", "directory", "text", "truncated head", "truncated body"], [true, false])
    func anUnreadableChangesetIsSkippedAndTheNextApplies(_ kind: String, first: Bool) throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let good = try fixture.changeset(from: old, to: new)
        let bad = fixture.workspace.path("bad.changeset")
        let bytes = try SeedFixture.bytes(good)
        switch kind {
        case "missing": break
        case "directory": try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: false)
        case "text": try fixture.workspace.write("bad.changeset", "not a changeset at all\n")
        case "truncated head": try bytes.prefix(40).write(to: URL(fileURLWithPath: bad))
        default: try bytes.dropLast(1).write(to: URL(fileURLWithPath: bad))
        }
        let copy = fixture.workspace.path("copy.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: copy).install() == .installed)
        let before = try SeedFixture.bytes(copy)

        let outcome = try SeedInstaller(seed: new, workingCopy: copy, changesets: first ? [bad, good] : [good, bad]).install()
        guard case let .patched(report) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(report.changeset == good)
        if first {
            #expect(report.skipped.map(\.changeset) == [bad])
            guard case .unreadable = report.skipped.first?.reason else {
                Issue.record("\(report.skipped)")
                return
            }
        }
        // Alone, it is not applied: the copy is replaced, and the outcome says why.
        try before.write(to: URL(fileURLWithPath: copy))
        guard case let .replaced(skipped) = try SeedInstaller(seed: new, workingCopy: copy, changesets: [bad]).install(),
            case .unreadable = skipped.first?.reason
        else {
            Issue.record("not replaced with the reason")
            return
        }
        #expect(try SeedFixture.bytes(copy) == SeedFixture.bytes(new))
    }

    @Test func aSymbolicLinkAsWorkingCopyIsRefusedAndUntouched() throws {
        let fixture = try SeedFixture()
        let (old, new) = (try fixture.seed(edition: 1), try fixture.seed(edition: 2))
        let target = fixture.workspace.path("target.sqlite")
        #expect(try SeedInstaller(seed: old, workingCopy: target).install() == .installed)
        let link = fixture.workspace.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let changeset = try fixture.changeset(from: old, to: new)
        let before = try SeedFixture.bytes(target)

        for replace in [false, true] {
            let installer = SeedInstaller(seed: new, workingCopy: link, changesets: [changeset])
            #expect(
                throws: SeedInstallError.notASeed(path: link, reason: "a symbolic link; give the installer the file it points to")
            ) { replace ? try installer.replace() : try installer.install() }
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try SeedFixture.bytes(target) == before)
    }

    @Test func aBundledSeedThatIsNoSeedIsNamedAsTheBundledSeed() throws {
        let fixture = try SeedFixture()
        try fixture.workspace.write(
            "bundled.sqlite", "not a database, but long enough to be read as one" + String(repeating: "x", count: 200))
        let seed = fixture.workspace.path("bundled.sqlite")
        let installer = SeedInstaller(seed: seed, workingCopy: fixture.workspace.path("copy.sqlite"))
        let error = SeedInstallError.bundledSeedIsNotASeed(path: seed, reason: "not an SQLite database")
        #expect(throws: error) { try installer.install() }
        #expect(throws: error) { try installer.replace() }
        #expect(
            error.localizedDescription
                == "the bundled seed \(seed) is not a seed (not an SQLite database); the working copy was not touched")
    }
}
