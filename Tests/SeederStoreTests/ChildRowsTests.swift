import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Children with and without identity or bookkeeping: their parents, order, side rows and the
/// messages about them.
struct ChildRowsTests {
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
        try workspace.write("mapping.yaml", InverseClaimsTests.inverseMapping.replacingOccurrences(of: "POLICY", with: "error"))
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
