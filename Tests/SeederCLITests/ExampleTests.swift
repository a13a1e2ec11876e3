import Foundation
import GRDB
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

/// The repository's root, from this file's path.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The `seeder` binary SwiftPM built beside the tests.
func seederBinary() throws -> String {
    let candidates =
        [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seeder").path,
            repository + "/.build/debug/seeder",
        ]
        + ((try? FileManager.default.contentsOfDirectory(atPath: repository + "/.build")) ?? []).map {
            repository + "/.build/\($0)/debug/seeder"
        }
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) }, "no seeder binary in \(candidates)")
}

/// The `seeder-bench` binary beside `seeder`.
func seederBenchBinary() throws -> String {
    let path = URL(fileURLWithPath: try seederBinary()).deletingLastPathComponent().appendingPathComponent("seeder-bench").path
    return try #require(FileManager.default.isExecutableFile(atPath: path) ? path : nil, "no seeder-bench at \(path)")
}

/// The result of running the binary.
typealias Run = ProgramRun

/// Runs `seeder` with `arguments` in `directory`.
func seeder(_ arguments: [String], in directory: String = repository, environment: [String: String] = [:]) async throws -> Run {
    try await program(try seederBinary(), arguments, in: directory, environment: environment)
}

/// Runs the program at `path` with `arguments` in `directory`, in `programEnvironment`
/// (`runProgram` for the rest).
func program(
    _ path: String, _ arguments: [String], in directory: String = repository, environment: [String: String] = [:],
    standardOutput: ProgramOutput = .captured, killAfter: Double? = nil
) async throws -> Run {
    try await runProgram(
        path, arguments, in: directory, environment: programEnvironment(environment), standardOutput: standardOutput, killAfter: killAfter)
}

/// This process's environment and `environment`, with `NO_COLOR` set: what the tests run
/// programs in.
func programEnvironment(_ environment: [String: String] = [:]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    // A run of the tests inside GitHub Actions must not change what the commands print.
    for key in ["GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE"] { env[key] = nil }
    for (key, value) in environment { env[key] = value }
    return env
}

/// Compares `text` with the committed snapshot in `Tests/SeederCLITests/Snapshots/`.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try SeederTestSupport.assertSnapshot(
        text, named: name, in: repository + "/Tests/SeederCLITests/Snapshots", sourceLocation: sourceLocation)
}

/// Every example in `mappings/` and `seeds/` is built by the real binary: exit status, summary,
/// a text dump of the seed against its snapshot, and SQLite's own full checks of the file, which
/// the build itself runs in their faster forms (docs/seed.md).
struct ExampleTests {
    static let examples = ["tasklist", "accounts", "marvel", "catalog", "pods", "social"]

    @Test(arguments: examples)
    func buildsTheExample(_ name: String) async throws {
        let scratch = try Workspace()
        let output = scratch.root + "/\(name).sqlite"
        let run = try await seeder(
            ["build", "mappings/\(name).yaml", "seeds/\(name)", "-o", output], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        let summary = run.stdout.replacingOccurrences(of: scratch.root + "/", with: "")
        let dump = try SeedDump.text(ofSeedAt: output, masking: ["sqlite_version"])
        try assertSnapshot("$ seeder build mappings/\(name).yaml seeds/\(name) -o \(name).sqlite\n\(summary)\n\(dump)", named: name)
        let (integrity, violations) = try DatabaseQueue(path: output).read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Row.fetchAll(db, sql: "PRAGMA foreign_key_check"))
        }
        #expect(integrity == ["ok"])
        #expect(violations.isEmpty)
    }

    /// The social example (docs/mapping.md, Polymorphism; Keys as data): users keyed by handle,
    /// their feeds spread over one table per case with positions counted across the cases,
    /// (type, id) links in a to-one and a join table, and Rails-style comments.
    @Test func socialExampleRows() async throws {
        let scratch = try Workspace()
        let output = scratch.root + "/social.sqlite"
        let run = try await seeder([
            "build", "mappings/social.yaml", "seeds/social", "-o", output, "--report", scratch.root + "/report.json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(
            run.stdout.replacingOccurrences(of: scratch.root + "/", with: "") == """
                entity   records  rows  merged  conflicts  references  dropped  skipped
                User           4     4       0          0          12        0        1
                Photo          4     4       0          0           4        0        0
                Video          3     3       0          0           3        0        0
                Link           4     4       0          0           4        0        0
                Comment        5     5       0          0          10        0        0
                wrote social.sqlite

                """)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.root + "/report.json"))) as? [String: Any])
        let entities = try #require(report["entities"] as? [[String: Any]])
        #expect(entities.map { $0["nullsSkipped"] as? Int } == [1, 0, 0, 0, 0])  // "mina": null

        let queue = try DatabaseQueue(path: output)
        func rows(_ sql: String) throws -> [String] { try queue.read { db in try Row.fetchAll(db, sql: sql).map(\.description) } }
        #expect(
            try rows("SELECT handle, name, joined, pinned_id, pinned_type FROM user ORDER BY rowid") == [
                #"[handle:"blake" name:"Blake Watters" joined:"2019-04-02T00:00:00.000Z" pinned_id:"v1" pinned_type:"Video"]"#,
                #"[handle:"rachit" name:"Rachit Shukla" joined:"2020-11-17T00:00:00.000Z" pinned_id:"v2" pinned_type:"Video"]"#,
                #"[handle:"jeff" name:"Jeff Arena" joined:"2021-06-30T00:00:00.000Z" pinned_id:"p3" pinned_type:"Photo"]"#,
                #"[handle:"sam" name:"Sam Ritchie" joined:"2023-01-09T00:00:00.000Z" pinned_id:NULL pinned_type:NULL]"#,
            ])
        #expect(
            try rows("SELECT id, url, width, height, owner_id, owner_position FROM photo ORDER BY id") == [
                #"[id:"p1" url:"https://cdn.example.com/p/p1.jpg" width:1080 height:1350 owner_id:"blake" owner_position:0]"#,
                #"[id:"p2" url:"https://cdn.example.com/p/p2.jpg" width:1080 height:1080 owner_id:"blake" owner_position:3]"#,
                #"[id:"p3" url:"https://cdn.example.com/p/p3.jpg" width:1350 height:1080 owner_id:"rachit" owner_position:1]"#,
                #"[id:"p4" url:"https://cdn.example.com/p/p4.jpg" width:800 height:600 owner_id:"jeff" owner_position:1]"#,
            ])
        #expect(
            try rows("SELECT id, url, seconds, owner_id, owner_position FROM video ORDER BY id") == [
                #"[id:"v1" url:"https://cdn.example.com/v/v1.mp4" seconds:42 owner_id:"blake" owner_position:1]"#,
                #"[id:"v2" url:"https://cdn.example.com/v/v2.mp4" seconds:95 owner_id:"rachit" owner_position:0]"#,
                #"[id:"v3" url:"https://cdn.example.com/v/v3.mp4" seconds:12 owner_id:"jeff" owner_position:2]"#,
            ])
        #expect(
            try rows("SELECT id, title, owner_id, owner_position FROM link ORDER BY id") == [
                #"[id:"l1" title:"Object mapping" owner_id:"blake" owner_position:2]"#,
                #"[id:"l2" title:"Retrieving data" owner_id:"rachit" owner_position:2]"#,
                #"[id:"l3" title:"CREATE TABLE" owner_id:"jeff" owner_position:0]"#,
                #"[id:"l4" title:"Polymorphic associations" owner_id:"jeff" owner_position:3]"#,
            ])
        // A feed read back as an app reads it: the three tables, in one order.
        let items = try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, owner_id FROM (
                      SELECT id, owner_id, owner_position FROM photo UNION ALL
                      SELECT id, owner_id, owner_position FROM video UNION ALL
                      SELECT id, owner_id, owner_position FROM link)
                    ORDER BY owner_id, owner_position
                    """
            ).map { ($0["owner_id"] as String, $0["id"] as String) }
        }
        let feeds = Dictionary(grouping: items, by: \.0).mapValues { $0.map(\.1) }
        #expect(feeds == ["blake": ["p1", "v1", "l1", "p2"], "rachit": ["v2", "p3", "l2"], "jeff": ["l3", "p4", "v3", "l4"]])
        #expect(
            try rows("SELECT user_id, like_id, like_type FROM user_likes ORDER BY user_id, like_id") == [
                #"[user_id:"blake" like_id:"l2" like_type:"Link"]"#, #"[user_id:"blake" like_id:"p3" like_type:"Photo"]"#,
                #"[user_id:"jeff" like_id:"v2" like_type:"Video"]"#, #"[user_id:"rachit" like_id:"p1" like_type:"Photo"]"#,
                #"[user_id:"rachit" like_id:"p4" like_type:"Photo"]"#, #"[user_id:"rachit" like_id:"v1" like_type:"Video"]"#,
                #"[user_id:"sam" like_id:"l1" like_type:"Link"]"#, #"[user_id:"sam" like_id:"p1" like_type:"Photo"]"#,
                #"[user_id:"sam" like_id:"v3" like_type:"Video"]"#,
            ])
        #expect(
            try rows("SELECT id, author_id, subject_id, subject_type, posted_at FROM comment ORDER BY rowid") == [
                #"[id:"-NfA3kQ" author_id:"rachit" subject_id:"p1" subject_type:"Photo" posted_at:"2023-10-01T12:00:00.000Z"]"#,
                #"[id:"-NfA3lB" author_id:"blake" subject_id:"p1" subject_type:"Photo" posted_at:"2023-10-01T13:00:00.000Z"]"#,
                #"[id:"-NfA4x2" author_id:"sam" subject_id:"v2" subject_type:"Video" posted_at:"2023-10-02T13:00:00.000Z"]"#,
                #"[id:"-NfB0aT" author_id:"jeff" subject_id:"l1" subject_type:"Link" posted_at:"2023-10-03T13:00:00.000Z"]"#,
                #"[id:"-NfB7pe" author_id:"blake" subject_id:"v3" subject_type:"Video" posted_at:"2023-10-04T13:00:00.000Z"]"#,
            ])
        // No SQL foreign key for a (type, id) link (seeder checks them itself), but an index over it;
        // the join table's one foreign key is its owner's.
        let (userKeys, likeKeys, pinnedIndexed) = try await queue.read { db in
            (
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(user)").count,
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(user_likes)").map { $0["table"] as String },
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('user')").contains { index in
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index])
                    return Set(columns) == ["pinned_id", "pinned_type"]
                }
            )
        }
        #expect(userKeys == 0)
        #expect(likeKeys == ["user"])
        #expect(pinnedIndexed)
    }

    @Test func opensTheSeedAsAnAppDoesWithCodableRecordsReadOnly() async throws {
        struct Task: Codable, FetchableRecord, TableRecord {
            var id: Int64
            var name: String
            var dueAt: Date?
            var completed: Bool
            var projectId: Int64?
            var assignedUserId: Int64?
            var projectPosition: Int?
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        }
        let scratch = try Workspace()
        let output = scratch.root + "/tasklist.sqlite"
        #expect(try await seeder(["build", "mappings/tasklist.yaml", "seeds/tasklist", "-o", output, "--quiet"]).status == 0)
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: output, configuration: configuration)
        let tasks = try await queue.read { db in try Task.order(Column("id")).fetchAll(db) }
        #expect(tasks.map(\.name).prefix(2) == ["Identify samples to write", "Write the code"])
        #expect(tasks[0].dueAt == Date(timeIntervalSince1970: 1_310_316_663))
        #expect(tasks[0].completed && !tasks[1].completed)
        #expect(tasks.map(\.projectId) == [123, 123, 123, 123, 456, 456, 456])
        #expect(tasks.map(\.projectPosition) == [0, 1, 2, 3, 0, 1, 2])
    }
}
