import Foundation
import SeederTestSupport
import Testing

/// A seed whose own tables hold values of another type than the seed's format gives them
/// (docs/seed.md, Metadata) is an error that places the value, for `inspect` and for `diff` on
/// either side (status 2), never a crash.
struct SeedFileTrapTests {
    struct Case: Sendable, CustomStringConvertible {
        var update: String
        var message: String
        var description: String { update }
    }

    static let cases = [
        Case(
            update: "UPDATE seed_metadata SET value = x'00ff' WHERE key = 'format'",
            message: "seed_metadata, row 2 (key \"format\"), column value: expected text, found a blob (2 bytes)"),
        Case(
            update: "UPDATE seed_metadata SET key = x'41' WHERE key = 'seeder_version'",
            message: "seed_metadata, row 7, column key: expected text, found a blob (1 byte)"),
        Case(
            update: "UPDATE seed_source SET bytes = 'many' WHERE path = 'users.json'",
            message: "seed_source, row 2 (path \"users.json\"), column bytes: expected an integer, found text"),
        Case(
            update: "UPDATE seed_source SET records = x'' WHERE path = 'task_list.json'",
            message: "seed_source, row 1 (path \"task_list.json\"), column records: expected an integer, found a blob (0 bytes)"),
        Case(
            update: "UPDATE seed_source SET sha256 = x'12' WHERE path = 'users.json'",
            message: "seed_source, row 2 (path \"users.json\"), column sha256: expected text, found a blob (1 byte)"),
        // A table of the same columns without their types and NOT NULL (another tool's copy):
        // a NULL is placed, never read as 0 or "".
        Case(
            update: untyped + "; UPDATE seed_source SET bytes = NULL WHERE path = 'users.json'",
            message: "seed_source, row 2 (path \"users.json\"), column bytes: expected an integer, found NULL"),
        Case(
            update: untyped + "; UPDATE seed_source SET sha256 = NULL WHERE path = 'task_list.json'",
            message: "seed_source, row 1 (path \"task_list.json\"), column sha256: expected text, found NULL"),
    ]

    /// `seed_source` made again without column types or constraints, its rows kept.
    static let untyped =
        "ALTER TABLE seed_source RENAME TO typed; CREATE TABLE seed_source(path, files, sha256, bytes, records); "
        + "INSERT INTO seed_source SELECT * FROM typed; DROP TABLE typed"

    @Test(arguments: cases)
    func inspectAndDiffPlaceAValueOfAnotherType(_ mutation: Case) async throws {
        let scratch = try await DiffCommandTests.seeds([
            ("v1", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
            ("bad", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
        ])
        let bad = try RawDatabase(scratch.path("bad.sqlite"))
        for statement in mutation.update.split(separator: "; ") { try bad.execute(String(statement)) }
        for arguments in [
            ["inspect", "bad.sqlite"], ["inspect", "bad.sqlite", "--json"], ["inspect", "bad.sqlite", "--format", "mermaid"],
            ["diff", "v1.sqlite", "bad.sqlite"], ["diff", "bad.sqlite", "v1.sqlite", "--format", "json"],
        ] {
            let run = try await seeder(arguments, in: scratch.root)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stdout == "", "\(arguments)")
            #expect(run.stderr == "bad.sqlite: error: \(mutation.message)\n", "\(arguments)")
        }
    }
}
