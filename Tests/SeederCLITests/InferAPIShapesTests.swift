import Foundation
import SeederTestSupport
import Testing

/// `seeder infer` on dumps shaped like public APIs (docs/commands.md, infer): the draft builds as
/// it is, and its seed holds every record. The dumps are in `Fixtures/infer/`: GitHub's repository
/// search (a page under `items`, the owner repeated in each repository), a Marvel page under
/// `data.results` (with its dates, one of them Marvel's `-0001-11-30`), a Firebase export keyed by
/// push id (posts holding comments keyed by push id and a map of likes), JSON Lines events with
/// nullable and missing fields, teams whose members are keyed by username, one in two teams, and
/// repositories as GitHub's GraphQL API gives them, their issues under `issues.edges[].node` (a
/// wrapper of records, `json`), two tables side by side as Hasura's GraphQL answers a query of
/// both, GitHub's search in two pages (the last one empty), and GitHub's `/meta` (one record).
struct InferAPIShapesTests {
    static let fixtures = repository + "/Tests/SeederCLITests/Fixtures/infer/"

    /// (fixture, the entities the seed must hold with their rows).
    static let cases: [(String, [String: Int])] = [
        ("github", ["Repository": 3, "Owner": 2, "License": 2]),
        ("marvel", ["Character": 3]),
        ("firebase", ["User": 3, "Post": 3, "Comment": 3]),
        ("events", ["Event": 5]),
        ("teams", ["Team": 4, "Member": 5]),
        ("graphql", ["Repository": 2]),
        ("hasura", ["User": 2, "Project": 3]),
        ("github-search", ["Issue": 3]),
        ("github-meta", ["Meta": 1]),
    ]

    @Test(arguments: cases.map(\.0))
    func theDraftBuildsAndHoldsEveryRecord(_ name: String) async throws {
        let expected = try #require(Self.cases.first { $0.0 == name }?.1)
        let scratch = try Workspace()
        let dumps = Self.fixtures + name
        let infer = try await seeder(["infer", dumps, "-o", scratch.path("mapping.yaml")])
        #expect(infer.status == 0, "\(infer.stderr)")
        let draft = try String(contentsOfFile: scratch.path("mapping.yaml"), encoding: .utf8)
        let build = try await seeder(["build", scratch.path("mapping.yaml"), dumps, "-o", scratch.path("seed.sqlite")])
        #expect(build.status == 0, "\(build.stderr)\n\(draft)")
        let inspect = try await seeder(["inspect", scratch.path("seed.sqlite"), "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let tables = try #require(document["tables"] as? [[String: Any]])
        var rows: [String: Int] = [:]
        for table in tables { if let holds = table["holds"] as? String, let count = table["rows"] as? Int { rows[holds] = count } }
        for (entity, count) in expected {
            #expect(rows[entity] == count, "\(entity) in \(rows)\n\(draft)")
        }
        // Never over a file it was not asked to replace.
        let again = try await seeder(["infer", dumps, "-o", scratch.path("mapping.yaml")])
        #expect(again.status == 2)
        #expect(try String(contentsOfFile: scratch.path("mapping.yaml"), encoding: .utf8) == draft)
    }
}
