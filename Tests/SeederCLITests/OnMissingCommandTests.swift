import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `onMissing: create` through the real binary (docs/mapping.md, Missing references): the rows it
/// makes are counted in the summary and the report, and what they lack fails the build at the
/// reference, keeping the previous seed.
struct OnMissingCommandTests {
    static let mapping = """
        seeder: 1
        entities:
          Post:
            attributes: { id: integer, title: string }
            relationships:
              tags: { to: Tag, many: true, onMissing: create }
          Tag:
            identity: slug
            attributes: { slug: string, label: { type: string, default: untitled } }
        sources:
          - path: posts.json
            entity: Post
          - path: tags.json
            entity: Tag

        """

    static func scratch() throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("blog.yaml", mapping)
        try scratch.write("dumps/posts.json", #"[{"id": 1, "title": "Hi", "tag_ids": ["swift", "news"]}, {"id": 2, "tag_ids": ["swift"]}]"#)
        try scratch.write("dumps/tags.json", #"[{"slug": "news", "label": "News"}]"#)
        return scratch
    }

    @Test func countsTheRowsItMakesAndFailsAtTheReferenceForWhatTheyLack() async throws {
        let scratch = try Self.scratch()
        let built = try await seeder(["build", "blog.yaml", "dumps", "-o", "blog.sqlite", "--report", "report.json"], in: scratch.root)
        #expect(built.status == 0)
        #expect(built.stderr == "")
        #expect(
            built.stdout == """
                entity  records  rows  merged  conflicts  references  dropped  created
                Post          2     2       0          0           3        0        0
                Tag           1     2       0          0           0        0        1
                wrote blog.sqlite

                """)
        let tags = try await DatabaseQueue(path: scratch.path("blog.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tag ORDER BY rowid").map(\.description)
        }
        #expect(tags == [#"[slug:"news" label:"News"]"#, #"[slug:"swift" label:"untitled"]"#])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("report.json")))) as? [String: Any])
        let entities = try #require(report["entities"] as? [[String: Any]])
        #expect(entities.map { $0["rowsCreated"] as? Int } == [0, 1])
        #expect(entities.map { $0["rowsWritten"] as? Int } == [2, 2])
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("blog.sqlite")))

        // Required, the label fails the made row, at the first reference to it.
        try scratch.write("blog.yaml", Self.mapping.replacingOccurrences(of: "default: untitled", with: "required: true"))
        let failed = try await seeder(["build", "blog.yaml", "dumps", "-o", "blog.sqlite"], in: scratch.root)
        #expect(failed.status == 1)
        #expect(failed.stdout == "")
        #expect(
            failed.stderr == """
                dumps/posts.json:1:39: error: Post 1 references Tag swift (tags), which no record provides; \
                the row onMissing: create makes holds only its identity, but 'label' is required  [/0/tag_ids/0]
                build failed: 1 error, 0 warnings; nothing was written

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("blog.sqlite"))) == before)
    }
}
