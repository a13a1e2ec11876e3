import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// The reference checks (docs/mapping.md, Relationships): a build checks a to-one through the
/// index the seed gets on its columns, a validation (no such index) counts every to-one of an
/// entity in one scan of its table. Both find the same dangling keys, say the same, and count
/// the same.
struct ReferenceCheckTests {
    static let mapping = """
        seeder: 1
        entities:
          Review:
            attributes: { id: integer }
            relationships:
              product: { to: Product, onMissing: null }
              author: { to: User }
              editor: { to: User }
              shop: { to: Shop }
              tags: { to: Tag, many: true, onMissing: null }
              labels: { to: Tag, many: true, onMissing: null }
          Product:
            attributes: { id: integer }
          User:
            attributes: { id: integer }
          Shop:
            attributes: { id: integer, name: string }
          Tag:
            identity: slug
            attributes: { slug: string }
        """

    /// Review 1 names product 7 and tag "zz", review 2 label "qq", which no record has (dropped),
    /// and review 1 the editor `editor` gives; shops are nested, so their keys are only counted.
    static func write(editor: String, in workspace: Workspace) throws {
        try workspace.write("mapping.yaml", mapping)
        try workspace.write(
            "dumps/reviews.json",
            #"""
            [{"id": 1, "product_id": 7, "author_id": 1, \#(editor)"shop": {"id": 5, "name": "S"}, "tag_ids": ["a", "zz"]},
             {"id": 2, "product_id": 8, "author_id": 2, "shop": {"id": 5}, "label_ids": ["qq", "a"]}]
            """#)
        try workspace.write("dumps/users.json", #"[{"id": 1}, {"id": 2}]"#)
        try workspace.write("dumps/products.json", #"[{"id": 8}]"#)
        try workspace.write("dumps/tags.json", #"[{"slug": "a"}]"#)
    }

    @Test func aBuildAndAValidationCountTheSameReferences() throws {
        let workspace = try Workspace.withDumps()
        try Self.write(editor: #""editor_id": 2, "#, in: workspace)
        let built = workspace.build()
        let validated = workspace.build(output: "validated.sqlite", validate: true)
        for report in [built, validated] {
            #expect(report.outcome == .success)
            #expect(report.messages(workspace) == [])
            // Product 7, tag "zz" and label "qq".
            #expect(report.entities[0].counts.referencesDropped == 3)
            // Product 8, authors 1 and 2, editor 2, shop 5 twice, tag "a" and label "a".
            #expect(report.entities[0].counts.referencesResolved == 8)
        }
        #expect(
            try workspace.rows("SELECT * FROM review ORDER BY id") == [
                "[id:1 product_id:NULL author_id:1 editor_id:2 shop_id:5]", "[id:2 product_id:8 author_id:2 editor_id:NULL shop_id:5]",
            ])
        #expect(try workspace.rows("SELECT * FROM review_tags") == [#"[review_id:1 tag_id:"a"]"#])
        #expect(try workspace.rows("SELECT * FROM review_labels") == [#"[review_id:2 label_id:"a"]"#])
    }

    @Test func aBuildAndAValidationReportTheSameDanglingKey() throws {
        let workspace = try Workspace.withDumps()
        try Self.write(editor: #""editor_id": 9, "#, in: workspace)
        let built = workspace.build()
        let validated = workspace.build(validate: true)
        #expect(built.outcome == .invalid && validated.outcome == .invalid)
        #expect(built.messages(workspace) == validated.messages(workspace))
        #expect(
            built.messages(workspace) == [
                "dumps/reviews.json:1:58: error: Review 1 references User 9 (editor), which no record provides  [/0/editor_id]"
            ])
        #expect(workspace.files == ["dumps", "mapping.yaml"])
    }
}
