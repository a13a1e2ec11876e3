import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `@first.K` and `@last.K` in a real build (docs/mapping.md, Key paths): attributes, and
/// relationships to an embedded record, to an id, and to-many.
struct FirstLastSeedTests {
    @Test func feedsAttributesAndRelationships() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Feed:
                attributes:
                  id: integer
                  latest: { type: string, from: "statuses.@last.text" }
                relationships:
                  owner: { to: User, from: "statuses.@first.user" }
                  lastAuthor: { to: User, from: "statuses.@last.author_id" }
                  lastTagged: { to: User, many: true, from: "statuses.@last.tagged" }
              User:
                attributes: { id: integer, name: string }
            sources:
              - { path: users.json, entity: User }
              - { path: feeds.json, entity: Feed }
            """)
        try workspace.write("dumps/users.json", #"[{"id": 8, "name": "Bo"}, {"id": 9, "name": "Cy"}]"#)
        try workspace.write(
            "dumps/feeds.json",
            """
            [{"id": 1, "statuses": [{"text": "hello", "user": {"id": 7, "name": "Ann"}},
                                    {"text": "bye", "author_id": 8, "tagged": [9, 7]}]},
             {"id": 2, "statuses": []}]
            """)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM feed ORDER BY id") == [
                #"[id:1 latest:"bye" owner_id:7 last_author_id:8]"#,
                "[id:2 latest:NULL owner_id:NULL last_author_id:NULL]",
            ])
        #expect(
            try workspace.rows("SELECT * FROM user ORDER BY id") == [#"[id:7 name:"Ann"]"#, #"[id:8 name:"Bo"]"#, #"[id:9 name:"Cy"]"#])
        let tagged = try workspace.rows("SELECT * FROM feed_last_tagged ORDER BY last_tagged_id")
        #expect(tagged == ["[feed_id:1 last_tagged_id:7]", "[feed_id:1 last_tagged_id:9]"])
    }

    /// Alone, `@first` and `@last` are the element itself: a scalar for an attribute, a record
    /// for a to-one or `type: json`.
    @Test func aloneTheyAreTheElement() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Feed:
                attributes:
                  id: integer
                  mainTag: { type: string, from: "tags.@first" }
                  lastStatus: { type: json, from: "statuses.@last" }
                  english: { type: string, from: "names.@where(lang = en).@first.text" }
                relationships:
                  pinned: { to: Status, from: "statuses.@first" }
              Status:
                attributes: { id: integer, text: string }
            sources:
              - { path: feeds.json, entity: Feed }
            """)
        try workspace.write(
            "dumps/feeds.json",
            """
            [{"id": 1, "tags": ["news", "live"], "statuses": [{"id": 5, "text": "hello"}, {"id": 6, "text": "bye"}],
              "names": [{"lang": "fr", "text": "fil"}, {"lang": "en", "text": "feed"}]},
             {"id": 2, "tags": [], "statuses": [], "names": []}]
            """)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM feed ORDER BY id") == [
                #"[id:1 main_tag:"news" last_status:"{\"id\":6,\"text\":\"bye\"}" english:"feed" pinned_id:5]"#,
                "[id:2 main_tag:NULL last_status:NULL english:NULL pinned_id:NULL]",
            ])
        #expect(try workspace.rows("SELECT * FROM status ORDER BY id") == [#"[id:5 text:"hello"]"#])
    }
}
