import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Value-level rules of docs/mapping.md in built seeds: how `emptyAsNull` merges and meets
/// `default`; unions of arrays feeding to-many relationships.
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

    static let channels = """
        seeder: 1
        entities:
          Channel:
            attributes:
              id: integer
            relationships:
              media: { to: Media, many: true, ordered: true, from: "mediaGroups.@unionOfArrays.contents" }
              hosts: { to: Person, many: true, from: "mediaGroups.@distinctUnionOfArrays.hostIds" }
          Media:
            attributes:
              id: integer
              title: string
          Person:
            attributes:
              id: integer
              name: string
        sources:
          - path: channels.json
            entity: Channel
          - path: people.json
            entity: Person
        """

    /// A union of arrays of embedded records makes and links them in order; a distinct union of
    /// ids links each once; an empty array links nothing.
    @Test func unionsOfArraysFeedToManyRelationships() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.channels)
        try workspace.write(
            "dumps/channels.json",
            #"""
            [{"id": 1, "mediaGroups": [
               {"contents": [{"id": 20, "title": "b"}, {"id": 10, "title": "a"}], "hostIds": [2, 1]},
               {"contents": [null, {"id": 30, "title": "c"}], "hostIds": [1, 3]}]},
             {"id": 2, "mediaGroups": []},
             {"id": 3, "mediaGroups": [{"contents": [{"id": 10, "title": "a"}], "hostIds": null}]}]
            """#)
        try workspace.write("dumps/people.json", #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM media ORDER BY id") == [#"[id:10 title:"a"]"#, #"[id:20 title:"b"]"#, #"[id:30 title:"c"]"#])
        #expect(
            try workspace.rows("SELECT * FROM channel_media ORDER BY channel_id, position") == [
                "[channel_id:1 media_id:20 position:0]", "[channel_id:1 media_id:10 position:1]",
                "[channel_id:1 media_id:30 position:2]", "[channel_id:3 media_id:10 position:0]",
            ])
        #expect(
            try workspace.rows("SELECT * FROM channel_hosts ORDER BY channel_id, host_id") == [
                "[channel_id:1 host_id:1]", "[channel_id:1 host_id:2]", "[channel_id:1 host_id:3]",
            ])
    }
}
