import Foundation
import SeederTestSupport
import Testing

/// The SQL of Room's exported schema is data of the app's repository (docs/trust.md): seeder
/// runs only what creates Room's schema, and nothing it holds writes a file, leaves a
/// transaction open, loops or fills memory. Each statement is added to the example's
/// `setupQueries`; `validate` and `build` refuse it at the mapping's `schema:` key, status 1.
struct RoomSchemaSQLTests {
    static let schemaPath = "schemas/com.example.tasklist.data.TaskListDatabase/3.json"

    /// A workspace with the Room example's mapping, dumps and schema, `statement` appended to
    /// its `setupQueries`.
    static func workspace(adding statement: String) throws -> Workspace {
        let scratch = try Workspace(directories: ["schemas/com.example.tasklist.data.TaskListDatabase"])
        let original = try String(contentsOfFile: repository + "/mappings/" + schemaPath, encoding: .utf8)
        let hash = "VALUES(42, '8f3c2b6e41d95a07c1e4f7a2b9d06e53')\""
        #expect(original.components(separatedBy: hash).count == 2)
        let quoted = statement.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        try scratch.write(schemaPath, original.replacingOccurrences(of: hash, with: hash + ",\n      \"\(quoted)\""))
        try scratch.write("map.yaml", try String(contentsOfFile: repository + "/mappings/tasklist-room.yaml", encoding: .utf8))
        return scratch
    }

    @Test(arguments: [
        (
            "ATTACH DATABASE 'planted.db' AS x",
            "Room's schema only creates tables, indexes, views and triggers, and fills room_master_table"
        ),
        ("VACUUM INTO 'copy.db'", "Room's schema only creates tables, indexes, views and triggers, and fills room_master_table"),
        ("BEGIN", "Room's schema only creates tables, indexes, views and triggers, and fills room_master_table"),
        ("CREATE TEMP TABLE users (id INTEGER)", "seeder does not run it: it creates a temporary object, which the seed would not hold"),
        (
            "CREATE TABLE big AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
            "seeder does not run it: it is a recursive query"
        ),
        ("INSERT INTO users (id, name) VALUES (1, 'planted')", "seeder does not run it: it writes to table users"),
        ("CREATE TABLE big (x); INSERT INTO big VALUES (zeroblob(1000))", "it holds more than one statement"),
        ("INSERT OR REPLACE INTO room_master_table (id, identity_hash) VALUES (43, zeroblob(2000000))", "string or blob too big"),
        (
            "CREATE TABLE big AS SELECT 1 AS x FROM (SELECT 1 UNION ALL SELECT 2) a, (SELECT 1 UNION ALL SELECT 2) b, "
                + "(SELECT 1 UNION ALL SELECT 2) c, (SELECT 1 UNION ALL SELECT 2) d, (SELECT 1 UNION ALL SELECT 2) e, "
                + "(SELECT 1 UNION ALL SELECT 2) f, (SELECT 1 UNION ALL SELECT 2) g, (SELECT 1 UNION ALL SELECT 2) h, "
                + "(SELECT 1 UNION ALL SELECT 2) i, (SELECT 1 UNION ALL SELECT 2) j, (SELECT 1 UNION ALL SELECT 2) k, "
                + "(SELECT 1 UNION ALL SELECT 2) l, (SELECT 1 UNION ALL SELECT 2) m, (SELECT 1 UNION ALL SELECT 2) n, "
                + "(SELECT 1 UNION ALL SELECT 2) o, (SELECT 1 UNION ALL SELECT 2) p, (SELECT 1 UNION ALL SELECT 2) q, "
                + "(SELECT 1 UNION ALL SELECT 2) r, (SELECT 1 UNION ALL SELECT 2) s, (SELECT 1 UNION ALL SELECT 2) t, "
                + "(SELECT 1 UNION ALL SELECT 2) u, (SELECT 1 UNION ALL SELECT 2) v, (SELECT 1 UNION ALL SELECT 2) w",
            "it ran past 20000000 of SQLite's steps, and was stopped"
        ),
    ])
    func onlyWhatCreatesRoomsSchemaRuns(statement: String, reason: String) async throws {
        let scratch = try Self.workspace(adding: statement)
        for arguments in [["validate"], ["build", "-o", "seed.sqlite"]] {
            let command = arguments[0]
            let run = try await seeder(arguments + ["map.yaml", repository + "/seeds/tasklist"], in: scratch.root)
            #expect(run.status == 1, "\(command): \(run.stderr)")
            let shown = statement.count > 80 ? String(statement.prefix(77)) + "..." : statement
            #expect(
                run.stderr.hasPrefix(
                    "map.yaml:5:17: error: Room's schema '\(Self.schemaPath)' cannot be created: \(shown): \(reason)\n"),
                "\(command): \(run.stderr)")
        }
        // Nothing was written: no seed, no file the statement named.
        #expect(scratch.files == ["map.yaml", "schemas"])
    }
}
