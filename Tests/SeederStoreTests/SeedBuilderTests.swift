import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

extension Workspace {
    /// A workspace with an empty `dumps` directory, for a mapping at `mapping.yaml`.
    static func withDumps() throws -> Workspace { try Workspace(directories: ["dumps"]) }

    func build(output: String = "seed.sqlite", validate: Bool = false, configure: (inout BuildOptions) -> Void = { _ in }) -> BuildReport {
        var options = BuildOptions(mapping: root + "/mapping.yaml", dumps: root + "/dumps")
        options.output = root + "/" + output
        options.writesOutput = !validate
        configure(&options)
        return SeedBuilder.build(options)
    }

    func rows(_ sql: String, in file: String = "seed.sqlite") throws -> [String] {
        let queue = try DatabaseQueue(path: root + "/" + file)
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map(\.description) }
    }
}

extension BuildReport {
    /// Diagnostics as printed, with the scratch directory's path cut out.
    func messages(_ workspace: Workspace) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: workspace.root + "/", with: "") }
    }
}

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

    /// Occurrences of an entity with one integer identity and no relationship wait and go in
    /// 32 at a time (`RowStore.PendingRows`): merges into a row of an earlier batch, of their own
    /// batch and of the last, partial one, and the messages of merges and of mapping, come out as
    /// they would one by one.
    @Test func mergesAndReportsInSourceOrderAcrossBatches() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Pod:
                attributes:
                  id: integer
                  name: string
                  stars: integer
            sources:
              - path: pods.json
                entity: Pod
            """)
        var records = (1...90).map { #"{"id": \#($0), "name": "p\#($0)", "stars": \#($0)}"# }
        records.insert(#"{"id": 5, "stars": 5}"#, at: 10)
        records.insert(#"{"id": 3, "name": "other"}"#, at: 40)
        records.append(#"{"id": 90, "stars": 91}"#)
        func write(_ records: [String]) throws {
            try workspace.write("dumps/pods.json", "[\n" + records.joined(separator: ",\n") + "\n]\n")
        }
        try write(records)
        let report = workspace.build { $0.onConflict = .last }
        #expect(report.messages(workspace) == [])
        #expect(report.entities[0].counts.recordsRead == 93)
        #expect(report.entities[0].counts.rowsWritten == 90)
        #expect(report.entities[0].counts.occurrencesMerged == 3)
        #expect(report.entities[0].counts.conflictsResolved == 2)
        #expect(try workspace.rows("SELECT COUNT(*), SUM(stars) FROM pod") == ["[COUNT(*):90 SUM(stars):4096]"])
        #expect(
            try workspace.rows("SELECT * FROM pod WHERE id IN (3, 5, 89, 90) ORDER BY id") == [
                #"[id:3 name:"other" stars:3]"#, #"[id:5 name:"p5" stars:5]"#, #"[id:89 name:"p89" stars:89]"#,
                #"[id:90 name:"p90" stars:91]"#,
            ])

        // With the default policy, each conflict is an error where it stands, and a mapping
        // error right after a merge that waits comes after its message.
        records.insert(#"{"id": 4, "name": "x"}"#, at: 44)
        records.insert(#"{"id": 70, "stars": "many"}"#, at: 45)
        try write(records)
        #expect(
            workspace.build().messages(workspace) == [
                #"dumps/pods.json:42:19: error: Pod 3: 'name' conflicts: "other" here, "p3" at dumps/pods.json:4:19"#,
                #"dumps/pods.json:46:19: error: Pod 4: 'name' conflicts: "x" here, "p4" at dumps/pods.json:5:19"#,
                #"dumps/pods.json:47:21: error: Pod 70: 'stars' is "many", expected integer  [/45/stars]"#,
                "dumps/pods.json:96:21: error: Pod 90: 'stars' conflicts: 91 here, 90 at dumps/pods.json:95:36",
            ])
    }

    /// A merge that waits (an embedded user, `RowStore.PendingRows`) says so before a later
    /// record of another entity, which does not wait, says anything.
    @Test func reportsWaitingMergesBeforeLaterOnes() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: string }
              Project:
                attributes: { id: integer, name: string }
                relationships:
                  user: { to: User }
            sources:
              - path: projects.json
                entity: Project
            """)
        try workspace.write(
            "dumps/projects.json",
            """
            [
            {"id": 1, "name": "a", "user": {"id": 7, "name": "Ann"}},
            {"id": 2, "name": "b", "user": {"id": 7, "name": "Bob"}},
            {"id": 1, "name": "c", "user": {"id": 8, "name": "Cy"}}
            ]
            """)
        #expect(
            workspace.build().messages(workspace) == [
                #"dumps/projects.json:3:50: error: User 7: 'name' conflicts: "Bob" here, "Ann" at dumps/projects.json:2:50"#,
                #"dumps/projects.json:4:19: error: Project 1: 'name' conflicts: "c" here, "a" at dumps/projects.json:2:19"#,
                "dumps/projects.json:4:1: error: Project 1: 'user' conflicts: 8 here, 7 at dumps/projects.json:2:1",
            ])
    }

    /// An occurrence that repeats its row is counted as merged without reading the row back
    /// (`RowStore.RowStates`), but only while the row is what it repeats: under `last`, a
    /// conflict that changed the row in between makes the next repeat a conflict again.
    @Test func skipsOnlyMergesThatChangeNothing() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: string, email: string }
              Project:
                attributes: { id: integer }
                relationships:
                  user: { to: User }
            sources:
              - path: projects.json
                entity: Project
            """)
        let users = [
            #""name": "Ann""#, #""name": "Ann""#, #""name": "Ann", "email": "a@x.test""#, #""email": "a@x.test""#,
            #""name": "Bob""#, #""name": "Ann""#, #""name": "Ann""#,
        ]
        try workspace.write(
            "dumps/projects.json",
            "[\n"
                + users.enumerated().map { #"{"id": \#($0.offset + 1), "user": {"id": 7, \#($0.element)}}"# }
                .joined(separator: ",\n") + "\n]\n")
        let report = workspace.build { $0.onConflict = .last }
        #expect(report.messages(workspace) == [])
        #expect(report.entities[0].counts.occurrencesMerged == 6)
        #expect(report.entities[0].counts.conflictsResolved == 2)
        #expect(try workspace.rows("SELECT * FROM user") == [#"[id:7 name:"Ann" email:"a@x.test"]"#])

        #expect(
            workspace.build().messages(workspace) == [
                #"dumps/projects.json:6:37: error: User 7: 'name' conflicts: "Bob" here, "Ann" at dumps/projects.json:2:37"#
            ])
    }

    /// Children with an integer identity and a parent go in by one insert per run of them
    /// (`RowStore.RowRun`): forty tasks of a project as 32 and 8, a run holding a task seen
    /// before (it merges, its claim is a conflict) and the same task twice (the run is sent
    /// before the second waits). Messages, counts and rows are what one insert or merge per
    /// occurrence gave before runs existed (checked against that build, 4f09ceb).
    @Test func childrenInRunsMergeAndReportAsOneByOne() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: string }
              Project:
                attributes: { id: integer, name: string }
                relationships:
                  tasks: { to: Task, many: true, inverse: project, ordered: true }
              Task:
                attributes: { id: integer, name: string }
                relationships:
                  project: { to: Project }
                  assignedUser: { to: User, from: assigned_user_id, onMissing: null }
            sources:
              - path: users.json
                entity: User
              - path: projects.json
                entity: Project
            """)
        try workspace.write("dumps/users.json", #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#)
        let big = (1...40).map { #"{"id": \#($0), "name": "t\#($0)", "assigned_user_id": \#(1 + $0 % 2)}"# }
        try workspace.write(
            "dumps/projects.json",
            """
            [
            {"id": 1, "name": "big", "tasks": [
              \(big.joined(separator: ",\n  "))]},
            {"id": 2, "name": "mixed", "tasks": [
              {"id": 41, "name": "t41"},
              {"id": 5, "name": "t5", "assigned_user_id": 2},
              {"id": 42, "name": "t42", "assigned_user_id": 9},
              {"id": 42, "name": "other"},
              {"id": 43, "name": "t43"}]},
            {"id": 3, "name": "again", "tasks": [{"id": 44, "name": "t44"}, {"id": 41, "name": "t41"}]}
            ]

            """)
        #expect(
            workspace.build().messages(workspace) == [
                #"dumps/projects.json:47:22: error: Task 42: 'name' conflicts: "other" here, "t42" at dumps/projects.json:46:22"#,
                "dumps/projects.json:45:3: error: Task 5: 'project' conflicts: 2 here, 1 at dumps/projects.json:7:3",
                "dumps/projects.json:49:65: error: Task 41: 'project' conflicts: 3 here, 2 at dumps/projects.json:44:3",
            ])

        let report = workspace.build { $0.onConflict = .last }
        #expect(report.messages(workspace) == [])
        let tasks = report.entities[2].counts
        let counts: [Int] = [
            tasks.recordsRead, tasks.rowsWritten, tasks.occurrencesMerged, tasks.conflictsResolved, tasks.referencesDropped,
        ]
        #expect(counts == [47, 44, 3, 3, 1])
        #expect(
            try workspace.rows("SELECT COUNT(*), SUM(project_id), SUM(assigned_user_id) FROM task") == [
                "[COUNT(*):44 SUM(project_id):51 SUM(assigned_user_id):60]"
            ])
        #expect(
            try workspace.rows("SELECT * FROM task WHERE id IN (1, 5, 32, 33, 40, 41, 42, 43, 44) ORDER BY id") == [
                #"[id:1 name:"t1" project_id:1 assigned_user_id:2 project_position:0]"#,
                #"[id:5 name:"t5" project_id:2 assigned_user_id:2 project_position:1]"#,
                #"[id:32 name:"t32" project_id:1 assigned_user_id:1 project_position:31]"#,
                #"[id:33 name:"t33" project_id:1 assigned_user_id:2 project_position:32]"#,
                #"[id:40 name:"t40" project_id:1 assigned_user_id:1 project_position:39]"#,
                #"[id:41 name:"t41" project_id:3 assigned_user_id:NULL project_position:1]"#,
                #"[id:42 name:"other" project_id:2 assigned_user_id:NULL project_position:2]"#,
                #"[id:43 name:"t43" project_id:2 assigned_user_id:NULL project_position:4]"#,
                #"[id:44 name:"t44" project_id:3 assigned_user_id:NULL project_position:0]"#,
            ])
    }

    /// Side rows wait in logs until something reads their table, in memory and past a limit
    /// in a spill file (`SideRowLog`); the reading thread hands records over in chunks
    /// (`DumpReader.ChunkLimits`). Sent through the file row by row, or handed over a batch or
    /// an event at a time, a build that merges, renumbers a merged owner's children, drops a
    /// dangling reference and applies a default writes the same seed as one with the defaults,
    /// and a failing one (a required value missing, a unique one repeated, a child claimed
    /// twice) reports the same messages; none leaves a file behind.
    @Test func spillFileAndChunkSizeChangeNothing() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes:
                  id: integer
                  name: { type: string, required: true }
                  email: { type: string, unique: true }
                  role: { type: string, default: member }
              Project:
                attributes: { id: integer, name: string }
                relationships:
                  owner: { to: User }
                  tasks: { to: Task, many: true, inverse: project, ordered: true }
              Task:
                attributes: { id: integer, name: string }
                relationships:
                  project: { to: Project }
                  assignedUser: { to: User, from: assigned_user_id, onMissing: null }
            sources:
              - path: users.json
                entity: User
              - path: projects.json
                entity: Project
            """)
        let users = (1...40).map {
            #"{"id": \#($0), "name": "u\#($0)", "email": "u\#($0)@x.test"\#($0 % 3 == 0 ? #", "role": "admin""# : "")}"#
        }
        let tasks = (1...40).map { #"{"id": \#($0), "name": "t\#($0)", "assigned_user_id": \#($0 % 7 == 0 ? 99 : $0)}"# }
        let projects = """
            [{"id": 1, "name": "big", "owner": {"id": 1, "name": "u1"}, "tasks": [\(tasks.joined(separator: ", "))]},
             {"id": 2, "name": "small", "owner": {"id": 2, "name": "u2"}, "tasks": [{"id": 41, "name": "t41"}]},
             {"id": 1, "owner": {"id": 1}, "tasks": [{"id": 42, "name": "t42"}, {"id": 3}]}
            """
        // The defaults (one chunk: fewer than 256 events, fewer than 1,024 records), then every
        // side row through the spill file, a chunk per batch of records (cut by the records
        // limit), and both with a chunk per event.
        let variants: [(output: String, throughFile: Bool, chunk: DumpReader.ChunkLimits)] = [
            ("memory.sqlite", false, .init()), ("file.sqlite", true, .init()),
            ("records.sqlite", false, .init(events: 256, records: 1)), ("both.sqlite", true, .init(events: 1, records: 1024)),
        ]
        func build(_ usersJSON: String, _ lastProject: String = "", throughFile: Bool, chunk: DumpReader.ChunkLimits, output: String) throws
            -> BuildReport
        {
            try workspace.write("dumps/users.json", usersJSON)
            try workspace.write("dumps/projects.json", projects + lastProject + "]")
            return workspace.build(output: output) { options in
                if throughFile { options.sideRowBytesInMemory = 1 }
                options.readChunk = chunk
            }
        }

        let valid = "[" + users.joined(separator: ",\n") + "]"
        let reports = try variants.map { try build(valid, throughFile: $0.throughFile, chunk: $0.chunk, output: $0.output) }
        #expect(reports.map(\.outcome) == [.success, .success, .success, .success])
        #expect(reports.map { $0.messages(workspace) } == [[], [], [], []])
        let seeds = try variants.map { try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/" + $0.output)) }
        #expect(seeds.allSatisfy { $0 == seeds[0] })
        let throughFile = reports[1]
        #expect(
            try workspace.rows("SELECT role, COUNT(*) FROM user GROUP BY role ORDER BY role", in: "file.sqlite") == [
                #"[role:"admin" COUNT(*):13]"#, #"[role:"member" COUNT(*):27]"#,
            ])
        #expect(
            try workspace.rows("SELECT id, project_id, project_position FROM task WHERE id IN (2, 3, 4, 42) ORDER BY id", in: "file.sqlite")
                == [
                    "[id:2 project_id:1 project_position:1]", "[id:3 project_id:1 project_position:2]",
                    "[id:4 project_id:1 project_position:3]", "[id:42 project_id:1 project_position:40]",
                ])
        #expect(throughFile.entities[2].counts.referencesDropped == 5)

        let invalid = "[" + (users + [#"{"id": 41, "email": "u1@x.test"}"#]).joined(separator: ",\n") + "]"
        let expected = [
            "dumps/projects.json:4:34: error: Task 4: 'project' conflicts: 2 here, 1 at dumps/projects.json:1:215",
            "dumps/users.json:41:1: error: User 41: 'name' is required, but no occurrence has it  [/40]",
            #"dumps/users.json:41:21: error: User 41: 'email' "u1@x.test" is not unique; User 1 has it too at dumps/users.json:1:35"#,
        ]
        let claim = ",\n" + #" {"id": 2, "tasks": [{"id": 41}, {"id": 4}]}"#
        for variant in variants {
            let report = try build(invalid, claim, throughFile: variant.throughFile, chunk: variant.chunk, output: "failed.sqlite")
            #expect(report.messages(workspace) == expected)
        }
        #expect(workspace.files == ["both.sqlite", "dumps", "file.sqlite", "mapping.yaml", "memory.sqlite", "records.sqlite"])
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
