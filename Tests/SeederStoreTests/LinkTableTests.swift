import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// The working database's link tables (`LinkTable`): one per shape of link, whatever the number
/// of to-manys, each relationship's links read through an index. A table or index per to-many
/// made a mapping of thousands of them quadratic (bench/README.md, Big mappings).
struct LinkTableTests {
    /// `Node` with `count` to-manys to `Tag` (one key column each side) and one to `Pair`,
    /// keyed by two columns.
    static func mapping(toManys count: Int) -> String {
        let relationships = (0..<count).map { "      tags\($0): { to: Tag, many: true }" }.joined(separator: "\n")
        return """
            seeder: 1
            entities:
              Node:
                attributes: { id: integer }
                relationships:
            \(relationships)
                  pairs: { to: Pair, many: true }
              Tag:
                attributes: { name: string }
                identity: [name]
              Pair:
                attributes: { a: integer, b: integer }
                identity: [a, b]
            sources:
              - path: projects.json
                entity: Node
            """
    }

    /// The working database's tables and indexes, by name.
    func workSchema(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: #"SELECT "name" FROM "work"."sqlite_schema" ORDER BY "name""#)
    }

    @Test(arguments: [1, 40])
    func theWorkingDatabaseHasATablePerShapeOfLinkNotPerRelationship(toManys: Int) throws {
        let harness = try StoreHarness(yaml: Self.mapping(toManys: toManys))
        let schema = try harness.withStore { db, _ in try workSchema(db) }
        // A side table per entity, and a table and its pair's index per shape: Node's key to
        // Tag's (1, 1), and to Pair's (1, 2).
        #expect(schema == ["links_1_1", "links_1_1_pair", "links_1_2", "links_1_2_pair", "s0", "s1", "s2"])
    }

    @Test func eachRelationshipReadsItsOwnLinksThroughTheIndex() throws {
        let harness = try StoreHarness(yaml: Self.mapping(toManys: 3))
        let links = LinkLayout.all(for: harness.mapping)[0].compactMap { $0 }
        let (read, plans) = try harness.withStore { db, store in
            try harness.add(
                #"{"id": 1, "tags0": ["x", "y"], "tags1": ["y"], "tags2": [], "pairs": [{"a": 1, "b": 2}]}"#, entity: 0, to: store)
            try harness.add(#"{"id": 2, "tags0": ["z"], "tags2": ["x", "x"]}"#, entity: 0, to: store)
            _ = try store.finishLoad()
            let read = try links.map { link in
                try Row.fetchAll(
                    db, sql: "SELECT \(SQLText.list(link.ownerColumns + link.targetColumns)) FROM \(link.table) ORDER BY \"_seq\""
                )
                .map { row in row.databaseValues.map(\.description).joined(separator: " ") }
            }
            let plans = try links.map { link in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM \(link.table) ORDER BY \(LinkLayout.sourceOrder)")
                    .map { $0["detail"] as String }
            }
            return (read, plans)
        }
        #expect(harness.diagnostics.diagnostics.isEmpty)
        #expect(read == [["1 \"x\"", "1 \"y\"", "2 \"z\""], ["1 \"y\""], ["2 \"x\""], ["1 1 2"]])
        for plan in plans { #expect(plan.contains { $0.contains("USING INDEX") }, "\(plan)") }
    }
}
