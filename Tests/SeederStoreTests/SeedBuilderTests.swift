import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

struct SeedBuilderTests {
    static let tasklist = """
        seeder: 1
        schemaVersion: 3
        entities:
          User:
            attributes:
              id: integer
              name: { type: string, required: true }
              email: string
          Project:
            attributes:
              id: integer
              name: string
              taskCount: { type: integer, from: "tasks.@count" }
            relationships:
              user: { to: User }
              tasks: { to: Task, many: true, inverse: project, ordered: true }
          Task:
            attributes:
              id: integer
              name: string
            relationships:
              project: { to: Project }
              assignedUser: { to: User, from: assigned_user_id }
        sources:
          - path: task_list.json
            entity: Project
            keyPath: project
          - path: users.json
            entity: User
        """

    static let taskList = """
        [{"project": {"id": 123, "name": "Seeder", "user": {"id": 1, "name": "Blake"},
          "tasks": [{"id": 2, "name": "Write it", "assigned_user_id": 2}, {"id": 1, "name": "Read the spec", "assigned_user_id": 1}]}},
         {"project": {"id": 456, "name": "Docs", "user": {"id": 2, "name": "Rachit"},
          "tasks": [{"id": 3, "name": "Reference", "assigned_user_id": 1}]}}]
        """

    static let users = #"[{"id": 1, "name": "Blake", "email": "blake@example.com"}, {"id": 2, "name": "Rachit"}]"#

    @Test func buildsASeedFromEmbeddedRecordsAndReferences() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.tasklist)
        try workspace.write("dumps/task_list.json", Self.taskList)
        try workspace.write("dumps/users.json", Self.users)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(
            try workspace.rows("SELECT * FROM user ORDER BY id") == [
                #"[id:1 name:"Blake" email:"blake@example.com"]"#, #"[id:2 name:"Rachit" email:NULL]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM project ORDER BY id") == [
                #"[id:123 name:"Seeder" task_count:2 user_id:1]"#, #"[id:456 name:"Docs" task_count:1 user_id:2]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM task ORDER BY id") == [
                #"[id:1 name:"Read the spec" project_id:123 assigned_user_id:1 project_position:1]"#,
                #"[id:2 name:"Write it" project_id:123 assigned_user_id:2 project_position:0]"#,
                #"[id:3 name:"Reference" project_id:456 assigned_user_id:1 project_position:0]"#,
            ])
        let user = try #require(report.entities.first)
        #expect(user.counts.recordsRead == 4 && user.counts.rowsWritten == 2 && user.counts.occurrencesMerged == 2)
        #expect(report.entities[2].counts.referencesResolved == 6)
    }

    @Test func writesTheMetadataAndPragmasOfSeedMD() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.tasklist)
        try workspace.write("dumps/task_list.json", Self.taskList)
        try workspace.write("dumps/users.json", Self.users)
        #expect(workspace.build { $0.sourceDateEpoch = "1700000000" }.outcome == .success)
        let queue = try DatabaseQueue(path: workspace.root + "/seed.sqlite")
        try queue.read { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 3)
            #expect(try Int.fetchOne(db, sql: "PRAGMA application_id") == 0x5345_4544)
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "delete")
            #expect(try Int.fetchOne(db, sql: "PRAGMA page_size") == 4096)
            #expect(try Int.fetchOne(db, sql: "PRAGMA freelist_count") == 0)
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let metadata = try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM seed_metadata").map {
                    ($0[0] as String, $0[1] as String)
                })
            #expect(
                metadata.keys.sorted() == [
                    "built_at", "format", "inputs_sha256", "mapping", "mapping_sha256", "seeder_version", "sqlite_version",
                ])
            #expect(metadata["built_at"] == "2023-11-14T22:13:20Z")
            #expect(metadata["format"] == "1")
            #expect(metadata["mapping_sha256"] == SHA256.hex(Array(Self.tasklist.utf8)))
            #expect(metadata["mapping"]?.hasPrefix(#"{"dates":"iso8601","entities":[{"attributes":[{"column":"id""#) == true)
            // Without `sources:`, each file is its own source: its digest is over its path and its
            // bytes' digest (docs/seed.md, Metadata).
            let digest = { (path: String, text: String) in SHA256.hex(Array("\(path)\n\(SHA256.hex(Array(text.utf8)))\n".utf8)) }
            let sources = try Row.fetchAll(db, sql: "SELECT * FROM seed_source ORDER BY path").map(\.description)
            #expect(
                sources == [
                    "[path:\"task_list.json\" files:1 sha256:\"\(digest("task_list.json", Self.taskList))\" bytes:\(Self.taskList.utf8.count) records:2]",
                    "[path:\"users.json\" files:1 sha256:\"\(digest("users.json", Self.users))\" bytes:\(Self.users.utf8.count) records:2]",
                ])
        }
    }

    /// Each file's digest is its bytes' own whatever its size (`DigestPipeline`): a file over
    /// two blocks of the hashing thread, split where no record ends, and small files that share
    /// a block with it and with each other.
    @Test func digestsEveryFileAcrossBlocks() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            provenance: files
            entities:
              Pod:
                attributes: { id: integer, name: string }
            sources:
              - path: "*.json"
                entity: Pod
            """)
        let records = (1...20_000).map { #"{"id": \#($0), "name": "\#(String(repeating: "x", count: 100 + $0 % 37))"}"# }
        try workspace.write("dumps/a-big.json", "[\n" + records.joined(separator: ",\n") + "\n]\n")
        for index in 1...5 { try workspace.write("dumps/b-small\(index).json", #"[{"id": \#(100_000 + index), "name": "s\#(index)"}]"#) }
        #expect(workspace.build().outcome == .success)
        let expected = try (["a-big.json"] + (1...5).map { "b-small\($0).json" }).map { name in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/dumps/" + name))
            return "[path:\"\(name)\" sha256:\"\(SHA256.hex(Array(bytes)))\" bytes:\(bytes.count)]"
        }
        #expect(expected.count == 6)
        #expect(try workspace.rows("SELECT path, sha256, bytes FROM seed_source ORDER BY path") == expected)
    }

    @Test func givesByteIdenticalSeedsFromDifferentDirectories() throws {
        var seeds: [Data] = []
        for _ in 0..<2 {
            let workspace = try Workspace.withDumps()
            try workspace.write("mapping.yaml", Self.tasklist)
            try workspace.write("dumps/task_list.json", Self.taskList)
            try workspace.write("dumps/users.json", Self.users)
            let previous = FileManager.default.currentDirectoryPath
            _ = FileManager.default.changeCurrentDirectoryPath(workspace.root)
            defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
            var options = BuildOptions(mapping: "mapping.yaml", dumps: "dumps")
            options.output = "seed.sqlite"
            #expect(SeedBuilder.build(options).outcome == .success)
            seeds.append(try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/seed.sqlite")))
        }
        #expect(seeds[0] == seeds[1])
    }

    @Test func reportsConflictsAndMissingReferencesAndKeepsThePreviousSeed() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.tasklist)
        try workspace.write("dumps/task_list.json", Self.taskList)
        try workspace.write("dumps/users.json", Self.users)
        #expect(workspace.build().outcome == .success)
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/seed.sqlite"))
        try workspace.write("dumps/users.json", #"[{"id": 1, "name": "Blake W."}, {"id": 2, "name": "Rachit"}]"#)
        try workspace.write(
            "dumps/task_list.json", Self.taskList.replacingOccurrences(of: #""assigned_user_id": 1}]"#, with: #""assigned_user_id": 404}]"#)
        )
        let report = workspace.build()
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                #"dumps/users.json:1:20: error: User 1: 'name' conflicts: "Blake W." here, "Blake" at dumps/task_list.json:1:70"#,
                "dumps/task_list.json:2:122: error: Task 1 references User 404 (assignedUser), which no record provides  [/0/project/tasks/1/assigned_user_id]",
                "dumps/task_list.json:4:64: error: Task 3 references User 404 (assignedUser), which no record provides  [/1/project/tasks/0/assigned_user_id]",
                // No occurrence of a user has an email any more.
                "mapping.yaml:8:7: warning: User.email: 'email' matched no key in 4 records",
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/seed.sqlite")) == before)
        #expect(workspace.files == ["dumps", "mapping.yaml", "seed.sqlite"])
    }

    @Test func dropsMissingReferencesWhenAskedAndNumbersRecordsWithoutIdentity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Review:
                attributes: { id: integer, body: string }
                relationships:
                  product: { to: Product, onMissing: null }
                  notes: { to: Note, many: true, inverse: review }
                  tags: { to: Tag, many: true, ordered: true }
              Product:
                attributes: { id: integer }
              Note:
                identity: none
                attributes: { text: string }
                relationships:
                  review: { to: Review }
              Tag:
                identity: slug
                attributes: { slug: string, label: { type: string, default: untitled } }
            """)
        try workspace.write(
            "dumps/reviews.json",
            #"[{"id": 1, "product_id": 7, "notes": [{"text": "a"}, {"text": "b"}], "tag_ids": ["new", "hot"]}, {"id": 2, "product_id": 8, "tags": [{"slug": "hot", "label": "Hot"}]}]"#
        )
        try workspace.write("dumps/products.json", #"[{"id": 8}]"#)
        try workspace.write("dumps/tags.json", #"[{"slug": "new"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == ["mapping.yaml:4:32: warning: Review.body: 'body' matched no key in 2 records"])
        #expect(
            try workspace.rows("SELECT * FROM review ORDER BY id") == ["[id:1 body:NULL product_id:NULL]", "[id:2 body:NULL product_id:8]"])
        #expect(try workspace.rows("SELECT * FROM note") == [#"[_pk:1 text:"a" review_id:1]"#, #"[_pk:2 text:"b" review_id:1]"#])
        #expect(
            try workspace.rows("SELECT * FROM review_tags ORDER BY review_id, position") == [
                #"[review_id:1 tag_id:"new" position:0]"#, #"[review_id:1 tag_id:"hot" position:1]"#,
                #"[review_id:2 tag_id:"hot" position:0]"#,
            ])
        #expect(try workspace.rows("SELECT * FROM tag ORDER BY slug") == [#"[slug:"hot" label:"Hot"]"#, #"[slug:"new" label:"untitled"]"#])
        #expect(report.entities[0].counts.referencesDropped == 1)
        // Product 8 and the three tag links; the dropped product 7 is not counted.
        #expect(report.entities[0].counts.referencesResolved == 4)
    }

    @Test func checksRequiredValuesOnTheMergedRow() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.tasklist)
        try workspace.write("dumps/task_list.json", Self.taskList)
        try workspace.write("dumps/users.json", #"[{"id": 1, "email": "b@x.test"}, {"id": 3}]"#)
        let report = workspace.build(validate: true)
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "dumps/users.json:1:34: error: User 3: 'name' is required, but no occurrence has it  [/1]"
            ])
        #expect(workspace.files == ["dumps", "mapping.yaml"])
    }

    /// Validations write their working files to the temporary directory: two at once in one
    /// process must not share them (they did, by output name and process id, and one failed
    /// with "database is locked").
    @Test func validatesManyAtOnceInOneProcess() throws {
        #expect(
            BuildFiles(output: "seed.sqlite", writesOutput: false).temporaries
                != BuildFiles(output: "seed.sqlite", writesOutput: false).temporaries)
        #expect(
            BuildFiles(output: "seed.sqlite", writesOutput: true).temporaries
                == BuildFiles(output: "seed.sqlite", writesOutput: true).temporaries)
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.tasklist)
        try workspace.write("dumps/task_list.json", Self.taskList)
        try workspace.write("dumps/users.json", Self.users)
        var validation = BuildOptions(mapping: workspace.root + "/mapping.yaml", dumps: workspace.root + "/dumps")
        validation.output = workspace.root + "/seed.sqlite"
        validation.writesOutput = false
        let options = validation
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var all: [BuildReport.Outcome] = []
        }
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let outcome = SeedBuilder.build(options).outcome
            outcomes.lock.withLock { outcomes.all.append(outcome) }
        }
        #expect(outcomes.all == Array(repeating: .success, count: 8))
        #expect(workspace.files == ["dumps", "mapping.yaml"])
    }
}
