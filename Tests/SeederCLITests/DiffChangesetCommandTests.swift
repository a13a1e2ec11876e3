import CSQLite
import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `seeder diff --changeset` (docs/commands.md, The changeset) through the binary: what it says,
/// when it refuses, and that a refusal prints and writes nothing.
struct DiffChangesetCommandTests {
    @Test func writesTheChangesetAndSaysWhatItChanges() async throws {
        let scratch = try await DiffCommandTests.tasklistSeeds()
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "v1-to-v2.changeset"], in: scratch.root)
        let plain = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == plain.stdout)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-to-v2.changeset")).count
        #expect(
            run.stderr
                == "wrote v1-to-v2.changeset (\(bytes) bytes): 2 rows of user, 3 rows of project, 4 rows of task, 3 rows of metadata\n")

        // The same records, built at another SOURCE_DATE_EPOCH: only `built_at` differs.
        let rebuilt = try await seeder(
            ["diff", "v1.sqlite", "v1-again.sqlite", "--changeset", "rebuilt.changeset", "--json"], in: scratch.root)
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stderr.hasSuffix(" bytes): 1 row of metadata\n"))
        let same = try await seeder(["diff", "v1.sqlite", "v1.sqlite", "--changeset", "same.changeset"], in: scratch.root)
        #expect(same.status == 0)
        #expect(same.stderr == "wrote same.changeset (0 bytes): no changes\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/same.changeset")).isEmpty)
    }

    /// Each `seed_metadata` change of a changeset, in its order: the key, and the old and new
    /// values it carries.
    static func metadataChanges(_ path: String) throws -> [(key: String, old: String?, new: String?)] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var changes: [(key: String, old: String?, new: String?)] = []
        func text(_ value: OpaquePointer?) -> String? {
            value.flatMap { sqlite3_value_text($0) }.map { String(cString: $0) }
        }
        try bytes.withUnsafeBytes { buffer in
            var iterator: OpaquePointer?
            guard sqlite3changeset_start(&iterator, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress)) == SQLITE_OK
            else { throw RawDatabaseError(operation: "sqlite3changeset_start", message: "not a changeset") }
            defer { sqlite3changeset_finalize(iterator) }
            while sqlite3changeset_next(iterator) == SQLITE_ROW {
                var name: UnsafePointer<CChar>?
                var columns: Int32 = 0, operation: Int32 = 0, indirect: Int32 = 0
                sqlite3changeset_op(iterator, &name, &columns, &operation, &indirect)
                guard let name, String(cString: name) == "seed_metadata" else { continue }
                var key: OpaquePointer?, old: OpaquePointer?, new: OpaquePointer?
                if operation == SQLITE_INSERT { sqlite3changeset_new(iterator, 0, &key) } else { sqlite3changeset_old(iterator, 0, &key) }
                if operation != SQLITE_INSERT { sqlite3changeset_old(iterator, 1, &old) }
                if operation != SQLITE_DELETE { sqlite3changeset_new(iterator, 1, &new) }
                changes.append((text(key) ?? "", text(old), text(new)))
            }
        }
        return changes
    }

    /// A changeset names the seeds it leads from and to, and ends with them: after its changes,
    /// an update of every identity key to its value in the new seed, which is also the old
    /// seed's value of each key the changeset does not change (docs/commands.md, The changeset).
    @Test func pinsTheSeedsItLeadsFromAndToLast() async throws {
        let scratch = try await DiffCommandTests.tasklistSeeds()
        #expect(try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "c"], in: scratch.root).status == 1)
        let changes = try Self.metadataChanges(scratch.root + "/c")
        func metadata(_ seed: String) throws -> [String: String] {
            let queue = try DatabaseQueue(path: scratch.root + "/\(seed).sqlite")
            defer { try? queue.close() }
            return try queue.read { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM seed_metadata").map {
                        ($0[0] as String, $0[1] as String)
                    })
            }
        }
        let v1 = try metadata("v1"), v2 = try metadata("v2")
        let keys = ["inputs_sha256", "mapping_sha256", "seeder_version"]
        #expect(changes.suffix(3).map(\.key).sorted() == keys)
        for change in changes.suffix(3) {
            #expect(change.old == v2[change.key] && change.new == v2[change.key], "\(change)")
        }
        #expect(v1["mapping_sha256"] == v2["mapping_sha256"] && v1["seeder_version"] == v2["seeder_version"])
        let inputs = changes.dropLast(3).filter { $0.key == "inputs_sha256" }
        #expect(inputs.count == 1 && inputs.first?.old == v1["inputs_sha256"] && inputs.first?.new == v2["inputs_sha256"])
    }

    @Test func refusesASchemaChangeBeforePrintingAnything() async throws {
        let scratch = try await DiffCommandTests.seeds([
            ("v1", "mappings/catalog.yaml", "seeds/catalog", "1700000000"),
            ("v2", DiffCommandTests.fixtures + "/catalog-v2.yaml", DiffCommandTests.fixtures + "/catalog-v2", "1700000000"),
        ])
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "c"], in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("error: cannot write a changeset: the schema changed ("))
        #expect(run.stderr.hasSuffix("and a changeset holds rows only; ship the new seed whole\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.root + "/c"))
    }

    @Test func refusesAFileItMayNotWriteAndEntity() async throws {
        let scratch = try await DiffCommandTests.tasklistSeeds()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-again.sqlite"))
        let seed = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "v1-again.sqlite"], in: scratch.root)
        #expect(seed.status == 2 && seed.stdout == "")
        #expect(seed.stderr == "error: the changeset v1-again.sqlite may not be written: it is an SQLite database\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-again.sqlite")) == before)
        let old = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "./v1.sqlite"], in: scratch.root)
        #expect(old.status == 2 && old.stderr == "error: the changeset ./v1.sqlite is the old seed\n")
        let empty = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", ""], in: scratch.root)
        #expect(empty.status == 64 && empty.stderr.hasPrefix("Error: --changeset needs a file name.\n"))
        try "seeder: 1\n".write(toFile: scratch.root + "/mapping.yaml", atomically: true, encoding: .utf8)
        let mapping = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "mapping.yaml"], in: scratch.root)
        #expect(mapping.status == 2 && mapping.stdout == "")
        #expect(try String(contentsOfFile: scratch.root + "/mapping.yaml", encoding: .utf8) == "seeder: 1\n")
        let entity = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--changeset", "c", "--entity", "Task"], in: scratch.root)
        #expect(entity.status == 64)
        #expect(entity.stderr.hasPrefix("Error: --changeset covers the whole seed; it cannot go with --entity.\n"))
    }
}
