import Foundation
import SeederTestSupport
import Testing

/// `seeder diff OLD NEW --changeset FILE` (docs/commands.md, diff --changeset) end to end: the
/// changeset the binary writes, applied to a copy of OLD with `sqlite3changeset_apply` and each
/// search table rebuilt as the command says, gives NEW's rows exactly in every table both hold.
struct ChangesetTests {
    /// The examples with their dumps: every mapping in `mappings/`.
    static let examples = ExampleTests.examples + ExampleTests.fittedExamples

    /// Each example's seed, and a copy changed in every kind of way in every keyed table: the
    /// changeset holds each change, conflicts with nothing, and gives the changed copy's rows.
    @Test(arguments: examples)
    func givesTheChangedSeedOfEveryExample(_ name: String) async throws {
        let scratch = try Workspace()
        let old = scratch.path("old.sqlite"), new = scratch.path("new.sqlite")
        try await Self.build("mappings/\(name).yaml", "seeds/" + name.prefix { $0 != "-" }, to: old)
        try FileManager.default.copyItem(atPath: old, toPath: new)
        let mutation = try SeedMutation(seedAt: new)

        let run = try await seeder(["diff", old, new, "--changeset", scratch.path("c"), "--json"])
        // A Core Data store is installed whole: Core Data's own counters must not be patched.
        if name.hasSuffix("coredata") {
            #expect(run.status == 2 && run.stdout == "")
            #expect(
                run.stderr
                    == "error: cannot write a changeset: the seeds are Core Data stores, and Core Data keeps its own counters "
                    + "(Z_PRIMARYKEY) that a patch would change behind its back; ship the new seed whole\n")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("c")))
            return
        }
        #expect(run.status == 1, "\(run.stderr)")
        let bytes = try Self.bytes(scratch.path("c"))
        let counts = try ChangesetCounts.of(bytes)
        // Each table changed holds each kind of change it had, and no other table is touched.
        #expect(mutation.changes.count > 2)
        #expect(Set(counts.keys).isSubset(of: mutation.changes.keys), "\(name): \(counts)")
        for (table, made) in mutation.changes.sorted(by: { $0.key < $1.key }) {
            let seen = counts[table] ?? ChangesetCounts()
            let kinds = SeedMutation.Changes(inserts: seen.inserts > 0, updates: seen.updates > 0, deletes: seen.deletes > 0)
            #expect(kinds == made, "\(name): \(table) changed \(made), changeset \(seen)")
        }
        // Where both pair rows alike, by the table's primary key, they count alike. (A table keyed
        // by row numbers is paired by identity in the one and by the number in the other.)
        let keys = try SeedTables(RawDatabase(old)).tables.reduce(into: [String: Set<String>]()) { $0[$1.name] = Set($1.key) }
        let alike = try Self.diffTables(run.stdout).filter { $0.pairing != "rows" && Set($0.key) == keys[$0.table] }
        #expect(!alike.isEmpty)
        for table in alike {
            #expect(counts[table.table] ?? ChangesetCounts() == table.counts, "\(name): \(table.table)")
        }

        try Self.patch(old, with: bytes, rebuilding: run.stderr, to: scratch.path("patched.sqlite"))
        try Self.expectSameRows(scratch.path("patched.sqlite"), new, name)
        try Self.expectSearchTablesIntact(scratch.path("patched.sqlite"), name)
    }

    /// The graph workload and its next release (`seeder-bench generate graph N DIR --variant`):
    /// the changeset's inserts, updates and deletes in each table are the identity diff's added,
    /// changed and removed records, and applied they give the new seed.
    @Test func givesTheNextReleaseOfTheGraphWorkloadAsTheIdentityDiffDoes() async throws {
        let scratch = try Workspace()
        for (directory, variant) in [("base", [String]()), ("next", ["--variant"])] {
            let generated = try await program(try seederBenchBinary(), ["generate", "graph", "20000", scratch.path(directory)] + variant)
            #expect(generated.status == 0, "\(generated.stderr)")
            try await Self.build("bench/mappings/graph.yaml", scratch.path(directory), to: scratch.path("\(directory).sqlite"))
        }
        let old = scratch.path("base.sqlite"), new = scratch.path("next.sqlite")
        let run = try await seeder(["diff", old, new, "--changeset", scratch.path("c"), "--json"])
        #expect(run.status == 1, "\(run.stderr)")
        let bytes = try Self.bytes(scratch.path("c"))
        let counts = try ChangesetCounts.of(bytes)
        let identity = try Self.diffTables(run.stdout)
        #expect(identity.map(\.table) == ["user", "project", "task"])
        #expect(identity.allSatisfy { $0.pairing == "identity" && $0.key == ["id"] })
        for (table, records) in identity.map({ ($0.table, $0.counts) }) {
            // Every kind of change happens to every entity of the release.
            #expect(records.inserts > 0 && records.updates > 0 && records.deletes > 0, "\(table): \(records)")
            #expect(counts[table] == records, "\(table): the changeset \(counts[table].map { "\($0)" } ?? "nothing"), the diff \(records)")
        }
        #expect(Set(counts.keys).subtracting(identity.map(\.table)) == ["seed_metadata", "seed_source"])

        // A real release keeps its references, so the patch is applied with them checked.
        try Self.patch(old, with: bytes, rebuilding: run.stderr, to: scratch.path("patched.sqlite"), foreignKeys: true)
        try Self.expectSameRows(scratch.path("patched.sqlite"), new, "graph")
    }

    /// A schema change cannot be a changeset, which holds rows only: exit 2, why, and no file.
    @Test func refusesASchemaChangeAndWritesNothing() async throws {
        let scratch = try Workspace()
        let old = scratch.path("old.sqlite"), new = scratch.path("new.sqlite")
        try await Self.build("mappings/tasklist.yaml", "seeds/tasklist", to: old)
        try FileManager.default.copyItem(atPath: old, toPath: new)
        try RawDatabase(new).execute("ALTER TABLE task ADD COLUMN note TEXT")
        let run = try await seeder(["diff", old, new, "--changeset", scratch.path("c")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot write a changeset: the schema changed (+ column task.note TEXT)"), "\(run.stderr)")
        #expect(run.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("c")))
        #expect(scratch.files == ["new.sqlite", "old.sqlite"])
    }

    /// Two seeds with the same rows: exit 0, and an empty changeset that applies as a no-op.
    @Test func writesAnEmptyChangesetForTheSameRows() async throws {
        let scratch = try Workspace()
        let old = scratch.path("old.sqlite"), new = scratch.path("new.sqlite")
        try await Self.build("mappings/tasklist-grdb.yaml", "seeds/tasklist", to: old)
        try FileManager.default.copyItem(atPath: old, toPath: new)
        let run = try await seeder(["diff", old, new, "--changeset", scratch.path("c")])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = try Self.bytes(scratch.path("c"))
        #expect(bytes.isEmpty)
        try Self.patch(old, with: bytes, rebuilding: run.stderr, to: scratch.path("patched.sqlite"))
        try Self.expectSameRows(scratch.path("patched.sqlite"), new, "tasklist-grdb")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("patched.sqlite"))) == Data(contentsOf: URL(fileURLWithPath: old)))
    }

    // MARK: Helpers

    static func build(_ mapping: String, _ dumps: String, to output: String) async throws {
        let run = try await seeder(["build", mapping, dumps, "-o", output, "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: path), "no changeset at \(path)"))
    }

    /// A table of `seeder diff --json`: how it pairs rows, by which key, and its added, changed and
    /// removed records as a changeset's inserts, updates and deletes.
    struct DiffTable {
        var table: String
        var pairing: String
        var key: [String]
        var counts: ChangesetCounts
    }

    static func diffTables(_ json: String) throws -> [DiffTable] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(document["tables"] as? [[String: Any]]).map { table in
            DiffTable(
                table: try #require(table["table"] as? String), pairing: try #require(table["pairing"] as? String),
                key: try #require(table["key"] as? [String]),
                counts: ChangesetCounts(
                    inserts: try #require(table["added"] as? Int), updates: try #require(table["changed"] as? Int),
                    deletes: try #require(table["removed"] as? Int)))
        }
    }

    /// Copies `old` to `patched` and applies `changeset` to it as an installer does
    /// (docs/guides/updating-an-installed-seed.md): triggers off, conflicts abort (there must be
    /// none), then each search table rebuilt with the statement the command printed (`INSERT INTO
    /// s(s) VALUES ('rebuild')`). Foreign keys are checked only when the new seed keeps them.
    static func patch(
        _ old: String, with changeset: [UInt8], rebuilding stderr: String, to patched: String, foreignKeys: Bool = false
    ) throws {
        try FileManager.default.copyItem(atPath: old, toPath: patched)
        let database = try RawDatabase(patched)
        try database.enableTriggers(false)
        if foreignKeys { try database.execute("PRAGMA foreign_keys = ON") }
        #expect(try database.apply(changeset: changeset) == 0, "a conflict")
        try database.enableTriggers(true)
        for rebuild in stderr.matches(of: #/INSERT INTO [^ ]+ VALUES \('rebuild'\)/#) {
            try database.execute(String(rebuild.output))
        }
    }

    /// Every table `patched` and `new` both hold, search tables aside, has the same rows: all
    /// columns, storage classes, and as many of each.
    static func expectSameRows(_ patched: String, _ new: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let patchedDatabase = try RawDatabase(patched), newDatabase = try RawDatabase(new)
        let patchedTables = try SeedTables(patchedDatabase).tables.map(\.name), newTables = try SeedTables(newDatabase).tables.map(\.name)
        let shared = newTables.filter(patchedTables.contains)
        #expect(shared.count > 2, "\(name): no tables", sourceLocation: sourceLocation)
        for table in shared {
            let sql = "SELECT * FROM \(SeedTables.quote(table))"
            let got = try patchedDatabase.rows(sql).sorted { $0.lexicographicallyPrecedes($1) }
            let expected = try newDatabase.rows(sql).sorted { $0.lexicographicallyPrecedes($1) }
            #expect(
                got.count == expected.count, "\(name): \(table) has \(got.count) rows, not \(expected.count)",
                sourceLocation: sourceLocation)
            if got != expected {
                let missing = Set(expected).subtracting(got).prefix(3), extra = Set(got).subtracting(expected).prefix(3)
                Issue.record("\(name): \(table) lacks \(Array(missing)), has \(Array(extra))", sourceLocation: sourceLocation)
            }
        }
    }

    /// Each search table's index agrees with its text, its external content table's for FTS5.
    static func expectSearchTablesIntact(_ path: String, _ name: String) throws {
        let database = try RawDatabase(path)
        for (table, module) in try SeedTables(database).search {
            let quoted = SeedTables.quote(table)
            let check =
                module == "fts5"
                ? "INSERT INTO \(quoted)(\(quoted), rank) VALUES ('integrity-check', 1)"
                : "INSERT INTO \(quoted)(\(quoted)) VALUES ('integrity-check')"
            #expect(throws: Never.self, "\(name): \(table)") { try database.execute(check) }
        }
    }
}
