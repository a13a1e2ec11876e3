import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Filling the app's own tables (docs/mapping.md, Fitting the app's own schema): what the app's
/// schema declares that the mapping does not, once the rows are built.
struct TemplateFillTests {
    static let mapping = """
        seeder: 1
        schema: { template: app.sqlite }
        entities:
          Author:
            identity: remoteId
            attributes: { remoteId: string, name: { type: string, required: true }, status: string }
        sources:
          - { path: authors.json, entity: Author }
        """

    /// A `UNIQUE` of the app's own that the mapping does not declare refuses a row: an error at
    /// the `schema:` node, in `build` and in `validate` alike, and nothing written.
    @Test(arguments: [false, true])
    func aConstraintOfTheAppsOwnRefusesRowsInBuildAndValidate(_ validate: Bool) throws {
        let workspace = try TemplateSchemaErrorTests.workspace(
            Self.mapping,
            sql: "CREATE TABLE author (id INTEGER PRIMARY KEY, remote_id TEXT NOT NULL, name TEXT NOT NULL UNIQUE, status TEXT);")
        try workspace.write(
            "dumps/authors.json", #"[{"remoteId": "a1", "name": "Ann", "status": null}, {"remoteId": "a2", "name": "Ann", "status": null}]"#
        )
        let report = workspace.build(validate: validate)
        #expect(
            report.messages(workspace) == [
                "mapping.yaml:2:21: error: the app's schema refuses the rows of table 'author': UNIQUE constraint failed: author.name "
                    + #"(Author a1 and Author a2 both have name "Ann")"#
            ])
        #expect(report.outcome == .invalid)
        #expect(workspace.files.filter { $0.hasPrefix(".") || $0.hasSuffix(".sqlite") && $0 != "app.sqlite" } == [])
    }

    /// A `NOT NULL` column with a default takes it where an optional attribute is null or
    /// missing, a double-quoted default (a string in `CREATE TABLE`) included.
    @Test func aNotNullColumnTakesItsDefaultWhereTheValueIsNull() throws {
        let workspace = try TemplateSchemaErrorTests.workspace(
            Self.mapping,
            sql:
                #"CREATE TABLE author (id INTEGER PRIMARY KEY, remote_id TEXT NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL DEFAULT "new");"#
        )
        try workspace.write(
            "dumps/authors.json",
            #"[{"remoteId": "a1", "name": "Ann", "status": "old"}, {"remoteId": "a2", "name": "Bo", "status": null}, {"remoteId": "a3", "name": "Cy"}]"#
        )
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, remote_id, status FROM author ORDER BY id") == [
                #"[id:1 remote_id:"a1" status:"old"]"#, #"[id:2 remote_id:"a2" status:"new"]"#, #"[id:3 remote_id:"a3" status:"new"]"#,
            ])
    }

    /// The records are named by identity whatever its type: an integer identity (this crashed).
    @Test func theRecordsARefusedRowSharesValuesWithAreNamedByAnyIdentity() throws {
        let workspace = try TemplateSchemaErrorTests.workspace(
            """
            seeder: 1
            schema: { template: app.sqlite }
            entities:
              Item:
                attributes: { id: integer, title: string }
            sources:
              - { path: items.json, entity: Item }
            """,
            sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, title TEXT UNIQUE);")
        try FileManager.default.removeItem(atPath: workspace.path("dumps/authors.json"))
        try workspace.write("dumps/items.json", #"[{"id": 1, "title": "a"}, {"id": 2, "title": "a"}]"#)
        TemplateSchemaErrorTests.expectErrors(
            workspace,
            [
                "mapping.yaml:2:21: error: the app's schema refuses the rows of table 'item': UNIQUE constraint failed: item.title "
                    + #"(Item 1 and Item 2 both have title "a")"#
            ])
    }
}
