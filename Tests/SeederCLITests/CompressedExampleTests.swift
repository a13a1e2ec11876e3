import Foundation
import GRDB
import SeederCore
import SeederTestSupport
import Testing

@testable import SeederStore

/// Each example built from a compressed twin of its dumps (every file gzipped, or compressed
/// with zstd, and the mapping's paths naming them) holds the same rows as the example built from
/// its text: only `seed_source` (each file as stored: path, digest, size; docs/seed.md) and the
/// digests of the mapping and the inputs differ.
struct CompressedExampleTests {
    /// The example's dumps compressed into `scratch/dumps`, the text removed, and its mapping in
    /// `scratch/NAME.yaml` with each source path ending in the compression's suffix.
    static func twin(of name: String, with compressor: Compressor, in scratch: Workspace) async throws -> [String] {
        let dumps = scratch.path("dumps")
        try FileManager.default.copyItem(atPath: repository + "/seeds/\(name)", toPath: dumps)
        let files = try FileManager.default.subpathsOfDirectory(atPath: dumps).filter { $0.hasSuffix(".json") }.sorted()
        for file in files {
            try await compressor.compress(dumps + "/" + file)
            try FileManager.default.removeItem(atPath: dumps + "/" + file)
        }
        let mapping = try String(contentsOfFile: repository + "/mappings/\(name).yaml", encoding: .utf8)
        let twin = mapping.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("path:") ? line.replacingOccurrences(of: ".json", with: ".json" + compressor.suffix) : String(line)
        }
        try twin.joined(separator: "\n").write(toFile: scratch.path("\(name).yaml"), atomically: false, encoding: .utf8)
        return files
    }

    /// Every row of every table, and the schema, but `seed_source` and the two digests.
    static func contents(of path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            var rows = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name").map(\.description)
            for table in tables where table != "seed_source" {
                let filter = table == "seed_metadata" ? " WHERE key NOT IN ('mapping_sha256', 'inputs_sha256')" : ""
                rows += try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"\(filter)").map { "\(table) \($0)" }
            }
            return rows
        }
    }

    static let cases = ExampleTests.examples.flatMap { name in Compressor.allCases.map { (name, $0) } }

    @Test(arguments: cases)
    func buildsTheSameRowsFromACompressedTwin(_ name: String, _ compressor: Compressor) async throws {
        let scratch = try Workspace()
        let files = try await Self.twin(of: name, with: compressor, in: scratch)
        #expect(!files.isEmpty)
        let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
        let plain = try await seeder(
            [
                "build", "mappings/\(name).yaml", "seeds/\(name)", "-o", scratch.path("plain.sqlite"), "--report",
                scratch.path("plain.json"),
            ],
            environment: environment)
        let twin = try await seeder(
            ["build", "\(name).yaml", "dumps", "-o", "twin.sqlite", "--report", "twin.json"], in: scratch.root, environment: environment)
        #expect(plain.status == 0 && twin.status == 0, "\(plain.stderr)\(twin.stderr)")
        #expect(twin.stderr == "")
        #expect(twin.stdout == plain.stdout.replacingOccurrences(of: scratch.path("plain.sqlite"), with: "twin.sqlite"))
        let expected = try Self.contents(of: scratch.path("plain.sqlite"))
        #expect(try Self.contents(of: scratch.path("twin.sqlite")) == expected)
        #expect(expected.count > 10)

        // seed_source: the same sources and records, each glob with its suffix.
        let sources = { (path: String) in
            try DatabaseQueue(path: path).read { db in try Row.fetchAll(db, sql: "SELECT * FROM seed_source ORDER BY path") }
        }
        let plainSources = try sources(scratch.path("plain.sqlite"))
        let twinSources = try sources(scratch.path("twin.sqlite"))
        #expect(twinSources.map { $0["path"] as String } == plainSources.map { ($0["path"] as String) + compressor.suffix })
        #expect(twinSources.map { $0["records"] as Int } == plainSources.map { $0["records"] as Int })
        // The report's files: the same records, each file as stored.
        let reportFiles = { (path: String) throws -> [[String: Any]] in
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            return try #require((report as? [String: Any])?["files"] as? [[String: Any]])
        }
        let plainFiles = try reportFiles(scratch.path("plain.json")), twinFiles = try reportFiles(scratch.path("twin.json"))
        #expect(twinFiles.map { $0["path"] as? String } == plainFiles.map { ($0["path"] as? String).map { $0 + compressor.suffix } })
        #expect(twinFiles.map { $0["records"] as? Int } == plainFiles.map { $0["records"] as? Int })
        for file in twinFiles {
            let stored = try Data(contentsOf: URL(fileURLWithPath: scratch.path("dumps/" + (file["path"] as? String ?? ""))))
            #expect(file["bytes"] as? Int == stored.count)
            #expect(file["sha256"] as? String == SHA256.hex(stored))
        }
    }
}
