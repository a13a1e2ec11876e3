import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `seeder diff --changeset` (docs/commands.md, The changeset) through the binary: what it says,
/// when it refuses, and that a refusal prints and writes nothing.
struct DiffChangesetCommandTests {
    @Test func writesTheChangesetAndSaysWhatItChanges() throws {
        let scratch = try DiffCommandTests.tasklistSeeds()
        let run = try seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "v1-to-v2.changeset"], in: scratch.root)
        let plain = try seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == plain.stdout)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-to-v2.changeset")).count
        #expect(
            run.stderr
                == "wrote v1-to-v2.changeset (\(bytes) bytes): 2 rows of user, 3 rows of project, 4 rows of task, 3 rows of metadata\n")

        // The same records, built at another SOURCE_DATE_EPOCH: only `built_at` differs.
        let rebuilt = try seeder(["diff", "v1.sqlite", "v1-again.sqlite", "--changeset", "rebuilt.changeset", "--json"], in: scratch.root)
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stderr.hasSuffix(" bytes): 1 row of metadata\n"))
        let same = try seeder(["diff", "v1.sqlite", "v1.sqlite", "--changeset", "same.changeset"], in: scratch.root)
        #expect(same.status == 0)
        #expect(same.stderr == "wrote same.changeset (0 bytes): no changes\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/same.changeset")).isEmpty)
    }

    @Test func refusesASchemaChangeBeforePrintingAnything() throws {
        let scratch = try DiffCommandTests.seeds([
            ("v1", "mappings/catalog.yaml", "seeds/catalog", "1700000000"),
            ("v2", DiffCommandTests.fixtures + "/catalog-v2.yaml", DiffCommandTests.fixtures + "/catalog-v2", "1700000000"),
        ])
        let run = try seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "c"], in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("error: cannot write a changeset: the schema changed ("))
        #expect(run.stderr.hasSuffix("and a changeset holds rows only; ship the new seed whole\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.root + "/c"))
    }

    @Test func refusesAFileItMayNotWriteAndEntity() throws {
        let scratch = try DiffCommandTests.tasklistSeeds()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-again.sqlite"))
        let seed = try seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "v1-again.sqlite"], in: scratch.root)
        #expect(seed.status == 2 && seed.stdout == "")
        #expect(seed.stderr == "error: the changeset v1-again.sqlite may not be written: it is an SQLite database\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-again.sqlite")) == before)
        let old = try seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "./v1.sqlite"], in: scratch.root)
        #expect(old.status == 2 && old.stderr == "error: the changeset ./v1.sqlite is the old seed\n")
        let entity = try seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "c", "--entity", "Task"], in: scratch.root)
        #expect(entity.status == 64)
        #expect(entity.stderr.hasPrefix("Error: --changeset covers the whole seed; it cannot go with --entity.\n"))
    }
}
