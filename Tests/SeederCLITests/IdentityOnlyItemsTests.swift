import Foundation
import GRDB
import SeederTestSupport
import Testing

/// An object holding only its identity is a record of a target that declares no other attribute,
/// whatever relationships the target has (docs/mapping.md, Relationships): Sync's ordered lists.
struct IdentityOnlyItemsTests {
    static let mapping = """
        seeder: 1
        entities:
          List:
            attributes: { id: integer }
            relationships:
              items: { to: Item, many: true, ordered: true, inverse: list }
          Item:
            attributes: { id: integer }
            relationships:
              list: { to: List }
        sources:
          - path: lists.json
            entity: List

        """

    @Test func syncsOrderedListMakesItsItems() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("lists.yaml", Self.mapping)
        try scratch.write("dumps/lists.json", #"[{"id": 453, "items": [{"id": 2}, {"id": 1}]}, {"id": 454, "items": [{"id": 3}]}]"#)
        let built = try await seeder(["build", "lists.yaml", "dumps", "-o", "lists.sqlite", "--quiet"], in: scratch.root)
        #expect(built.status == 0)
        #expect(built.stderr == "")
        let items = try await DatabaseQueue(path: scratch.path("lists.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id").map(\.description)
        }
        #expect(
            items == [
                "[id:1 list_id:453 list_position:1]", "[id:2 list_id:453 list_position:0]", "[id:3 list_id:454 list_position:0]",
            ])
    }

    /// An attribute besides the identity makes the same object a reference, checked.
    @Test func anotherAttributeMakesItAReference() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write(
            "lists.yaml",
            Self.mapping.replacingOccurrences(
                of: "attributes: { id: integer }\n    relationships:\n      list:",
                with: "attributes: { id: integer, title: string }\n    relationships:\n      list:"))
        try scratch.write("dumps/lists.json", #"[{"id": 453, "items": [{"id": 2}]}]"#)
        let built = try await seeder(["build", "lists.yaml", "dumps", "-o", "lists.sqlite"], in: scratch.root)
        #expect(built.status == 1)
        #expect(
            built.stderr.contains(
                "dumps/lists.json:1:24: error: List 453 references Item 2 (items), which no record provides  [/0/items/0]"),
            "\(built.stderr)")
    }
}
