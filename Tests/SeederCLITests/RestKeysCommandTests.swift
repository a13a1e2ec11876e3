import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `@rest` through the real binary (docs/mapping.md, The keys nothing else reads): the members
/// nothing else reads, gathered as written; its errors at their node; a table too wide for SQLite
/// refused by the mapping, not by SQLite.
struct RestKeysCommandTests {
    static func section() throws -> String {
        let docs = try String(contentsOfFile: repository + "/docs/mapping.md", encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "### The keys nothing else reads (`@rest`)").dropFirst().first)
        return try #require(section.components(separatedBy: "\n## ").first)
    }

    func build(_ mapping: String, _ records: String, strict: Bool = true) async throws -> (Workspace, Run) {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/items.json", records)
        let arguments = ["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"] + (strict ? ["--strict"] : [])
        return (scratch, try await seeder(arguments, in: scratch.root))
    }

    func rows(_ sql: String, in scratch: Workspace) throws -> [String] {
        try DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in try Row.fetchAll(db, sql: sql).map(\.description) }
    }

    @Test func theDocsExampleGathersWhatNothingElseReadsAsWritten() async throws {
        let section = try Self.section()
        let mapping = try WhereCommandTests.block("yaml", in: section) + "\n"
        let sentence = try #require(section.components(separatedBy: "With `").dropFirst().first)
        let records = try #require(sentence.components(separatedBy: "`,").first)
        let (scratch, built) = try await build(mapping, records)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr == "")
        #expect(
            try rows("SELECT * FROM item ORDER BY id", in: scratch) == [
                #"[id:1 name:"a" extra:"{\"size\":1.50,\"tags\":[\"b\"]}"]"#, #"[id:2 name:"b" extra:NULL]"#,
            ])
        #expect(section.contains(#"item 1's `extra` is `{"size":1.50,"tags":["b"]}` and item 2's is `null`"#))
    }

    @Test func keysReadByRelationshipsConventionsAndKeyPathsAreNotGathered() async throws {
        let mapping = """
            seeder: 1
            entities:
              Owner:
                attributes: { id: integer }
              Item:
                attributes:
                  id: integer
                  title: { type: string, from: meta.title }
                  extra: { type: json, from: "@rest" }
                relationships:
                  owner: { to: Owner }
                  tags: { to: Owner, many: true, onMissing: create }
            """
        let records = #"""
            [{"id": 1, "owner_id": 7, "tag_ids": [7], "meta": {"title": "t", "x": 1}, "note": "caf\u00e9", "n": -0.0}]
            """#
        let (scratch, built) = try await build(mapping, records, strict: false)
        #expect(built.status == 0, "\(built.stderr)")
        // `meta` is read through its key path: whole, it is not gathered; `owner_id` and
        // `tag_ids` are read by convention.
        #expect(try rows("SELECT extra FROM item", in: scratch) == [#"[extra:"{\"note\":\"café\",\"n\":-0.0}"]"#])
        #expect(!built.stderr.contains("never mapped"), "\(built.stderr)")
    }

    @Test func eachMisuseIsAnErrorAtItsNode() async throws {
        let mapping = """
            seeder: 1
            entities:
              Item:
                attributes:
                  id: integer
                  name: { type: string, from: "@rest" }
                  extra: { type: json, from: "meta.@rest" }
                  more: { type: json, from: "@rest" }
                  again: { type: json, from: "@rest" }
                relationships:
                  parent: { to: Item, from: "@rest" }
            sources:
              - path: items.json
                entity: Item
                keyPath: "@rest"
            """
        let (_, built) = try await build(mapping, "[]")
        #expect(built.status == 1)
        #expect(
            built.stderr.components(separatedBy: "\n").filter { $0.contains("error:") } == [
                #"mapping.yaml:6:35: error: '@rest' gathers members into an object; 'name' must be 'type: json' to hold it"#,
                #"mapping.yaml:7:34: error: '@rest' is a key path of its own; 'meta.@rest' has more"#,
                #"mapping.yaml:9:34: error: entity 'Item' reads '@rest' twice ('more' and 'again'); one attribute holds the members nothing else reads"#,
                #"mapping.yaml:11:33: error: a relationship's 'from' cannot read '@rest' (a json attribute's can)"#,
                #"mapping.yaml:15:14: error: 'keyPath' cannot read '@rest', a record's members nothing else reads (a json attribute's 'from' can)"#,
            ])
    }

    @Test func aTableWiderThanSQLiteAllowsIsAMappingErrorAtTheEntityAndRestBuildsIt() async throws {
        let keys = (0..<2100).map { "k\($0)" }
        let wide =
            "seeder: 1\nentities:\n  Wide:\n    attributes:\n      id: integer\n"
            + keys.map { "      \($0): integer\n" }.joined()
        let record = "[{\"id\": 1, " + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}]"
        let (_, refused) = try await build(wide, record)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix(
                "mapping.yaml:3:3: error: entity 'Wide' has 2,101 columns in table 'wide'; SQLite allows 2,000 a table: keep the keys "
                    + #"you need as attributes and gather the others in one json attribute with 'from: "@rest"'"#), "\(refused.stderr)")
        #expect(!refused.stderr.contains("SQLite error"))
        // The first 1,000 keys as columns, the others gathered: every value is kept.
        let narrow =
            "seeder: 1\nentities:\n  Wide:\n    attributes:\n      id: integer\n"
            + keys.prefix(1000).map { "      \($0): integer\n" }.joined() + "      rest: { type: json, from: \"@rest\" }\n"
            + "sources: [{ path: items.json, entity: Wide }]\n"
        let (scratch, built) = try await build(narrow, record)
        #expect(built.status == 0, "\(built.stderr)")
        let rest = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            try String.fetchOne(db, sql: "SELECT rest FROM wide")
        }
        #expect(rest == "{" + keys.enumerated().dropFirst(1000).map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}")
    }
}
