import Foundation
import GRDB
import SeederCore
import SeederTestSupport
import Testing

@testable import SeederStore

/// What `RowStore.finishLoad()` reports of each relationship: the facts the resolver's stages
/// skip their work on (`LoadSummary`), so each must be set whenever its work may find something.
struct LoadSummaryTests {
    static let mapping = """
        seeder: 1
        entities:
          User:
            attributes: { id: integer, name: string }
          Project:
            attributes: { id: integer, name: string }
            relationships:
              owner: { to: User }
              tasks: { to: Task, many: true, inverse: project, ordered: true }
              tags: { to: Tag, many: true }
          Task:
            attributes: { id: integer, name: string }
            relationships:
              project: { to: Project }
          Tag:
            attributes: { name: string }
            identity: [name]
        sources:
          - path: projects.json
            entity: Project
        """

    /// The summary of a load of `projects`, one JSON record each, into a fresh store.
    func summary(of projects: [String]) throws -> LoadSummary {
        let workspace = try Workspace.withDumps()
        let sink = DiagnosticSink(maxErrors: 100)
        let mapping = try #require(MappingLoader().load(yaml: Self.mapping, file: "mapping.yaml", diagnostics: sink))
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: workspace.root + "/seed.sqlite", configuration: configuration)
        return try queue.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \"work\"", arguments: [workspace.root + "/work.sqlite"])
            let (layouts, links) = (RowLayout.all(for: mapping), LinkLayout.all(for: mapping))
            try SeedAssembler(mapping: mapping).createTables(db)
            let store = try RowStore(
                db: db, mapping: mapping, layouts: layouts, links: links, files: ["projects.json"],
                spillPath: workspace.root + "/spill", spillBytes: SideRowLog.defaultSpillBytes)
            let mapper = Mapper(mapping: mapping)
            var rows: [RowEncoder.Encoded] = []
            for project in projects {
                let value = try JSONDocument(parsing: project).root
                let batch = mapper.records(from: value, entity: 1, file: "projects.json", diagnostics: sink)
                rows.removeAll()
                try batch.withUnsafeBufferPointer { records in
                    store.encoder.encode(batch: records, file: 0, appendingTo: &rows)
                    try rows.withUnsafeBufferPointer { try store.add(records, encoded: $0, diagnostics: sink) }
                }
            }
            #expect(sink.diagnostics.isEmpty)
            return try store.finishLoad()
        }
    }

    /// Project's `owner`, `tasks` and `tags`, as (claimsAtInsert, hasLinkRows, hasLinkByIdentity,
    /// needsRenumbering, referencedByIdentity).
    func facts(_ summary: LoadSummary) -> [[Bool]] {
        (0..<3).map { relationship in
            let facts = summary[entity: 1, relationship: relationship]
            return [facts.claimsAtInsert, facts.hasLinkRows, facts.hasLinkByIdentity, facts.needsRenumbering, facts.referencedByIdentity]
        }
    }

    @Test func embeddedTargetsLeaveNothingToResolve() throws {
        let summary = try summary(of: [
            #"{"id": 1, "owner": {"id": 7, "name": "Ann"}, "tasks": [{"id": 11, "name": "a"}, {"id": 12, "name": "b"}],"#
                + #" "tags": []}"#,
            #"{"id": 2, "owner": {"id": 7, "name": "Ann"}, "tasks": [{"id": 21, "name": "c"}]}"#,
        ])
        #expect(
            facts(summary) == [
                [false, false, false, false, false],
                // New embedded children claim their parent as they are inserted: no link row.
                [true, false, false, false, false],
                [false, false, false, false, false],
            ])
        // Task's `project` is set by the claims, never named by identity.
        #expect(summary[entity: 2, relationship: 0].referencedByIdentity == false)
    }

    @Test func referencesByIdentityAndMergedOrderedLinksAreLearnt() throws {
        let summary = try summary(of: [
            #"{"id": 1, "owner": 7, "tasks": [{"id": 11, "name": "a"}], "tags": ["x"]}"#,
            // Project 1 again: it lists its tasks, one by identity, in an order of its own.
            #"{"id": 1, "tasks": [12, {"id": 11, "name": "a"}], "tags": ["y"]}"#,
        ])
        #expect(
            facts(summary) == [
                [false, false, false, false, true],
                [true, true, true, true, false],
                [false, true, true, false, false],
            ])
    }
}
