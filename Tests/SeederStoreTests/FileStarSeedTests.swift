import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `@file.N` in a real build (docs/mapping.md, Key paths): dumps saved per parent, as `seeder
/// fetch`'s `each` lays them out, linked to the parent their folder is named after.
struct FileStarSeedTests {
    static let mapping = """
        seeder: 1
        entities:
          Character:
            attributes: { id: integer, name: string }
          Comic:
            attributes:
              id: integer
              title: string
              page: { type: string, from: "@file.2" }
            relationships:
              character: { to: Character, from: "@file.1" }
              creators: { to: Creator, many: true, from: "creators.items" }
          Creator:
            attributes:
              id: integer
              name: string
              folder: { type: string, from: "@file.1" }
        sources:
          - path: characters.json
            entity: Character
          - path: comics/*/*.json
            entity: Comic
            keyPath: data.results
        """

    static func writeDumps(_ workspace: Workspace) throws {
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/characters.json", #"[{"id": 1011334, "name": "3-D Man"}, {"id": 1017100, "name": "A-Bomb"}]"#)
        try workspace.write(
            "dumps/comics/1011334/0001.json",
            #"{"data": {"results": [{"id": 21366, "title": "Avengers 1", "creators": {"items": [{"id": 30, "name": "Stan Lee"}]}}, {"id": 24571, "title": "Avengers 2"}]}}"#
        )
        try workspace.write("dumps/comics/1011334/0002.json", #"{"data": {"results": [{"id": 10223, "title": "Marvel Premiere"}]}}"#)
        try workspace.write("dumps/comics/1017100/0001.json", #"{"data": {"results": [{"id": 40632, "title": "Hulk 53"}]}}"#)
    }

    @Test func linksEachRecordToTheFolderItsFileIsIn() throws {
        let workspace = try Workspace.withDumps()
        try Self.writeDumps(workspace)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(
            try workspace.rows("SELECT id, title, page, character_id FROM comic ORDER BY id") == [
                #"[id:10223 title:"Marvel Premiere" page:"0002" character_id:1011334]"#,
                #"[id:21366 title:"Avengers 1" page:"0001" character_id:1011334]"#,
                #"[id:24571 title:"Avengers 2" page:"0001" character_id:1011334]"#,
                #"[id:40632 title:"Hulk 53" page:"0001" character_id:1017100]"#,
            ])
        // A record embedded in a comic comes from the comic's file.
        #expect(try workspace.rows("SELECT * FROM creator") == [#"[id:30 name:"Stan Lee" folder:"1011334"]"#])
        // The foreign key is a real one: every comic joins its character.
        #expect(
            try workspace.rows(
                "SELECT character.name, count(*) FROM comic JOIN character ON character.id = comic.character_id GROUP BY 1 ORDER BY 1")
                == [#"[name:"3-D Man" count(*):3]"#, #"[name:"A-Bomb" count(*):1]"#])
    }

    /// A compressed dump's stars are those of its path as stored: `*.json.gz` takes `0001`.
    @Test func readsTheStarsOfACompressedDumpsPath() async throws {
        let workspace = try Workspace.withDumps()
        try Self.writeDumps(workspace)
        try await Compressor.gzip.compress(workspace.path("dumps/comics/1017100/0001.json"))
        try FileManager.default.removeItem(atPath: workspace.path("dumps/comics/1017100/0001.json"))
        try workspace.write("mapping.yaml", Self.mapping + "\n  - { path: comics/*/*.json.gz, entity: Comic, keyPath: data.results }\n")
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, page, character_id FROM comic WHERE id = 40632") == [
                #"[id:40632 page:"0001" character_id:1017100]"#
            ])
    }

    /// A folder named after no character is a dangling reference, at the record that makes it.
    @Test func reportsAFolderThatNamesNoRecord() throws {
        let workspace = try Workspace.withDumps()
        try Self.writeDumps(workspace)
        try workspace.write("dumps/comics/1009999/0001.json", #"{"data": {"results": [{"id": 5, "title": "Nobody"}]}}"#)
        let report = workspace.build(validate: true)
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "dumps/comics/1009999/0001.json:1:23: error: Comic 5 references Character 1009999 (character), which no record provides  [/data/results/0]"
            ])
    }

    @Test func reportsAStarBeyondThePathAtItsNode() throws {
        let workspace = try Workspace.withDumps()
        try Self.writeDumps(workspace)
        try workspace.write("mapping.yaml", Self.mapping.replacingOccurrences(of: #"from: "@file.2""#, with: #"from: "@file.3""#))
        let report = workspace.build(validate: true)
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "mapping.yaml:9:35: error: '@file.3' reads the 3rd '*' of the source path, but 'comics/*/*.json' has 2"
            ])
        #expect(!FileManager.default.fileExists(atPath: workspace.path("seed.sqlite")))
    }
}
