import Foundation
import SeederCore
import SeederTestSupport
import Testing

@testable import SeederStore

/// `seeder infer` where dumps are odd (docs/commands.md, `seeder infer`): the draft still builds
/// as it is, and guesses nothing the values do not support.
struct InferEdgeTests {
    /// Files of no records, or of empty objects, are left out and said so: an entity of nothing
    /// would be rows of nothing.
    @Test func recordsWithNothingToMapAreLeftOut() throws {
        let (draft, workspace) = try inferDraft(["users.json": "[]", "empties.json": "[{}, {}]", "posts.json": #"[{"id": 1}]"#])
        #expect(!draft.contains("User:") && !draft.contains("Empty"))
        #expect(draft.contains("# empties.json: left out, its records hold no value to map"))
        #expect(try buildDraft(draft, in: workspace) == ["Post": 1])
    }

    /// File names: `items.json` is Item and `line_items.json` LineItem (words that name records
    /// are kept); a name whose table seeder or SQLite reserves gets `Dump` before it.
    @Test func fileNamesKeepTheirRecordWordsAndAvoidReservedTables() throws {
        let (draft, workspace) = try inferDraft([
            "items.json": #"[{"sku": "a"}]"#, "line_items.json": #"[{"sku": "b", "qty": 1}]"#,
            "seed_metadata.json": #"[{"id": 1, "v": "x"}]"#,
        ])
        #expect(draft.contains("  Item:") && draft.contains("  LineItem:") && draft.contains("  DumpSeedMetadata:"))
        #expect(try buildDraft(draft, in: workspace) == ["Item": 1, "LineItem": 1, "DumpSeedMetadata": 1])
    }

    /// A `user_id` whose words name an entity that does not hold its values (a `User` without
    /// identity) refers to no entity: not to its own.
    @Test func anIdKeyNamingAnEntityWithoutItsValuesStaysAnAttribute() throws {
        let (draft, workspace) = try inferDraft([
            "posts.json": #"[{"id": 1, "user": {"name": "Alice"}}, {"id": 2, "user": {"name": "Bob"}}]"#,
            "users.json": #"[{"id": 1, "name": "Alice"}, {"id": 2, "name": "Bob"}]"#,
            "likes.json": #"[{"id": 1, "user_id": 1}, {"id": 2, "user_id": 2}]"#,
        ])
        #expect(draftLine(draft, "userId").contains("integer"))
        #expect(!draft.contains("to: Like"))
        _ = try buildDraft(draft, in: workspace)
    }

    /// The mapping loader refuses what would be rows of nothing, rather than failing to insert.
    @Test func anEntityThatStoresNothingIsAMappingError() {
        let diagnostics = DiagnosticSink()
        let yaml = "seeder: 1\nentities:\n  Post: { attributes: { id: integer } }\n  User: { identity: none }\n"
        #expect(MappingLoader().load(yaml: yaml, file: "m.yaml", diagnostics: diagnostics) == nil)
        #expect(
            diagnostics.diagnostics.map(\.description) == [
                "m.yaml:4:3: error: entity 'User' stores nothing: with 'identity: none' and no attribute or to-one, its rows would hold "
                    + "no value; give it an attribute, or leave it out"
            ])
    }
}
