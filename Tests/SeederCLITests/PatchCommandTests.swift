import Foundation
import SeederTestSupport
import Testing

/// `seeder patch` (docs/commands.md, patch) through the binary: a changeset `seeder diff
/// --changeset` made, applied to a copy of the seed it starts from, and every refusal leaving the
/// seed, and any output there, as they were.
struct PatchCommandTests {
    /// The tasklist seeds (`DiffCommandTests.tasklistSeeds`) and the changeset from v1 to v2.
    static func seedsAndChangeset() async throws -> Workspace {
        let scratch = try await DiffCommandTests.tasklistSeeds()
        let diff = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "v1-to-v2.changeset"], in: scratch.root)
        #expect(diff.status == 1, "\(diff.stderr)")
        return scratch
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func patchedCopyHoldsTheNewSeedsRecords() async throws {
        let scratch = try await Self.seedsAndChangeset()
        let v1 = try Self.bytes(scratch.path("v1.sqlite"))
        let run = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "patched.sqlite"], in: scratch.root)
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "wrote patched.sqlite: v1-to-v2.changeset: 12 changes applied, no conflicts\n")
        #expect(try Self.bytes(scratch.path("v1.sqlite")) == v1)
        let same = try await seeder(["diff", "patched.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(same.status == 0, "\(same.stdout)")
        #expect(same.stdout.hasSuffix("\nthe seeds hold the same records\n"))
        let inspected = try await seeder(["inspect", "patched.sqlite", "--json"], in: scratch.root)
        #expect(
            inspected.stdout
                == (try await seeder(["inspect", "v2.sqlite", "--json"], in: scratch.root)).stdout.replacingOccurrences(
                    of: "\"v2.sqlite\"", with: "\"patched.sqlite\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).filter { $0.hasPrefix(".") } == [])

        // An existing seed at the output is replaced; the changeset applies to the same seed again.
        let again = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "patched.sqlite"], in: scratch.root)
        #expect(again.status == 0 && again.stderr == run.stderr)

        // Two seeds with the same rows make an empty changeset, which gives a copy of the seed.
        #expect(try await seeder(["diff", "v1.sqlite", "v1.sqlite", "--changeset", "same.changeset"], in: scratch.root).status == 0)
        let empty = try await seeder(["patch", "v1.sqlite", "same.changeset", "-o", "copy.sqlite"], in: scratch.root)
        #expect(empty.status == 0)
        #expect(empty.stderr == "wrote copy.sqlite: same.changeset: 0 changes applied, no conflicts\n")
        #expect(try Self.bytes(scratch.path("copy.sqlite")) == v1)
    }

    @Test func refusesAChangesetOfAnotherSeedAndWritesNothing() async throws {
        let scratch = try await Self.seedsAndChangeset()
        // v2 is not the seed the changeset starts from.
        let v2 = try Self.bytes(scratch.path("v2.sqlite"))
        let run = try await seeder(["patch", "v2.sqlite", "v1-to-v2.changeset", "-o", "out.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr == "error: the changeset v1-to-v2.changeset starts from another seed than v2.sqlite; out.sqlite was not written\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
        #expect(try Self.bytes(scratch.path("v2.sqlite")) == v2)

        // An output that is there stays as it was.
        let before = try Self.bytes(scratch.path("v1-again.sqlite"))
        let existing = try await seeder(["patch", "v2.sqlite", "v1-to-v2.changeset", "-o", "v1-again.sqlite"], in: scratch.root)
        #expect(existing.status == 1)
        #expect(
            existing.stderr
                == "error: the changeset v1-to-v2.changeset starts from another seed than v2.sqlite; v1-again.sqlite was not written\n")
        #expect(try Self.bytes(scratch.path("v1-again.sqlite")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).filter { $0.hasPrefix(".") } == [])
    }

    @Test func refusesADamagedChangeset() async throws {
        let scratch = try await Self.seedsAndChangeset()
        let changeset = try Self.bytes(scratch.path("v1-to-v2.changeset"))
        try scratch.write("cut.changeset", changeset.prefix(changeset.count / 2))
        let cut = try await seeder(["patch", "v1.sqlite", "cut.changeset", "-o", "out.sqlite"], in: scratch.root)
        #expect(cut.status == 2)
        #expect(cut.stderr.hasPrefix("error: cannot read the changeset cut.changeset: not a changeset: "), "\(cut.stderr)")
        #expect(cut.stderr.hasSuffix("; out.sqlite was not written\n"))
        try scratch.write("text.changeset", "seeder: 1\n")
        let text = try await seeder(["patch", "v1.sqlite", "text.changeset", "-o", "out.sqlite"], in: scratch.root)
        #expect(text.status == 2)
        #expect(
            text.stderr
                == "error: cannot read the changeset text.changeset: not a changeset: neither a table header nor a change at byte 0; "
                + "out.sqlite was not written\n")
        let missing = try await seeder(["patch", "v1.sqlite", "none.changeset", "-o", "out.sqlite"], in: scratch.root)
        #expect(missing.status == 2)
        #expect(
            missing.stderr == "error: cannot read the changeset none.changeset: No such file or directory; out.sqlite was not written\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).filter { $0.hasPrefix(".") } == [])
    }

    @Test func namesAMissingSeedAndTheSystemsReason() async throws {
        let scratch = try await Self.seedsAndChangeset()
        let run = try await seeder(["patch", "gone.sqlite", "v1-to-v2.changeset", "-o", "out.sqlite"], in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stderr == "gone.sqlite: error: cannot read this file: No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
    }

    @Test func refusesAnOutputItMayNotWrite() async throws {
        let scratch = try await Self.seedsAndChangeset()
        let seed = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "./v1.sqlite"], in: scratch.root)
        #expect(seed.status == 2 && seed.stderr == "error: the output ./v1.sqlite is the seed it patches\n")
        let changeset = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "v1-to-v2.changeset"], in: scratch.root)
        #expect(changeset.status == 2 && changeset.stderr == "error: the output v1-to-v2.changeset is the changeset\n")
        try scratch.write("notes.txt", "keep me\n")
        let text = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "notes.txt"], in: scratch.root)
        #expect(text.status == 2)
        #expect(text.stderr == "error: the output notes.txt exists and is not a seed: it is not an SQLite database; --force replaces it\n")
        #expect(try String(contentsOfFile: scratch.path("notes.txt"), encoding: .utf8) == "keep me\n")
        try FileManager.default.createDirectory(atPath: scratch.path("dir"), withIntermediateDirectories: false)
        let directory = try await seeder(["patch", "v1.sqlite", "v1-to-v2.changeset", "-o", "dir"], in: scratch.root)
        #expect(
            directory.status == 2 && directory.stderr == "error: the output dir may not be written: it is a directory, not a regular file\n"
        )
    }

    /// A changeset that is a FIFO is refused before anything opens it, as `diff` refuses one for
    /// a seed: `open` would wait for a writer that never comes. Killed after 10 s, so that a
    /// hang fails the test instead of the suite.
    @Test func refusesAFIFOChangesetUpFront() async throws {
        let scratch = try await Self.seedsAndChangeset()
        try BadInputCatalog.replaceWithFIFO(scratch.path("pipe.changeset"))
        let run = try await program(
            try seederBinary(), ["patch", "v1.sqlite", "pipe.changeset", "-o", "out.sqlite"], in: scratch.root, killAfter: 10)
        #expect(run.status == 2)
        #expect(run.stderr == "pipe.changeset: error: cannot read this file: it is a FIFO, not a regular file\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).filter { $0.hasPrefix(".") } == [])
    }
}
