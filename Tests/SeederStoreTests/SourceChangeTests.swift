import Foundation
import SeederCore
import Testing

@testable import SeederStore

/// `SourceChange.changes`: how `seed_source` rows of either layout, a row per file or a row per
/// source, read as a line per source (docs/commands.md, `seeder diff`: Sources).
struct SourceChangeTests {
    typealias Source = SeedCatalog.Source

    /// `items/00.json` ... as a row per file, each its own digest.
    static func files(_ count: Int, folder: String = "items", records: Int = 1, salt: String = "") -> [Source] {
        (0..<count).map { index in
            let path = "\(folder)/\(index).json"
            return Source(path: path, sha256: SHA256.hex(Array((path + salt).utf8)), bytes: 10, records: records)
        }
    }

    /// The row a per-source seed holds for `files` read under `glob`: their digest over
    /// "path\nsha256\n" each, in order.
    static func sourceRow(_ glob: String, _ files: [Source]) -> Source {
        var digest = SHA256()
        for file in files { digest.update("\(file.path)\n\(file.sha256)\n".utf8) }
        return Source(
            path: glob, files: files.count, sha256: digest.finalizeHex(), bytes: files.reduce(0) { $0 + $1.bytes },
            records: files.reduce(0) { $0 + $1.records }, scope: .source)
    }

    @Test func filesOfAFolderGroupAsOneSource() {
        let old = Self.files(5) + [Source(path: "users.json", sha256: "a", bytes: 3, records: 1)]
        var new = Self.files(4, salt: "2") + [Source(path: "users.json", sha256: "b", bytes: 4, records: 2)]
        new[0] = old[0]
        let changes = SourceChange.changes(old: old, new: new)
        #expect(changes.map(\.path) == ["items/*.json", "users.json"])
        #expect(changes[0].files == SourceChange.FileCounts(changed: 3, added: 0, removed: 1))
        #expect(SeedDiffWriter.textLine(changes[0]) == "~ items/*.json: 3 files changed, 1 removed; bytes 50 -> 40, records 5 -> 4")
        #expect(SeedDiffWriter.textLine(changes[1]) == "~ users.json: contents changed; bytes 3 -> 4, records 1 -> 2")
    }

    @Test func sourceRowsCompareByTheirTotals() throws {
        let old = [Self.sourceRow("items/*.json", Self.files(3))]
        let new = [Self.sourceRow("items/*.json", Self.files(4, salt: "2"))]
        let changes = SourceChange.changes(old: old, new: new)
        #expect(changes.count == 1)
        #expect(changes[0].files == nil)
        let line = "~ items/*.json: contents changed; files 3 -> 4, bytes 30 -> 40, records 3 -> 4"
        #expect(SeedDiffWriter.textLine(changes[0]) == line)
        // docs/commands.md's example of the line.
        let docs = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/commands.md"),
            encoding: .utf8)
        #expect(docs.contains("`\(line)`"))
        #expect(SourceChange.changes(old: old, new: old).isEmpty)
    }

    /// A seed of a row per file against one of a row per source: the old files go under the new
    /// glob, their digest recomputed, so that the same files read as the same source.
    @Test(arguments: [false, true])
    func perFileRowsGoUnderTheOtherSeedsGlob(_ perSourceIsOld: Bool) {
        let files = Self.files(3, folder: "data/pages") + [Source(path: "data/pages/extra.json", sha256: "e", bytes: 1, records: 0)]
        let perSource = [Self.sourceRow("data/*/*.json", files)]
        let (old, new) = perSourceIsOld ? (perSource, files) : (files, perSource)
        #expect(SourceChange.changes(old: old, new: new).isEmpty)
        var changedFiles = files
        changedFiles[1].sha256 = "other"
        let changes = SourceChange.changes(old: perSourceIsOld ? perSource : changedFiles, new: perSourceIsOld ? changedFiles : perSource)
        #expect(changes.map(\.path) == ["data/*/*.json"])
        #expect(changes[0].contentsChanged)
        #expect(SeedDiffWriter.textLine(changes[0]) == "~ data/*/*.json: contents changed")
    }

    /// Named files stand alone; many files named by a slug in one folder are one source.
    @Test func namedFilesStandAloneAndSlugFoldersGroup() {
        let named = ["users.json", "task_list.json"].map { Source(path: $0, sha256: "a", bytes: 1, records: 1) }
        let slugs = (0..<11).map {
            Source(path: "comics/name-\(Character(UnicodeScalar(97 + $0)!)).json", sha256: "a", bytes: 1, records: 1)
        }
        #expect(SourceChange.sources(named + slugs).map(\.path) == ["comics/*.json", "task_list.json", "users.json"])
        #expect(SourceChange.sources(named + slugs.prefix(10)).count == 12)
    }

    @Test func inspectGroupsOneSeedsRows() {
        let summary = SourceChange.sources(
            Self.files(3) + Self.files(2, folder: "tags") + [Source(path: "a.json", sha256: "x", bytes: 2, records: 2)])
        #expect(summary.map(\.path) == ["a.json", "items/*.json", "tags/*.json"])
        #expect(summary.map(\.totals.files) == [1, 3, 2])
    }
}
