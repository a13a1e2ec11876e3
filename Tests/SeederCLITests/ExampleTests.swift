import Foundation
import GRDB
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

/// The result of running the binary.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `seeder` with `arguments` in `directory`.
func seeder(_ arguments: [String], in directory: String = repository, environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try seederBinary())
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
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
    static let examples = ["tasklist", "accounts", "marvel", "catalog", "pods"]

    @Test(arguments: examples)
    func buildsTheExample(_ name: String) throws {
        let scratch = try Workspace()
        let output = scratch.root + "/\(name).sqlite"
        let run = try seeder(
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

    @Test func opensTheSeedAsAnAppDoesWithCodableRecordsReadOnly() throws {
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
        #expect(try seeder(["build", "mappings/tasklist.yaml", "seeds/tasklist", "-o", output, "--quiet"]).status == 0)
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: output, configuration: configuration)
        let tasks = try queue.read { db in try Task.order(Column("id")).fetchAll(db) }
        #expect(tasks.map(\.name).prefix(2) == ["Identify samples to write", "Write the code"])
        #expect(tasks[0].dueAt == Date(timeIntervalSince1970: 1_310_316_663))
        #expect(tasks[0].completed && !tasks[1].completed)
        #expect(tasks.map(\.projectId) == [123, 123, 123, 123, 456, 456, 456])
        #expect(tasks.map(\.projectPosition) == [0, 1, 2, 3, 0, 1, 2])
    }
}
