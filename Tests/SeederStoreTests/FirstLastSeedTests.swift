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
}
