import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Sources and globs, then how records become linked rows: composite identities, merges,
/// inverse keys and positions, claims and their order, children with and without identity.
struct SourcesAndLinksTests {
    @Test func matchesGlobsSegmentBySegment() {
        #expect(InputPlanner.glob("specs/page-*.json", matches: "specs/page-12.json"))
        #expect(!InputPlanner.glob("specs/page-*.json", matches: "specs/old/page-1.json"))
        #expect(InputPlanner.glob("**/page-?.json", matches: "a/b/page-1.json"))
        #expect(InputPlanner.glob("**/page-?.json", matches: "page-2.json"))
        #expect(InputPlanner.glob("[ab]*.jsonl", matches: "b-events.jsonl"))
        #expect(!InputPlanner.glob("[!ab]*.jsonl", matches: "b-events.jsonl"))
        #expect(InputPlanner.glob("page-[0-9].json", matches: "page-7.json"))
        #expect(!InputPlanner.glob("*.json", matches: "users.jsonl"))
    }

    @Test func feedsEntitiesFromFilesNamedAfterThemWhenThereAreNoSources() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer }
              ArticleComment:
                attributes: { id: integer, bodyText: string }
              Person:
                table: people
                attributes: { id: integer }
            """)
        try workspace.write("dumps/users.json", #"[{"id": 1}]"#)
        try workspace.write("dumps/article_comments.ndjson", "{\"id\": 1, \"body_text\": \"a\"}\n{\"id\": 2, \"body_text\": \"b\"}\n")
        try workspace.write("dumps/nested/person.json", #"{"id": 7}"#)
        try workspace.write("dumps/notes.json", "[]")
        let report = workspace.build()
        #expect(report.messages(workspace) == ["dumps/notes.json: warning: no source reads this dump file"])
        #expect(
            report.inputs.map { $0.replacingOccurrences(of: workspace.root + "/", with: "") }
                == ["dumps/article_comments.ndjson", "dumps/nested/person.json", "dumps/users.json"])
        #expect(try workspace.rows("SELECT * FROM article_comment") == [#"[id:1 body_text:"a"]"#, #"[id:2 body_text:"b"]"#])
        #expect(try workspace.rows("SELECT * FROM people") == ["[id:7]"])
    }

    @Test func reportsSourcesThatFindNothingAndLinksThatLeave() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer }
            sources:
              - path: pages/*.json
                entity: User
              - path: linked.json
                entity: User
              - path: wrapped.json
                entity: User
                keyPath: data.results
            """)
        try workspace.write("outside.json", "[]")
        try FileManager.default.createSymbolicLink(
            atPath: workspace.root + "/dumps/linked.json", withDestinationPath: workspace.root + "/outside.json")
        try workspace.write("dumps/wrapped.json", #"{"data": {"total": 2}, "meta": [{"data": 1}]}"#)
        let report = workspace.build(validate: true)
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "mapping.yaml:6:5: error: source path 'pages/*.json' matches no file in dumps",
                "dumps/linked.json: error: this dump file is a link that leaves the dumps directory",
                "dumps/wrapped.json:1:10: error: keyPath 'data.results' reaches nothing in this file: no 'results' at /data",
            ])
    }

    @Test func reportsValuesThatAreNotRecords() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", "seeder: 1\nentities:\n  User:\n    attributes: { id: integer }\n")
        try workspace.write("dumps/users.json", #"[{"id": 1}, null, 2, [3]]"#)
        let report = workspace.build(validate: true)
        // A bare id is a record (`SourceRulesTests`); an array is not.
        #expect(
            report.messages(workspace) == [
                "dumps/users.json:1:22: error: expected a record (an object) for User, found an array  [/3]"
            ])
        #expect(report.entities[0].counts.nullsSkipped == 1)
    }

    @Test func storesReferencesToCompositeIdentities() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Card:
                identity: [suit, value]
                attributes: { suit: string, value: integer, label: string }
              Hand:
                attributes: { id: integer }
                relationships:
                  best: { to: Card }
                  cards: { to: Card, many: true, ordered: true }
            """)
        try workspace.write(
            "dumps/cards.json", #"[{"suit": "hearts", "value": 10, "label": "10♥"}, {"suit": "spades", "value": 1, "label": "A♠"}]"#)
        try workspace.write(
            "dumps/hands.json",
            #"[{"id": 1, "best": ["spades", 1], "cards": [{"suit": "hearts", "value": "10"}, ["spades", 1]]}, {"id": 2, "best": {"suit": "clubs", "value": 2}}]"#
        )
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                #"dumps/hands.json:1:115: error: Hand 2 references Card (clubs, 2) (best), which no record provides  [/1/best]"#
            ])
        try workspace.write(
            "dumps/hands.json", #"[{"id": 1, "best": ["spades", 1], "cards": [{"suit": "hearts", "value": "10"}, ["spades", 1]]}]"#)
        #expect(workspace.build().outcome == .success)
        #expect(try workspace.rows("SELECT * FROM hand") == [#"[id:1 best_suit:"spades" best_value:1]"#])
        #expect(
            try workspace.rows("SELECT * FROM hand_cards ORDER BY position") == [
                #"[hand_id:1 card_suit:"hearts" card_value:10 position:0]"#, #"[hand_id:1 card_suit:"spades" card_value:1 position:1]"#,
            ])
    }

    @Test func keepsNamesAsWrittenAndLetsTheLastOccurrenceWin() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            naming: { database: as_is }
            nulls: absent
            entities:
              ArticleComment:
                attributes: { id: integer, bodyText: string, score: { type: integer, unique: true } }
                relationships:
                  author: { to: Author }
              Author:
                attributes: { id: integer, name: string }
            """)
        try workspace.write(
            "dumps/article_comments.json",
            #"[{"id": 1, "body_text": "first", "score": 1, "author_id": 5}, {"id": 1, "body_text": "second", "score": null}]"#)
        try workspace.write("dumps/authors.json", #"[{"id": 5, "name": "Ann"}]"#)
        #expect(
            workspace.build().messages(workspace) == [
                #"dumps/article_comments.json:1:86: error: ArticleComment 1: 'bodyText' conflicts: "second" here, "first" at dumps/article_comments.json:1:25"#
            ])
        let report = workspace.build { $0.onConflict = .last }
        #expect(report.messages(workspace) == [])
        #expect(report.entities[0].counts.conflictsResolved == 1)
        #expect(try workspace.rows(#"SELECT * FROM "ArticleComment""#) == [#"[id:1 bodyText:"second" score:1 authorId:5]"#])
    }

    @Test func findsValuesThatAreNotUnique() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml", "seeder: 1\nentities:\n  User:\n    attributes: { id: integer, email: { type: string, unique: true } }\n")
        try workspace.write(
            "dumps/users.json", #"[{"id": 1, "email": "a@x.test"}, {"id": 2, "email": "b@x.test"}, {"id": 3, "email": "a@x.test"}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                #"dumps/users.json:1:85: error: User 3: 'email' "a@x.test" is not unique; User 1 has it too at dumps/users.json:1:21"#
            ])
    }

    @Test func mergesCyclesByIdentityAndChecksRequiredToOnes() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                attributes: { id: integer, name: string }
                relationships:
                  projects: { to: Project, many: true, inverse: owner }
              Project:
                attributes: { id: integer, title: string }
                relationships:
                  owner: { to: User, required: true }
            """)
        try workspace.write(
            "dumps/users.json", #"[{"id": 1, "name": "Ann", "projects": [{"id": 10, "title": "A", "owner": {"id": 1, "name": "Ann"}}]}]"#)
        try workspace.write("dumps/projects.json", #"[{"id": 11, "title": "Orphan"}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/projects.json:1:2: error: Project 11: 'owner' is required, but no occurrence has it  [/0]"
            ])
        try workspace.write("dumps/projects.json", #"[{"id": 11, "title": "B", "owner_id": 1}]"#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM user") == [#"[id:1 name:"Ann"]"#])
        #expect(
            try workspace.rows("SELECT * FROM project ORDER BY id") == [#"[id:10 title:"A" owner_id:1]"#, #"[id:11 title:"B" owner_id:1]"#])
    }

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

    /// Children with `identity: none` take their parent as they are inserted; one that names
    /// another parent itself still conflicts, and one with ordered siblings keeps its position.
    @Test func childrenWithoutIdentityTakeTheirParentOrReportTheirOwn() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Review:
                attributes: { id: integer }
                relationships:
                  notes: { to: Note, many: true, inverse: review, ordered: true }
              Note:
                identity: none
                attributes: { text: string }
                relationships:
                  review: { to: Review }
            """)
        try workspace.write(
            "dumps/reviews.json",
            #"[{"id": 1, "notes": [{"text": "a"}, null, {"text": "b", "review_id": 1}, {"text": "c"}]}, {"id": 2, "notes": [{"text": "d", "review": 1}]}]"#
        )
        var report = workspace.build()
        #expect(
            report.messages(workspace) == [
                #"dumps/reviews.json:1:111: error: Note #4: 'review' conflicts: 2 here, 1 at dumps/reviews.json:1:135"#
            ])
        try workspace.write(
            "dumps/reviews.json",
            #"[{"id": 1, "notes": [{"text": "a"}, null, {"text": "b", "review_id": 1}, {"text": "c"}]}, {"id": 2, "notes": [{"text": "d"}]}]"#
        )
        report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM note") == [
                #"[_pk:1 text:"a" review_id:1 review_position:0]"#, #"[_pk:2 text:"b" review_id:1 review_position:1]"#,
                #"[_pk:3 text:"c" review_id:1 review_position:2]"#, #"[_pk:4 text:"d" review_id:2 review_position:0]"#,
            ])
    }

    /// docs/mapping.md, Merging: the to-many links of an owner's occurrences are united in
    /// first-seen order, and an ordered one's positions follow that order, for children with an
    /// identity, children without one, and a join table alike.
    @Test func orderedLinksOfMergedOwnersTakeTheirUnitedOrder() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Review:
                attributes: { id: integer }
                relationships:
                  tasks: { to: Task, many: true, inverse: review, ordered: true }
                  notes: { to: Note, many: true, inverse: review, ordered: true }
                  tags: { to: Tag, many: true, ordered: true }
              Task:
                attributes: { id: integer, name: string }
                relationships:
                  review: { to: Review }
              Note:
                identity: none
                attributes: { text: string }
                relationships:
                  review: { to: Review }
              Tag:
                attributes: { id: string, label: string }
            """)
        try workspace.write(
            "dumps/reviews.json",
            #"""
            [{"id": 1, "tasks": [{"id": 10, "name": "t10"}, {"id": 11, "name": "t11"}], "notes": [{"text": "a"}, {"text": "b"}], "tags": [{"id": "new", "label": "NEW"}, {"id": "hot", "label": "HOT"}]},
             {"id": 2, "tasks": [{"id": 20, "name": "t20"}], "notes": [{"text": "x"}], "tags": [{"id": "hot", "label": "HOT"}]},
             {"id": 1, "tasks": [{"id": 12, "name": "t12"}, {"id": 10, "name": "t10"}], "notes": [{"text": "c"}], "tags": [{"id": "cool", "label": "COOL"}, {"id": "new", "label": "NEW"}]},
             {"id": 1, "tasks": [], "notes": [{"text": "d"}, {"text": "e"}]}]
            """#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM task ORDER BY id") == [
                #"[id:10 name:"t10" review_id:1 review_position:0]"#, #"[id:11 name:"t11" review_id:1 review_position:1]"#,
                #"[id:12 name:"t12" review_id:1 review_position:2]"#, #"[id:20 name:"t20" review_id:2 review_position:0]"#,
            ])
        #expect(
            try workspace.rows("SELECT text, review_id, review_position FROM note ORDER BY _pk") == [
                #"[text:"a" review_id:1 review_position:0]"#, #"[text:"b" review_id:1 review_position:1]"#,
                #"[text:"x" review_id:2 review_position:0]"#, #"[text:"c" review_id:1 review_position:2]"#,
                #"[text:"d" review_id:1 review_position:3]"#, #"[text:"e" review_id:1 review_position:4]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM review_tags ORDER BY review_id, position") == [
                #"[review_id:1 tag_id:"new" position:0]"#, #"[review_id:1 tag_id:"hot" position:1]"#,
                #"[review_id:1 tag_id:"cool" position:2]"#, #"[review_id:2 tag_id:"hot" position:0]"#,
            ])
    }

    /// Children with `identity: none` inserted with their parent keep no bookkeeping unless a
    /// later stage may name them: an absent attribute with a default or `required`, or a to-one
    /// of their own, still gets its default, its error and its reference check.
    static let notesMapping = """
        seeder: 1
        entities:
          User:
            attributes: { id: integer }
          Review:
            attributes: { id: integer }
            relationships:
              notes: { to: Note, many: true, inverse: review, ordered: true }
          Note:
            identity: none
            attributes:
              text: { type: string, required: true }
              lang: { type: string, default: en }
            relationships:
              review: { to: Review, required: true }
              author: { to: User }
        """

    /// `notesMapping`'s warnings when no note has an author: nothing feeds User.
    static func notesWarnings(_ notes: Int) -> [String] {
        [
            "mapping.yaml:3:3: warning: User got no record from any source",
            "mapping.yaml:16:7: warning: Note.author: 'author' or 'author_id' matched no key in \(notes) records",
        ]
    }

    @Test func childrenWithoutBookkeepingAreStillFinishedAndChecked() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.notesMapping)
        try workspace.write(
            "dumps/reviews.json",
            #"[{"id": 1, "notes": [{"text": "a"}, {"lang": "fr"}, {"text": "c", "author": 9}, {"text": "d", "lang": "de"}]}]"#)
        let report = workspace.build()
        // No source feeds User: the one reference to it is dangling.
        #expect(
            report.messages(workspace) == [
                "dumps/reviews.json:1:77: error: Note #3 references User 9 (author), which no record provides  [/0/notes/2/author]",
                "dumps/reviews.json:1:37: error: Note #2: 'text' is required, but no occurrence has it  [/0/notes/1]",
            ])
        // A validation checks the reference without the seed's index, to the same messages.
        #expect(workspace.build(validate: true).messages(workspace) == report.messages(workspace))
        try workspace.write("dumps/reviews.json", #"[{"id": 1, "notes": [{"text": "a"}, {"text": "b", "lang": "fr"}]}]"#)
        #expect(workspace.build().messages(workspace) == Self.notesWarnings(2))
        #expect(
            try workspace.rows("SELECT * FROM note") == [
                #"[_pk:1 text:"a" lang:"en" review_id:1 author_id:NULL review_position:0]"#,
                #"[_pk:2 text:"b" lang:"fr" review_id:1 author_id:NULL review_position:1]"#,
            ])
    }

    /// Rows without a side row wait and go in many at a time; a row with one (here every fifth,
    /// lacking its defaulted `lang`) sends them first, so `_pk` still numbers notes in source
    /// order across two reviews and more notes than one batch holds.
    @Test func childrenThatGoInTogetherKeepSourceOrder() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.notesMapping)
        func notes(_ range: ClosedRange<Int>) -> String {
            range.map { $0 % 5 == 0 ? #"{"text": "n\#($0)"}"# : #"{"text": "n\#($0)", "lang": "de"}"# }.joined(separator: ", ")
        }
        try workspace.write("dumps/reviews.json", #"[{"id": 1, "notes": [\#(notes(1...45))]}, {"id": 2, "notes": [\#(notes(46...80))]}]"#)
        #expect(workspace.build().messages(workspace) == Self.notesWarnings(80))
        let rows = try workspace.rows("SELECT _pk, text, lang, review_id, review_position FROM note ORDER BY _pk")
        #expect(rows.count == 80)
        #expect(
            rows
                == (1...80).map { n in
                    #"[_pk:\#(n) text:"n\#(n)" lang:"\#(n % 5 == 0 ? "en" : "de")" review_id:\#(n <= 45 ? 1 : 2) review_position:\#(n <= 45 ? n - 1 : n - 46)]"#
                })
    }

    /// Which rows keep a side row: the encoder drops it only for a final child that nothing
    /// after the load can name.
    @Test func onlyRowsNothingCanNameGoWithoutASideRow() throws {
        let diagnostics = DiagnosticSink()
        let mapping = try #require(MappingLoader().load(yaml: Self.notesMapping, file: "mapping.yaml", diagnostics: diagnostics))
        let document = try JSONDocument(
            parsing: #"""
                {"id": 1, "notes": [{"text": "a"}, {"lang": "fr"}, {"text": "c", "author": 9}, {"text": "d", "review": 1}, {"text": "e", "lang": "en"}]}
                """#)
        let batch = Mapper(mapping: mapping).records(from: document.root, entity: 1, file: "reviews.json", diagnostics: diagnostics)
        let encoder = RowEncoder(layouts: RowLayout.all(for: mapping), fileIndexes: ["reviews.json": 0])
        // The review; a note lacking its defaulted `lang`; one lacking its required `text`; one
        // with an author; one naming its review itself; and one that nothing can name.
        var rows: [RowEncoder.Encoded] = []
        batch.withUnsafeBufferPointer { encoder.encode(batch: $0, file: 0, appendingTo: &rows) }
        #expect(rows.map(\.hasSide) == [true, true, true, true, true, false])
    }

    /// A row keeps its record's file and offset, not its JSON Pointer: a message finds the
    /// pointer by reading the file again as the build read it (a wrapped page, JSON Lines, a
    /// record embedded two levels down).
    @Test func messagesAboutRowsFindTheirRecordsPointers() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Hero:
                attributes: { id: integer, name: { type: string, required: true } }
                relationships:
                  teams: { to: Team, many: true }
              Team:
                attributes: { id: integer, name: { type: string, required: true } }
                relationships:
                  members: { to: Member, many: true, inverse: team }
              Member:
                identity: none
                attributes: { role: { type: string, required: true } }
                relationships:
                  team: { to: Team }
            sources:
              - { path: "pages/*.json", entity: Hero, keyPath: data.results }
              - { path: heroes.ndjson, entity: Hero }
            """)
        try workspace.write(
            "dumps/pages/1.json",
            #"""
            {"data": {"results": [{"id": 1, "name": "a"},
                                  {"id": 2, "teams": [{"id": 5, "name": "t", "members": [{"role": "x"}, {"note": "?"}]}]}]}}
            """#)
        try workspace.write("dumps/heroes.ndjson", "{\"id\": 3, \"name\": \"c\"}\n\n{\"id\": 4, \"teams\": [{\"id\": 6}]}\n")
        #expect(
            workspace.build().messages(workspace) == [
                "dumps/heroes.ndjson:3:21: error: Hero 4 references Team 6 (teams), which no record provides  [/teams/0]",
                "dumps/pages/1.json:2:23: error: Hero 2: 'name' is required, but no occurrence has it  [/data/results/1]",
                "dumps/heroes.ndjson:3:1: error: Hero 4: 'name' is required, but no occurrence has it  [/]",
                "dumps/pages/1.json:2:93: error: Member #2: 'role' is required, but no occurrence has it  [/data/results/1/teams/0/members/1]",
                "mapping.yaml:11:3: warning: 1 key is never mapped: Member.note",
            ])
    }

    /// A first occurrence may lack what a link or a later occurrence supplies: rows load into
    /// tables without `NOT NULL`, and the seed's tables have it once every row is final.
    @Test func requiredValuesThatArriveLateMeetTheSchemasNotNull() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Project:
                attributes: { id: integer }
                relationships:
                  tasks: { to: Task, many: true, inverse: project }
              Task:
                attributes: { id: integer, name: { type: string, required: true } }
                relationships:
                  project: { to: Project, required: true }
            """)
        try workspace.write("dumps/project.json", #"[{"id": 1, "tasks": [{"id": 10}]}]"#)
        try workspace.write("dumps/task.json", #"[{"id": 10, "name": "a"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM task") == [#"[id:10 name:"a" project_id:1]"#])
        #expect(
            try workspace.rows("SELECT sql FROM sqlite_schema WHERE name = 'task'") == [
                "[sql:\"CREATE TABLE \\\"task\\\" (\\n  \\\"id\\\" INTEGER PRIMARY KEY,\\n  \\\"name\\\" TEXT NOT NULL,\\n  \\\"project_id\\\" INTEGER NOT NULL,\\n  FOREIGN KEY (\\\"project_id\\\") REFERENCES \\\"project\\\"(\\\"id\\\")\\n)\"]"
            ])
        #expect(try workspace.rows("PRAGMA quick_check") == [#"[quick_check:"ok"]"#])
    }

    /// Children that an inverse link will claim are inserted with their parent's key and
    /// position already in place, so settling the links grows no row: the seed is as compact as
    /// a vacuumed copy of it.
    @Test func settlingInverseLinksLeavesTheSeedCompact() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.inverseMapping.replacingOccurrences(of: "POLICY", with: "error"))
        let projects = (1...300).map { project in
            let tasks = (1...10).map { #"{"id": \#(project * 100 + $0), "name": "task \#($0) of project \#(project)"}"# }
            return #"{"id": \#(project), "tasks": [\#(tasks.joined(separator: ", "))]}"#
        }
        try workspace.write("dumps/projects.json", "[" + projects.joined(separator: ",\n") + "]")
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT COUNT(*), MIN(project_position), MAX(project_position) FROM task WHERE project_id = id / 100")
                == ["[COUNT(*):3000 MIN(project_position):0 MAX(project_position):9]"])
        let queue = try DatabaseQueue(path: workspace.root + "/seed.sqlite")
        let pages = try queue.inDatabase { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [workspace.root + "/vacuumed.sqlite"])
            return try Int.fetchOne(db, sql: "PRAGMA page_count")
        }
        #expect(try workspace.rows("PRAGMA page_count", in: "vacuumed.sqlite") == ["[page_count:\(pages ?? 0)]"])
    }
}
