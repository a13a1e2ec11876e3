import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Inverse keys and positions, and claims on one child by several parents: which wins, and in
/// what order they are settled.
struct InverseClaimsTests {
    /// docs/mapping.md: a one-to-many with `inverse` sets the children's foreign key; a child claimed
    /// by two parents is an identity conflict, settled by the child's `onConflict`; a child listed
    /// twice by one parent keeps its first position.
    static let inverseMapping = """
        seeder: 1
        entities:
          Project:
            attributes: { id: integer }
            relationships:
              tasks: { to: Task, many: true, inverse: project, ordered: true }
          Task:
            onConflict: POLICY
            attributes: { id: integer, name: string }
            relationships:
              project: { to: Project }
        """

    @Test func setsInverseKeysAndPositionsAndReportsAChildClaimedTwice() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "error"))
        try workspace.write(
            "dumps/projects.json",
            #"""
            [{"id": 1, "tasks": [{"id": 10, "name": "a"}, {"id": 11, "name": "b"}, {"id": 10, "name": "a"}]},
             {"id": 2, "tasks": [{"id": 12, "name": "c"}, 11]},
             {"id": 1, "tasks": [{"id": 13, "name": "d"}, {"id": 11, "name": "b"}]}]
            """#)
        try workspace.write("dumps/tasks.json", #"[{"id": 14, "name": "loose"}, {"id": 11, "name": "b"}]"#)
        var report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/projects.json:2:47: error: Task 11: 'project' conflicts: 2 here, 1 at dumps/projects.json:1:47"
            ])
        #expect(report.outcome == .invalid)

        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "last"))
        report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM task ORDER BY id") == [
                #"[id:10 name:"a" project_id:1 project_position:0]"#,
                #"[id:11 name:"b" project_id:2 project_position:1]"#,
                #"[id:12 name:"c" project_id:2 project_position:0]"#,
                #"[id:13 name:"d" project_id:1 project_position:2]"#,
                #"[id:14 name:"loose" project_id:NULL project_position:NULL]"#,
            ])
        #expect(report.entities[1].counts.conflictsResolved == 1)

        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "first"))
        report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, project_id, project_position FROM task WHERE id = 11") == [
                "[id:11 project_id:1 project_position:1]"
            ])
    }

    /// A one-to-many that names a child by identity must find it; one whose children are all
    /// embedded has nothing to look for.
    @Test func anInverseLinkByIdentityToNoRecordIsAnError() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "error"))
        try workspace.write(
            "dumps/projects.json", #"[{"id": 1, "tasks": [{"id": 11, "name": "b"}, 10]}, {"id": 2, "tasks": [{"id": 12, "name": "c"}]}]"#)
        #expect(
            workspace.build().messages(workspace) == [
                "dumps/projects.json:1:47: error: Project 1 references Task 10 (tasks), which no record provides  [/0/tasks/1]"
            ])
        try workspace.write("dumps/tasks.json", #"[{"id": 10, "name": "a"}]"#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, project_id, project_position FROM task ORDER BY id") == [
                "[id:10 project_id:1 project_position:1]", "[id:11 project_id:1 project_position:0]",
                "[id:12 project_id:2 project_position:0]",
            ])
    }

    @Test func anInverseChildThatNamesItsOwnParentKeepsIt() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "error"))
        try workspace.write(
            "dumps/projects.json", #"[{"id": 1, "tasks": [{"id": 10, "project": 1}, {"id": 11, "project_id": 2}]}, {"id": 2}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/projects.json:1:48: error: Task 11: 'project' conflicts: 1 here, 2 at dumps/projects.json:1:73",
                "mapping.yaml:9:32: warning: Task.name: 'name' matched no key in 2 records",
            ])
    }

    /// A new child embedded in its parent takes the parent as it is inserted, with no link row
    /// (bench/README.md). Claims from elsewhere still meet it in source order: a link by id from
    /// earlier in the dump, located at that link, and the child's own later record, which merges.
    @Test func claimsTakenAtInsertMeetOtherClaimsInSourceOrder() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "dumps/projects.json",
            #"""
            [{"id": 2, "tasks": [11]},
             {"id": 1, "tasks": [{"id": 10, "name": "a"}, {"id": 11, "name": "b"}]},
             {"id": 3}]
            """#)
        try workspace.write("dumps/tasks.json", #"[{"id": 10, "project_id": 3}]"#)
        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "error"))
        #expect(
            workspace.build().messages(workspace) == [
                "dumps/tasks.json:1:2: error: Task 10: 'project' conflicts: 3 here, 1 at dumps/projects.json:2:22",
                "dumps/projects.json:2:47: error: Task 11: 'project' conflicts: 1 here, 2 at dumps/projects.json:1:22",
            ])

        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "first"))
        var report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, project_id, project_position FROM task ORDER BY id") == [
                "[id:10 project_id:1 project_position:0]", "[id:11 project_id:2 project_position:0]",
            ])
        #expect(report.entities[1].counts.conflictsResolved == 2)

        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "last"))
        report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, project_id, project_position FROM task ORDER BY id") == [
                "[id:10 project_id:3 project_position:0]", "[id:11 project_id:1 project_position:1]",
            ])
        #expect(report.entities[1].counts.conflictsResolved == 2)
    }

    /// The same with an unordered one-to-many and a composite identity: a merged parent listing
    /// its child again claims nothing new, and another parent's link by id is still a conflict.
    @Test func claimsTakenAtInsertWithoutOrderOrASingleKey() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Board:
                attributes: { id: integer }
                relationships:
                  cards: { to: Card, many: true, inverse: board }
              Card:
                identity: [suit, rank]
                attributes: { suit: string, rank: integer, face: string }
                relationships:
                  board: { to: Board }
            """)
        try workspace.write(
            "dumps/boards.json",
            #"""
            [{"id": 1, "cards": [{"suit": "s", "rank": 1, "face": "A"}, {"suit": "h", "rank": 2, "face": "2"}]},
             {"id": 1, "cards": [{"suit": "s", "rank": 1, "face": "A"}]},
             {"id": 2, "cards": [["h", 2]]}]
            """#)
        #expect(
            workspace.build().messages(workspace) == [
                "dumps/boards.json:3:22: error: Card (h, 2): 'board' conflicts: 2 here, 1 at dumps/boards.json:1:61"
            ])
        try workspace.write(
            "dumps/boards.json",
            #"""
            [{"id": 1, "cards": [{"suit": "s", "rank": 1, "face": "A"}, {"suit": "h", "rank": 2, "face": "2"}]},
             {"id": 1, "cards": [{"suit": "s", "rank": 1, "face": "A"}]},
             {"id": 2, "cards": [["c", 3]]}]
            """#)
        try workspace.write("dumps/cards.json", #"[{"suit": "c", "rank": 3}]"#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT suit, rank, board_id FROM card ORDER BY suit, rank") == [
                #"[suit:"c" rank:3 board_id:2]"#, #"[suit:"h" rank:2 board_id:1]"#, #"[suit:"s" rank:1 board_id:1]"#,
            ])
    }

    /// Two to-manys with the same inverse: a child the first gives a parent is taken, so the
    /// second claiming it for another parent is a conflict, located at both claims.
    @Test func twoToManysWithOneInverseShareTheirChildren() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.projectsWithTwoTaskLists("tasks", "archived"))
        try workspace.write("dumps/projects.json", #"[{"id": 1, "tasks": [10, 11]}, {"id": 2, "archived": [11, 12]}]"#)
        try workspace.write("dumps/tasks.json", #"[{"id": 10, "name": "a"}, {"id": 11, "name": "b"}, {"id": 12, "name": "c"}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/projects.json:1:55: error: Task 11: 'project' conflicts: 2 here, 1 at dumps/projects.json:1:26"
            ])
    }

    /// The claims of to-manys that share an inverse are settled in dump order, whichever of them
    /// the mapping lists first: `last` keeps the later claim, `first` the earlier, and a conflict
    /// is reported at the later one.
    @Test(arguments: [("last", 1), ("first", 2), ("error", nil)])
    func sharedInverseClaimsAreSettledInDumpOrder(policy: String, owner: Int?) throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.projectsWithTwoTaskLists("archived", "tasks", onConflict: policy))
        // Project 2's claim (through `tasks`) comes first in the dump, project 1's (through
        // `archived`, the first relationship) last.
        try workspace.write(
            "dumps/projects.json", #"[{"id": 2, "tasks": [{"id": 11, "name": "b"}]}, {"id": 1, "archived": [{"id": 11, "name": "b"}]}]"#)
        let report = workspace.build()
        guard let owner else {
            #expect(
                report.messages(workspace) == [
                    "dumps/projects.json:1:72: error: Task 11: 'project' conflicts: 1 here, 2 at dumps/projects.json:1:22"
                ])
            return
        }
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT id, project_id FROM task") == ["[id:11 project_id:\(owner)]"])
    }

    /// A Project with two to-manys of Tasks, `first` and `second` in that order, that both set
    /// a Task's `project`.
    private static func projectsWithTwoTaskLists(_ first: String, _ second: String, onConflict: String = "error") -> String {
        """
        seeder: 1
        entities:
          Project:
            attributes: { id: integer }
            relationships:
              \(first): { to: Task, many: true, inverse: project }
              \(second): { to: Task, many: true, inverse: project }
          Task:
            onConflict: \(onConflict)
            attributes: { id: integer, name: string }
            relationships:
              project: { to: Project }
        """
    }
}
