import Foundation
import SeederCore
import SeederTestSupport
import Testing

/// `seed_source` a row per source, `provenance: files`, the report's `files`, and seeds of the
/// first layout (a row per file, four columns) diffed and patched to today's (docs/seed.md,
/// Metadata), on a dump set fetched as 2,800 one-record files.
struct SourceProvenanceTests {
    static let mapping = """
        seeder: 1
        entities:
          Item:
            attributes: { id: integer, name: string }
          Tag:
            attributes: { id: integer, label: string }
        sources:
          - path: items/*.json
            entity: Item
          - path: tags.json
            entity: Tag
        """

    /// The first release: `items/1.json` ... `items/2800.json`, a record each, and `tags.json`.
    /// The second changes 30 items, adds 6 and removes 4; the tags stay as they were.
    static func writeRelease(_ release: Int, into directory: String, of workspace: Workspace) throws {
        var ids = Array(1...2800)
        if release == 2 { ids = ids.filter { !(101...104).contains($0) } + Array(2801...2806) }
        for id in ids {
            let name = release == 2 && id % 90 == 0 ? "item \(id), renamed" : "item \(id)"
            try workspace.write("\(directory)/items/\(id).json", #"{"id": \#(id), "name": "\#(name)"}"#)
        }
        try workspace.write("\(directory)/tags.json", #"[{"id": 1, "label": "red"}, {"id": 2, "label": "blue"}]"#)
    }

    /// Builds `release` with `mapping` to `<name>.sqlite`, with its report; returns the report's
    /// `files`.
    static func build(
        _ release: Int, named name: String, in workspace: Workspace, mapping: String = mapping
    ) async throws -> [[String: Any]] {
        try workspace.write("\(name).yaml", mapping)
        if !FileManager.default.fileExists(atPath: workspace.path("dumps-\(release)")) {
            try writeRelease(release, into: "dumps-\(release)", of: workspace)
        }
        let run = try await seeder([
            "build", workspace.path("\(name).yaml"), workspace.path("dumps-\(release)"), "-o", workspace.path("\(name).sqlite"),
            "--report", workspace.path("\(name).json"), "--quiet",
        ])
        try #require(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: workspace.path("\(name).json"))))
        return try #require((report as? [String: Any])?["files"] as? [[String: Any]])
    }

    static func sources(_ path: String) throws -> [[StoredValue]] {
        try RawDatabase(path).rows("SELECT * FROM seed_source ORDER BY path")
    }

    /// The seed has a row per source, its digest the one docs/seed.md says how to recompute; the
    /// report lists each file with its own digest; and the changeset between two releases carries
    /// the one source row that changed, not a row per file.
    @Test func aChangesetBetweenReleasesCarriesTheSourcesThatChangedNotTheirFiles() async throws {
        let workspace = try Workspace()
        _ = try await Self.build(1, named: "v1", in: workspace)
        let files = try await Self.build(2, named: "v2", in: workspace)

        // The report: every file once, in the order read (source order, then path order), each
        // with its own digest, size and records.
        let dumps = workspace.path("dumps-2")
        let items = try FileManager.default.contentsOfDirectory(atPath: dumps + "/items").map { "items/" + $0 }
        let expectedPaths = items.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } + ["tags.json"]
        #expect(files.map { $0["path"] as? String } == expectedPaths)
        for file in files.prefix(3) + files.suffix(2) {
            let path = try #require(file["path"] as? String)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dumps + "/" + path))
            #expect(file["sha256"] as? String == SHA256.hex(Array(bytes)), "\(path)")
            #expect(file["bytes"] as? Int == bytes.count, "\(path)")
            #expect(file["records"] as? Int == (path == "tags.json" ? 2 : 1), "\(path)")
        }

        // The seed: a row per source, its digest over its files' paths and digests in read order.
        let itemFiles = files.filter { ($0["path"] as? String)?.hasPrefix("items/") == true }
        let text = itemFiles.map { "\($0["path"] as! String)\n\($0["sha256"] as! String)\n" }.joined()
        let itemBytes = itemFiles.reduce(0) { $0 + ($1["bytes"] as! Int) }
        let rows = try Self.sources(workspace.path("v2.sqlite"))
        #expect(rows.count == 2)
        #expect(
            rows.first
                == [.text("items/*.json"), .integer(2802), .text(SHA256.hex(Array(text.utf8))), .integer(Int64(itemBytes)), .integer(2802)])
        #expect(rows.last?.prefix(2) == [.text("tags.json"), .integer(1)])

        // The changeset: the items' row updated, the tags' row left alone, no row per file.
        let changeset = workspace.path("c")
        let diff = try await seeder(["diff", workspace.path("v1.sqlite"), workspace.path("v2.sqlite"), "--changeset", changeset])
        #expect(diff.status == 1, "\(diff.stderr)")
        let counts = try ChangesetCounts.of(ChangesetTests.bytes(changeset))
        #expect(counts["seed_source"] == ChangesetCounts(inserts: 0, updates: 1, deletes: 0))
        #expect(counts["item"] == ChangesetCounts(inserts: 6, updates: 31, deletes: 4))
        #expect(counts["tag"] == nil)

        // Applied, it gives the new seed's rows, seed_source's included.
        let patched = workspace.path("patched.sqlite")
        let patch = try await seeder(["patch", workspace.path("v1.sqlite"), changeset, "-o", patched])
        #expect(patch.status == 0, "\(patch.stderr)")
        try ChangesetTests.expectSameRows(patched, workspace.path("v2.sqlite"), "items")
    }

    /// `provenance: files` keeps a row per file, `files` 1, with the report's digests; a typo in
    /// its value is an error at it.
    @Test func provenanceFilesKeepsARowPerFileAndATypoIsPlaced() async throws {
        let workspace = try Workspace()
        let mapping = Self.mapping.replacingOccurrences(of: "seeder: 1\n", with: "seeder: 1\nprovenance: files\n")
        let files = try await Self.build(1, named: "files", in: workspace, mapping: mapping)
        let rows = try Self.sources(workspace.path("files.sqlite"))
        #expect(rows.count == 2801)
        let expected = files.map { file -> [StoredValue] in
            [
                .text(file["path"] as! String), .integer(1), .text(file["sha256"] as! String),
                .integer(Int64(file["bytes"] as! Int)), .integer(Int64(file["records"] as! Int)),
            ]
        }
        #expect(rows == expected.sorted { $0.lexicographicallyPrecedes($1) })
        // inspect reads them as files.
        let inspect = try await seeder(["inspect", workspace.path("files.sqlite"), "--json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")

        try workspace.write("typo.yaml", Self.mapping.replacingOccurrences(of: "seeder: 1\n", with: "seeder: 1\nprovenance: file\n"))
        let run = try await seeder(["build", workspace.path("typo.yaml"), workspace.path("dumps-1"), "-o", workspace.path("typo.sqlite")])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                workspace.path("typo.yaml")
                    + ":2:13: error: unknown value 'file' for 'provenance' (did you mean 'files'?); expected sources or files"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("typo.sqlite")))
    }

    /// Rewrites the seed at `path`'s `seed_source` as seeders before sources had rows wrote it:
    /// four columns, a row per file, as the report lists them.
    static func makeFirstLayout(_ path: String, files: [[String: Any]]) throws {
        let database = try RawDatabase(path)
        try database.execute("DROP TABLE seed_source")
        try database.execute(
            "CREATE TABLE \"seed_source\" (\n  \"path\" TEXT PRIMARY KEY NOT NULL,\n  \"sha256\" TEXT NOT NULL,\n"
                + "  \"bytes\" INTEGER NOT NULL,\n  \"records\" INTEGER NOT NULL\n)")
        try database.execute("BEGIN")
        for file in files {
            try database.execute(
                "INSERT INTO seed_source VALUES (?, ?, ?, ?)",
                [
                    .text(file["path"] as! String), .text(file["sha256"] as! String), .integer(Int64(file["bytes"] as! Int)),
                    .integer(Int64(file["records"] as! Int)),
                ])
        }
        try database.execute("COMMIT")
        try database.execute("VACUUM")
    }

    /// A seed shipped with the first layout reads, diffs against today's, and patches to it: the
    /// changeset deletes its file rows and inserts the source rows, and `seeder patch` upgrades
    /// the table first, ending with the new seed's rows and table exactly. The other way, today's
    /// seed to one of the first layout, is refused: its rows do not fit.
    @Test func aSeedOfTheFirstLayoutDiffsAndPatchesToTodays() async throws {
        let workspace = try Workspace()
        let files = try await Self.build(1, named: "v1", in: workspace)
        _ = try await Self.build(2, named: "v2", in: workspace)
        let old = workspace.path("v1.sqlite"), new = workspace.path("v2.sqlite")
        try Self.makeFirstLayout(old, files: files)

        let inspect = try await seeder(["inspect", old])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let diff = try await seeder(["diff", old, new, "--changeset", workspace.path("c")])
        #expect(diff.status == 1, "\(diff.stderr)")
        let counts = try ChangesetCounts.of(ChangesetTests.bytes(workspace.path("c")))
        // The items' 2,800 file rows go, their source row comes; `tags.json`, a file and a source
        // by one path, is updated.
        #expect(counts["seed_source"] == ChangesetCounts(inserts: 1, updates: 1, deletes: 2800))

        let patched = workspace.path("patched.sqlite")
        let patch = try await seeder(["patch", old, workspace.path("c"), "-o", patched])
        #expect(patch.status == 0, "\(patch.stderr)")
        try ChangesetTests.expectSameRows(patched, new, "first layout")
        let schema = "SELECT sql FROM sqlite_master WHERE name = 'seed_source'"
        #expect(try RawDatabase(patched).rows(schema) == RawDatabase(new).rows(schema))
        #expect(try Self.sources(patched) == Self.sources(new))

        let back = try await seeder(["diff", new, old, "--changeset", workspace.path("back")])
        #expect(back.status == 2)
        #expect(
            back.stderr
                == "error: cannot write a changeset: the old seed's seed_source has columns (path, files, sha256, bytes, records), "
                + "the new seed's (path, sha256, bytes, records), an older layout; build the new seed with this seeder, or ship it whole\n")
    }

    /// Two sources with one glob (a file read twice, at two key paths) share a row: each file
    /// counted once, the records of both; its digest is what docs/seed.md's shell lines print.
    @Test func sourcesWithOneGlobShareARowWhoseDigestTheDocsRecompute() async throws {
        let workspace = try Workspace()
        // The tags are in the items' files, each under `tag`.
        let mapping = Self.mapping.replacingOccurrences(
            of: "  - path: tags.json\n    entity: Tag", with: "  - path: items/*.json\n    entity: Tag\n    keyPath: tag")
        #expect(mapping != Self.mapping)
        try workspace.write("mapping.yaml", mapping)
        for id in 1...2 {
            try workspace.write(
                "dumps/items/\(id).json", #"{"id": \#(id), "name": "item \#(id)", "tag": {"id": \#(id), "label": "t\#(id)"}}"#)
        }
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: workspace.root)
        try #require(run.status == 0, "\(run.stderr)")
        let docs = try String(contentsOfFile: repository + "/docs/seed.md", encoding: .utf8)
        // The two lines of the example, `$ ` and the line break taken out.
        let lines = docs.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0.hasPrefix("$ printf 'items/1.json") })
        let command = lines[first].dropFirst(2).dropLast() + lines[first + 1]
        let shell = try await program("/bin/sh", ["-c", String(command)], in: workspace.root)
        #expect(shell.status == 0, "\(shell.stderr)")
        let digest = String(shell.stdout.prefix(64))
        let bytes = try ["1", "2"].reduce(0) { total, id in
            total + (try Data(contentsOf: URL(fileURLWithPath: workspace.path("dumps/items/\(id).json")))).count
        }
        #expect(
            try Self.sources(workspace.path("seed.sqlite")) == [
                [.text("items/*.json"), .integer(2), .text(digest), .integer(Int64(bytes)), .integer(4)]
            ])
    }
}
