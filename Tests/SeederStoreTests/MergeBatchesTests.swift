import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Occurrences that wait and go in batches: their merges and messages come out in source order,
/// as they would one by one, whatever the batch, spill file or chunk size.
struct MergeBatchesTests {
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
        // limit), both with a chunk per event, and a chunk per batch cut by the fields and links
        // limit.
        let variants: [(output: String, throughFile: Bool, chunk: DumpReader.ChunkLimits)] = [
            ("memory.sqlite", false, .init()), ("file.sqlite", true, .init()),
            ("records.sqlite", false, .init(events: 256, records: 1)), ("both.sqlite", true, .init(events: 1, records: 1024)),
            ("values.sqlite", false, .init(events: 256, records: 1024, values: 3)),
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
        #expect(reports.map(\.outcome) == Array(repeating: .success, count: variants.count))
        #expect(reports.map { $0.messages(workspace) } == Array(repeating: [], count: variants.count))
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
        #expect(
            workspace.files == ["both.sqlite", "dumps", "file.sqlite", "mapping.yaml", "memory.sqlite", "records.sqlite", "values.sqlite"])
    }
}
