import Foundation
import GRDB
import SeederCore
import SeederTestSupport
import Testing

@testable import SeederStore

/// Value-level rules of docs/mapping.md in built seeds: how `emptyAsNull` merges and meets
/// `default`.
struct ValueRulesSeedTests {
    static let companies = """
        seeder: 1
        entities:
          Company:
            emptyAsNull: true
            attributes:
              id: integer
              homepage: { type: url, default: "https://none.test" }
              employees: integer
          Shop:
            nulls: absent
            emptyAsNull: true
            attributes:
              id: integer
              homepage: url
        sources:
          - path: companies.json
            entity: Company
          - path: shops.json
            entity: Shop
        """

    /// `""` is a null: the default is for a missing key only; under `nulls: absent` another
    /// occurrence's value fills it.
    @Test func emptyStringsAreNullsWhenRowsMergeAndDefaultsApply() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.companies)
        try workspace.write("dumps/companies.json", #"[{"id": 1, "homepage": "", "employees": ""}, {"id": 2, "employees": "7"}]"#)
        try workspace.write(
            "dumps/shops.json", #"[{"id": 1, "homepage": ""}, {"id": 1, "homepage": "https://a.test"}, {"id": 2, "homepage": ""}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM company ORDER BY id") == [
                "[id:1 homepage:NULL employees:NULL]", #"[id:2 homepage:"https://none.test" employees:7]"#,
            ])
        #expect(try workspace.rows("SELECT * FROM shop ORDER BY id") == [#"[id:1 homepage:"https://a.test"]"#, "[id:2 homepage:NULL]"])
    }

    /// Under `nulls: value` (the default) a `""` and a value of one identity conflict, as a null
    /// and a value do.
    @Test func emptyStringsConflictWithValuesAsNullsDo() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.companies)
        try workspace.write("dumps/companies.json", "[{\"id\": 1, \"employees\": \"\"},\n {\"id\": 1, \"employees\": 3}]")
        try workspace.write("dumps/shops.json", #"[{"id": 1, "homepage": "https://s.test"}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/companies.json:2:25: error: Company 1: 'employees' conflicts: 3 here, null at dumps/companies.json:1:25"
            ])
    }
}
