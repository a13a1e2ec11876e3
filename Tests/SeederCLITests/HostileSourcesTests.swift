import Foundation
import GRDB
import SeederTestSupport
import Testing

/// What a hostile seed's `seed_source`, a hostile manifest and hostile table names do to
/// `inspect`, `diff` and `infer` (docs/trust.md): nothing stops the command, nothing becomes
/// markup.
struct HostileSourcesTests {
    func base(_ scratch: Workspace) async throws -> String {
        let built = try await seeder(
            ["build", repository + "/mappings/tasklist.yaml", repository + "/seeds/tasklist", "-o", "base.sqlite"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        return scratch.path("base.sqlite")
    }

    @Test func countsThatOverflowWhenAddedStopNoCommand() async throws {
        let scratch = try Workspace()
        let base = try await base(scratch)
        try FileManager.default.copyItem(atPath: base, toPath: scratch.path("huge.sqlite"))
        try await DatabaseQueue(path: scratch.path("huge.sqlite")).write { db in
            try db.execute(sql: "DROP TABLE seed_source")
            try db.execute(
                sql:
                    "CREATE TABLE seed_source(path TEXT PRIMARY KEY NOT NULL, sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, records INTEGER NOT NULL)"
            )
            try db.execute(sql: "INSERT INTO seed_source VALUES ('items/1.json', 'aa', 9223372036854775807, 9223372036854775807)")
            try db.execute(sql: "INSERT INTO seed_source VALUES ('items/2.json', 'bb', 1, 1)")
        }
        let inspected = try await seeder(["inspect", "huge.sqlite"], in: scratch.root)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("9223372036854775807") || inspected.stdout.contains("9,223,372,036,854,775,807"))
        for format in ["text", "markdown", "json"] {
            let diff = try await seeder(["diff", "base.sqlite", "huge.sqlite", "--format", format], in: scratch.root)
            // The same records, other sources: status 0, and the sources said.
            #expect(diff.status == 0, "\(format): \(diff.stderr)")
            #expect(diff.stdout.contains("items/"), "\(format): \(diff.stdout)")
        }
    }

    /// A `seed_source` of the first layout without its key, a path twice: a located error of
    /// the seed, for `inspect`, `diff` and a changeset alike, never SQLite's constraint message.
    @Test func aPathTwiceInSeedSourceIsPlaced() async throws {
        let scratch = try Workspace()
        let base = try await base(scratch)
        try FileManager.default.copyItem(atPath: base, toPath: scratch.path("twice.sqlite"))
        try await DatabaseQueue(path: scratch.path("twice.sqlite")).write { db in
            try db.execute(sql: "DROP TABLE seed_source")
            try db.execute(sql: "CREATE TABLE seed_source(path, sha256, bytes, records)")
            try db.execute(
                sql: "INSERT INTO seed_source VALUES ('users.json', 'aa', 1, 1), ('task_list.json', 'bb', 2, 2), ('users.json', 'cc', 3, 3)"
            )
        }
        let message = "twice.sqlite: error: seed_source, row 3 (path \"users.json\"): the same path as row 2\n"
        for arguments in [
            ["inspect", "twice.sqlite"], ["diff", "twice.sqlite", "base.sqlite"],
            ["diff", "twice.sqlite", "base.sqlite", "--changeset", "c.changeset"],
        ] {
            let run = try await seeder(arguments, in: scratch.root)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr == message, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("c.changeset")))
    }

    @Test func aManifestSourceOfSlashesOrAReversedRangeDraftsAsFolders() async throws {
        for source in ["/", "//", "[z-a]/*.json"] {
            let scratch = try Workspace(directories: ["dumps/a"])
            try scratch.write("dumps/a/1.json", #"{"id": 1, "name": "x"}"#)
            try scratch.write("dumps/a/2.json", #"{"id": 2, "name": "y"}"#)
            try scratch.write(
                "dumps/.seeder-fetch.json", #"{"files": {"a/1.json": {"source": "\#(source)"}, "a/2.json": {"source": "\#(source)"}}}"#)
            let inferred = try await seeder(["infer", "dumps", "-o", "draft.yaml"], in: scratch.root)
            #expect(inferred.status == 0, "\(source): \(inferred.stderr)")
            let built = try await seeder(["build", "draft.yaml", "dumps", "-o", "seed.sqlite", "--strict"], in: scratch.root)
            #expect(built.status == 0, "\(source): \(built.stderr)")
        }
    }

    @Test func tableNamesInTheMarkdownDiffAreCodeNotMarkup() async throws {
        let scratch = try Workspace()
        let name = "[click](https://evil.example/p) ![i](https://evil.example/t.png) @everyone **b** :+1:"
        for (file, value) in [("old.sqlite", 1), ("new.sqlite", 2)] {
            try await DatabaseQueue(path: scratch.path(file)).write { db in
                try db.execute(sql: "CREATE TABLE \"\(name)\" (id INTEGER PRIMARY KEY, v)")
                try db.execute(sql: "INSERT INTO \"\(name)\" VALUES (1, \(value))")
            }
        }
        let diff = try await seeder(["diff", "old.sqlite", "new.sqlite", "--format", "markdown"], in: scratch.root)
        #expect(diff.status == 1)
        #expect(diff.stdout.contains("| `\(name)` | 0 | 0 | 1 | 0 |"), "\(diff.stdout)")
        #expect(diff.stdout.contains("<details><summary><code>\(name)</code>: 1 changed</summary>"))
        #expect(diff.stdout.contains("- changed `\(name)` `1`: "))
        // Outside code spans and code elements, the name's markup never stands.
        let outside = diff.stdout.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            .replacingOccurrences(of: #"<code>[^<]*</code>"#, with: "", options: .regularExpression)
        #expect(!outside.contains("](https://evil.example"))
        #expect(!outside.contains("@everyone"))
    }
}
