import Foundation
import SeederTestSupport
import Testing

/// `seeder diff` on a service fetched as 2,800 one-record files (docs/commands.md, `seeder diff`:
/// Output order, Sources, Markdown): the records' changes come before a line per source, every
/// list is bounded, and the markdown fits its budget.
@Suite(.serialized)
struct DiffReviewTests {
    /// Two releases of 2,800 files in 28 folders named by letters (`items/h/0712.json`): in the
    /// second, 2,728 files differ in their bytes only, 700 of those also change a record's note, 3
    /// are gone. `v1` and `v2` keep a row per file (`provenance: files`: a source a folder, by the
    /// diff's grouping); `v1-sources` and `v2-sources` a row per source, `items/*/*.json`.
    static var releases: Workspace {
        get async throws { try await built.value }
    }

    /// `releases`, built once, by the first test that asks.
    private static let built = Task {
        let scratch = try Workspace(directories: ["v1/items", "v2/items"])
        let mapping = """
            entities:
              Item: { attributes: { id: integer, name: string, note: string } }
            sources:
              - { path: items/*/*.json, entity: Item }
            """
        try! scratch.write("files.yaml", "seeder: 1\nprovenance: files\n" + mapping)
        try! scratch.write("sources.yaml", "seeder: 1\n" + mapping)
        for id in 0..<2_800 {
            let folder = "items/" + Self.folder(id / 100), file = String(format: "%04d.json", id)
            for release in ["v1", "v2"] {
                try! FileManager.default.createDirectory(atPath: scratch.path("\(release)/\(folder)"), withIntermediateDirectories: true)
            }
            let note = "note \(id)"
            try! scratch.write("v1/\(folder)/\(file)", #"[{"id": \#(id), "name": "item \#(id)", "note": "\#(note)"}]"#)
            if id >= 2_797 { continue }
            let changed = id < 700 ? note + ", " + String(repeating: "revised ", count: 20) : note
            // Bytes only: the same record written with other spacing.
            let spacing = id < 2_728 ? "\n" : ""
            try! scratch.write("v2/\(folder)/\(file)", #"[{"id": \#(id), "name": "item \#(id)", "note": "\#(changed)"}]\#(spacing)"#)
        }
        for release in ["v1", "v2"] {
            for (mapping, seed) in [("files.yaml", release), ("sources.yaml", release + "-sources")] {
                let run = try await seeder(["build", mapping, release, "-o", "\(seed).sqlite", "--quiet"], in: scratch.root)
                precondition(run.status == 0, run.stderr)
            }
        }
        return scratch
    }

    /// `a` ... `z`, `za`, `zb`.
    static func folder(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz").map(String.init)
        return index < 26 ? letters[index] : "z" + letters[index - 26]
    }

    /// The markdown comment: within its budget, the first record change early, the cut list
    /// ending with the count it left out, a line per folder of files, and the note of the cut last.
    @Test(arguments: [nil, 20_000])
    func markdownFitsItsBudget(_ maxBytes: Int?) async throws {
        let budget = maxBytes ?? 60_000
        let run = try await seeder(
            ["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown"] + (maxBytes.map { ["--max-bytes", String($0)] } ?? []),
            in: Self.releases.root)
        #expect(run.status == 1, "\(run.stderr)")
        let bytes = run.stdout.utf8.count
        #expect(bytes <= budget && bytes > budget - 2_000, "\(bytes) bytes")
        let firstChange = try #require(run.stdout.range(of: "- changed `Item` `0`"))
        #expect(run.stdout.utf8.distance(from: run.stdout.startIndex, to: firstChange.lowerBound) < 2_000)
        // Listed and left out make the 700 changed and 3 removed records.
        let listed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("- changed `Item` ") || $0.hasPrefix("- removed `Item` ") }
        let more = try #require(run.stdout.firstMatch(of: #/\n- … ([0-9,]+) more not listed\n\n</details>\n/#))
        #expect(listed.count + Int(more.1.replacingOccurrences(of: ",", with: ""))! == 703)
        // Sources after the records: a line a folder, none a file.
        let sources = try #require(run.stdout.range(of: "\n**Sources**\n"))
        #expect(firstChange.lowerBound < sources.lowerBound)
        #expect(run.stdout.contains("- `~ items/a/*.json: 100 files changed; bytes 4,970 -> 21,270`\n"))
        #expect(run.stdout.contains("- `~ items/zb/*.json: 28 files changed, 3 removed; bytes 5,600 -> 5,460, records 100 -> 97`\n"))
        #expect(!run.stdout.contains("0001.json"))
        // docs/commands.md's example of the line.
        let docs = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        #expect(docs.contains("`~ items/zb/*.json: 28 files changed, 3 removed; bytes 5,600 -> 5,460, records 100 -> 97`"))
        #expect(
            run.stdout.hasSuffix(
                "\n*Shortened to fit \(budget == 60_000 ? "60,000" : "20,000") bytes (`--max-bytes`): `seeder diff OLD NEW` prints the whole diff; "
                    + "in GitHub Actions, the run's summary holds more.*\n"))
        // Valid markdown: every details closed, no code span cut.
        #expect(run.stdout.components(separatedBy: "<details>").count == run.stdout.components(separatedBy: "</details>").count)
        for line in run.stdout.split(separator: "\n") { #expect(line.filter { $0 == "`" }.count % 2 == 0, "\(line)") }
    }

    /// Text: the first record change before the first source line; a line per folder.
    @Test func textListsRecordsBeforeSources() async throws {
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--limit", "5"], in: Self.releases.root)
        #expect(run.status == 1, "\(run.stderr)")
        let record = try #require(run.stdout.range(of: "\n  ~ Item 0: name \"item 0\"\n"))
        let sources = try #require(run.stdout.range(of: "\nsources\n"))
        #expect(record.lowerBound < sources.lowerBound)
        let metadata = try #require(run.stdout.range(of: "\nmetadata\n"))
        #expect(sources.lowerBound < metadata.lowerBound)
        // --limit bounds the sources as it bounds the records.
        #expect(
            run.stdout[sources.upperBound..<metadata.lowerBound] == """
                  ~ items/a/*.json: 100 files changed; bytes 4,970 -> 21,270
                  ~ items/b/*.json: 100 files changed; bytes 5,300 -> 21,600
                  ~ items/c/*.json: 100 files changed; bytes 5,300 -> 21,600
                  ~ items/d/*.json: 100 files changed; bytes 5,300 -> 21,600
                  ~ items/e/*.json: 100 files changed; bytes 5,300 -> 21,600
                  … 23 more not listed (--limit)

                """)
        #expect(run.stdout.contains("\n  … 698 more not listed (--limit)\n"))
    }

    /// JSON: the source list bounded by --limit, with the count it left out.
    @Test func jsonBoundsTheSources() async throws {
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--json", "--limit", "2"], in: Self.releases.root)
        #expect(run.status == 1, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let sources = try #require(document["sources"] as? [[String: Any]])
        #expect(sources.map { $0["path"] as? String } == ["items/a/*.json", "items/b/*.json"])
        #expect(sources[0]["files"] as? [String: Int] == ["changed": 100, "added": 0, "removed": 0])
        #expect(document["sourcesNotListed"] as? Int == 26)
    }

    /// With --entity, sources (the whole seed's) are counted, not listed.
    @Test func entityCountsTheSources() async throws {
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--entity", "Item", "--limit", "1"], in: Self.releases.root)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("\nsources: 28 changed, not listed with --entity (sources are the whole seed's)\n"))
        #expect(!run.stdout.contains("items/a/*.json"))
    }

    /// --max-bytes is a positive number of at least 2,000, for markdown only: else status 64.
    @Test(arguments: [
        ["--max-bytes", "1999", "--format", "markdown"], ["--max-bytes", "0"], ["--max-bytes", "x"], ["--max-bytes", "30000"],
    ])
    func maxBytesIsValidated(_ arguments: [String]) async throws {
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite"] + arguments, in: Self.releases.root)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stdout == "")
    }

    /// The least --max-bytes is taken, and kept.
    @Test func theLeastMaxBytesIsKept() async throws {
        let run = try await seeder(
            ["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--max-bytes", "2000"], in: Self.releases.root)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.utf8.count <= 2_000 && run.stdout.hasSuffix("the run's summary holds more.*\n"))
        #expect(run.stdout.components(separatedBy: "<details>").count == run.stdout.components(separatedBy: "</details>").count)
    }

    /// A row per source on both sides: one line for the source, its totals, no file counts.
    @Test func perSourceSeedsShowALineASource() async throws {
        let run = try await seeder(["diff", "v1-sources.sqlite", "v2-sources.sqlite"], in: Self.releases.root)
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").filter { $0.contains("items/") }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("  ~ items/*/*.json: contents changed; files 2,800 -> 2,797, bytes ") == true)
        #expect(lines.first?.hasSuffix(", records 2,800 -> 2,797") == true)
    }

    /// An old seed of a row per file against a new one of a row per source: the same files read
    /// as the same source (no line); other files as the per-source seeds' line.
    @Test func perFileAgainstPerSourceReadsTheSameFilesAsTheSameSource() async throws {
        let same = try await seeder(["diff", "v1.sqlite", "v1-sources.sqlite"], in: Self.releases.root)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(!same.stdout.contains("sources"), "\(same.stdout)")
        let mixed = try await seeder(["diff", "v1.sqlite", "v2-sources.sqlite"], in: Self.releases.root)
        let perSource = try await seeder(["diff", "v1-sources.sqlite", "v2-sources.sqlite"], in: Self.releases.root)
        let sourceLines = { (run: Run) in run.stdout.split(separator: "\n").filter { $0.contains("items/") } }
        #expect(sourceLines(mixed).count == 1 && sourceLines(mixed) == sourceLines(perSource))
    }

    /// inspect: a line a source, not a file.
    @Test func inspectListsALineASource() async throws {
        let sources = try await seeder(["inspect", "v2-sources.sqlite"], in: Self.releases.root)
        #expect(
            sources.stdout.contains("\nsources\n  source          files    bytes  records\n  items/*/*.json  2,797  269,430    2,797\n"),
            "\(sources.stdout)")
        let run = try await seeder(["inspect", "v2.sqlite"], in: Self.releases.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\n  items/a/*.json     100  21,270      100\n"))
        #expect(!run.stdout.contains("0001.json"))
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "sources"))
        #expect(lines[(start + 2)...].prefix { !$0.isEmpty }.count == 28)
    }
}
