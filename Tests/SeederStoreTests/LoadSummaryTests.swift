import Foundation
import GRDB
import SeederCore
import SeederFiles
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
        let harness = try StoreHarness(yaml: Self.mapping)
        return try harness.withStore { _, store in
            for project in projects { try harness.add(project, entity: 1, to: store) }
            #expect(harness.diagnostics.diagnostics.isEmpty)
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
