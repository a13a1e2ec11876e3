import SeederTestSupport
import Testing

@testable import SeederCore

/// An entity's `ignore:` (docs/mapping.md, Unmapped keys and keys that match nothing): a list of
/// JSON keys as written, validated like every mapping key, each error at its node.
struct IgnoredKeysTests {
    @Test func readsTheKeysAsWrittenWithTheirLocations() throws {
        let mapping = try validMapping(
            """
            seeder: 1
            entities:
              Repository:
                ignore: [node_id, Watchers_Count, "a.b"]
                attributes: { id: integer, name: string }
                relationships:
                  tags: { to: Tag, many: true }
              Tag:
                ignore:
                  - tag_ids
                attributes: { id: integer }
            """)
        let repository = try #require(mapping.entity(named: "Repository"))
        #expect(repository.ignoredKeys.map(\.key) == ["node_id", "Watchers_Count", "a.b"])
        #expect(repository.ignoredKeys.map(\.location.description) == ["mapping.yaml:4:14", "mapping.yaml:4:23", "mapping.yaml:4:39"])
        #expect(try #require(mapping.entity(named: "Tag")).ignoredKeys.map(\.location.description) == ["mapping.yaml:10:9"])
    }

    /// Ignoring a relationship's id convention beside its name is no contradiction: the
    /// convention is read only when the name is missing.
    @Test func allowsAnIdConventionBesideItsRelationship() throws {
        let mapping = try validMapping(
            """
            seeder: 1
            entities:
              Post:
                ignore: [tag_ids, author_id]
                attributes: { id: integer }
                relationships:
                  tags: { to: Post, many: true }
                  author: { to: Post }
            """)
        #expect(mapping.entities[0].ignoredKeys.map(\.key) == ["tag_ids", "author_id"])
    }

    static let head = "seeder: 1\nentities:\n  Repository:\n"

    static let cases: [MappingProblemsTests.Case] = [
        .init(
            yaml: head + "    ignor: [node_id]\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:4:5: error: unknown key 'ignor' in entity 'Repository'; did you mean 'ignore'?"]),
        .init(
            yaml: head + "    ignore: node_id\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:4:13: error: 'ignore' of entity 'Repository' must be a list of JSON keys, found 'node_id'"]),
        .init(
            yaml: head + "    ignore: { node_id: true }\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:4:13: error: 'ignore' of entity 'Repository' must be a list of JSON keys, found a mapping"]),
        .init(
            yaml: head + "    ignore: [node_id, [a, b], ~]\n    attributes: { id: integer }\n",
            errors: [
                "mapping.yaml:4:23: error: 'ignore' must be a string, found a list",
                "mapping.yaml:4:31: error: 'ignore' must be a string, found '~'",
            ]),
        .init(
            yaml: head + "    ignore: [node_id, url, node_id]\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:4:28: error: 'node_id' is listed twice in 'ignore' of entity 'Repository'"]),
        .init(
            yaml: head + "    ignore: [node_id]\n    attributes: { id: integer, nodeId: string }\n",
            errors: ["mapping.yaml:4:14: error: 'node_id' is in 'ignore' of entity 'Repository', but attribute 'nodeId' reads it"]),
        .init(
            yaml: head + "    ignore: [owner]\n    attributes:\n      id: integer\n      login: { type: string, from: owner.login }\n",
            errors: ["mapping.yaml:4:14: error: 'owner' is in 'ignore' of entity 'Repository', but attribute 'login' reads it"]),
        .init(
            yaml: head
                + "    ignore: [stargazers_count]\n    attributes:\n      id: integer\n      stars: { type: integer, from: stargazers_count }\n",
            errors: ["mapping.yaml:4:14: error: 'stargazers_count' is in 'ignore' of entity 'Repository', but attribute 'stars' reads it"]),
        .init(
            yaml: head + "    ignore: [Owner]\n    attributes: { id: integer }\n    relationships:\n      owner: { to: Repository }\n",
            errors: ["mapping.yaml:4:14: error: 'Owner' is in 'ignore' of entity 'Repository', but relationship 'owner' reads it"]),
        .init(
            yaml: head
                + "    ignore: [parent]\n    attributes: { id: integer }\n    relationships:\n      up: { to: Repository, from: parent.id }\n",
            errors: ["mapping.yaml:4:14: error: 'parent' is in 'ignore' of entity 'Repository', but relationship 'up' reads it"]),
    ]

    @Test(arguments: cases)
    func reportsEachProblemAtItsNode(_ case: MappingProblemsTests.Case) {
        let (mapping, diagnostics) = loadMapping(`case`.yaml)
        #expect(diagnostics == `case`.errors)
        #expect(mapping == nil)
    }
}
