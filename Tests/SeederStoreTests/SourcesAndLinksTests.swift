import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Sources and globs, then how records become rows: composite identities, names, unique values,
/// and cycles merged by identity (inverse claims and children: `InverseClaimsTests`,
/// `ChildRowsTests`).
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
}
