import Testing

@testable import SeederCore

/// `@file.N` against the sources' paths (docs/mapping.md, Key paths): beyond the stars of a path
/// that reads the entity's records, or without `sources:`, it is an error at its `from:`.
extension MappingProblemsTests {
    static let fileStarCases: [Case] = [
        // Beyond the stars of the source that feeds the entity, on an attribute and a relationship.
        Case(
            yaml: """
                seeder: 1
                entities:
                  Comic:
                    attributes:
                      id: integer
                      page: { type: string, from: "@file.3" }
                    relationships:
                      character: { to: Character, from: "@file.4" }
                  Character:
                    attributes: { id: integer }
                sources:
                  - path: comics/*/*.json
                    entity: Comic
                """,
            errors: [
                "mapping.yaml:6:35: error: '@file.3' reads the 3rd '*' of the source path, but 'comics/*/*.json' has 2",
                "mapping.yaml:8:41: error: '@file.4' reads the 4th '*' of the source path, but 'comics/*/*.json' has 2",
            ]),
        // Every source that feeds the entity must have the star; `?` and `[...]` are no stars.
        Case(
            yaml: """
                seeder: 1
                entities:
                  Post:
                    attributes:
                      id: integer
                      userNumber: { type: integer, from: "@file.1" }
                sources:
                  - { path: users/*/posts.json, entity: Post }
                  - { path: "posts-?[0-9].json", entity: Post }
                """,
            errors: ["mapping.yaml:6:42: error: '@file.1' reads the 1st '*' of the source path, but 'posts-?[0-9].json' has none"]),
        // An entity no source feeds: the sources of the records that embed it.
        Case(
            yaml: """
                seeder: 1
                entities:
                  Character:
                    attributes: { id: integer }
                    relationships:
                      comics: { to: Comic, many: true }
                  Comic:
                    attributes:
                      id: integer
                      folder: { type: string, from: "@file.2" }
                sources:
                  - path: characters/page-*.json
                    entity: Character
                """,
            errors: [
                "mapping.yaml:10:37: error: '@file.2' reads the 2nd '*' of the source path, but 'characters/page-*.json' has 1 (Comic records are embedded in its records)"
            ]),
        // No `sources:`: each dump feeds the entity it is named after, through no glob.
        Case(
            yaml: """
                seeder: 1
                entities:
                  Comic:
                    attributes:
                      id: integer
                      folder: { type: string, from: "@file.1" }
                """,
            errors: [
                "mapping.yaml:6:37: error: '@file.1' reads a '*' of a source's path, but this mapping has no 'sources:' (each dump feeds the entity it is named after)"
            ]),
        // A source's key path and a selector's `by` read no file name.
        Case(
            yaml: """
                seeder: 1
                entities:
                  Comic:
                    attributes: { id: integer }
                sources:
                  - { path: comics/*.json, entity: Comic, keyPath: "@file.1" }
                  - { path: more/*.json, entity: { by: "@file.1", cases: { a: Comic } } }
                """,
            errors: [
                "mapping.yaml:6:52: error: 'keyPath' cannot read '@file.N', a text of a record's file name (an attribute's 'from' can)",
                "mapping.yaml:7:40: error: 'by' cannot read '@file.N', a text of a record's file name (an attribute's 'from' can)",
            ]),
        Case(
            yaml: """
                seeder: 1
                entities:
                  Comic:
                    attributes:
                      id: integer
                      folder: { type: string, from: "comics.@file.1" }
                """,
            errors: ["mapping.yaml:6:37: error: '@file.N' is a key path of its own; 'comics.@file.1' has keys before it"]),
    ]

    @Test(arguments: fileStarCases)
    func reportsFileStarsBeyondTheSourcePaths(_ case: Case) {
        let (mapping, diagnostics) = loadMapping(`case`.yaml)
        #expect(diagnostics == `case`.errors)
        #expect(mapping == nil)
    }

    /// Within every path that reads the entity's records, a `**` segment counting as one star,
    /// and a compressed dump's suffix changing nothing.
    @Test func acceptsFileStarsWithinEverySourcePath() throws {
        let (mapping, diagnostics) = loadMapping(
            """
            seeder: 1
            entities:
              Post:
                attributes:
                  id: integer
                  userNumber: { type: integer, from: "@file.1" }
                  part: { type: string, from: "@file.2" }
                relationships:
                  user: { to: User, from: "@file.1" }
              User:
                attributes: { id: integer }
              Archive:
                attributes: { id: integer }
                relationships:
                  posts: { to: Post, many: true }
            sources:
              - { path: users/*/posts-*.json.gz, entity: Post }
              - { path: "**/*.ndjson", entity: Post }
              - { path: archive.json, entity: Archive }
            """)
        #expect(diagnostics == [])
        let post = try #require(mapping?.entities[0])
        #expect(post.attributes[1].keyPath == KeyPath(fileStar: 1))
        #expect(post.relationships[0].keyPath?.description == "@file.1")
    }
}
