import Foundation
import SeederCore
import SeederTestSupport
import Testing

@testable import SeederStore

/// How a relationship's values name their targets, end to end (docs/mapping.md, Relationships):
/// which objects are records and which are references, and what a reference to an identity that
/// no record provides does (`onMissing`).
struct ReferenceRulesTests {
    /// An identity-only object makes a row of a target that declares nothing but its identity
    /// (nothing else to wait for), and is a reference, checked, to any other target.
    @Test func anIdentityOnlyObjectIsARecordOfATargetThatDeclaresNothingElse() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Post:
                attributes: { id: integer }
                relationships:
                  author: { to: Author }
                  tags: { to: Tag, many: true }
              Author:
                identity: name
                attributes: { name: string }
              Tag:
                identity: slug
                attributes: { slug: string, label: string }
            sources:
              - path: posts.json
                entity: Post
            """)
        try workspace.write(
            "dumps/posts.json",
            """
            [{"id": 1, "author": {"name": "Blake"}, "tags": [{"slug": "swift"}]},
             {"id": 2, "author": {"name": "Blake"}, "tags": []}]
            """)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/posts.json:1:50: error: Post 1 references Tag swift (tags), which no record provides",
                "mapping.yaml:11:3: warning: Tag got no record from any source",
            ])
        #expect(report.outcome == .invalid)
        // Without the dangling tag, the authors are rows, merged by name.
        try workspace.write(
            "dumps/posts.json", #"[{"id": 1, "author": {"name": "Blake"}, "tags": []}, {"id": 2, "author": {"name": "Blake"}}]"#)
        let fixed = workspace.build()
        #expect(fixed.messages(workspace) == ["mapping.yaml:11:3: warning: Tag got no record from any source"])
        #expect(try workspace.rows("SELECT * FROM author") == [#"[name:"Blake"]"#])
        #expect(try workspace.rows("SELECT * FROM post ORDER BY id") == [#"[id:1 author_id:"Blake"]"#, #"[id:2 author_id:"Blake"]"#])
        #expect(fixed.entities[1].counts.recordsRead == 2 && fixed.entities[1].counts.occurrencesMerged == 1)
    }
}
