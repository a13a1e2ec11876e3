import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederInfer
@testable import SeederStore

/// `seeder infer` on files whose root is an object (pages, exports) and on files of nothing
/// (docs/commands.md, `seeder infer`): records found where they are, streamed, and counted per
/// source.
struct InferObjectRootTests {
    /// Object-root files streamed (every file is over a limit of 0 bytes), and parsed whole.
    static let limits = [0, DumpObservation.wholeFileLimit]

    /// Drafts as `inferDraft` does, object-root files over `limit` bytes streamed.
    func draft(_ files: [String: String], limit: Int) throws -> (draft: String, workspace: Workspace) {
        let workspace = try Workspace()
        for (name, text) in files { try workspace.write("dumps/" + name, text) }
        let report = infer(workspace, limit: limit)
        #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))")
        return (try #require(report.draft), workspace)
    }

    func infer(_ workspace: Workspace, limit: Int) -> InferReport {
        var options = InferOptions(dumps: workspace.path("dumps"))
        options.wholeFileLimit = limit
        return MappingInferrer.infer(options)
    }

    /// A source's comment counts its own records, not its entity's: two sources of one entity
    /// say 2 and 3, the entity 5.
    @Test(arguments: limits) func eachSourceCountsItsOwnRecords(limit: Int) throws {
        let (draft, workspace) = try draft(
            [
                "page-1.json": #"[{"id": 1}, {"id": 2}]"#,
                "page-2.json": #"{"data": {"total": 3, "results": [{"id": 3}, {"id": 4}, {"id": 5}]}}"#,
            ], limit: limit)
        let lines = draft.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("Record: # 5 records"))
        #expect(lines.contains("- path: page-1.json # 2 records"))
        #expect(lines.contains("- path: page-2.json # 3 records"))
        #expect(try buildDraft(draft, in: workspace).values.reduce(0, +) == 5)
    }

    /// An export of several collections: each is a source, its records counted apart.
    @Test(arguments: limits) func exportCollectionsAreCountedApart(limit: Int) throws {
        let (draft, workspace) = try draft(
            [
                "export.json": #"""
                {"users": {"u1": {"name": "Ann"}, "u2": {"name": "Bo"}},
                 "posts": {"p1": {"title": "a", "author": "u1"}, "p2": {"title": "b", "author": "u2"}, "p3": {"title": "c", "author": "u1"}}}
                """#
            ], limit: limit)
        #expect(draft.contains("keyPath: users"))
        #expect(draft.contains("keyPath: posts"))
        let comments = draft.split(separator: "\n").filter { $0.contains("- path: export.json") }
        #expect(comments.count == 2)
        #expect(comments.first?.hasSuffix("# 2 records") == true)
        #expect(comments.last?.hasSuffix("# 3 records") == true)
        #expect(try buildDraft(draft, in: workspace) == ["User": 2, "Post": 3])
    }

    /// A compressed page (gzip, zstd) is read twice (its layout, then its records), decompressed each time.
    @Test(arguments: limits) func compressedPagesAreFoundAndRead(limit: Int) async throws {
        let workspace = try Workspace()
        let records = (1...500).map { #"{"id": \#($0), "name": "n\#($0)"}"# }.joined(separator: ",")
        try workspace.write("dumps/items.json", #"{"meta": {"count": 500}, "items": [\#(records)]}"#)
        for compressor in Compressor.allCases { try await compressor.compress(workspace.path("dumps/items.json")) }
        try FileManager.default.removeItem(atPath: workspace.path("dumps/items.json"))
        try FileManager.default.moveItem(atPath: workspace.path("dumps/items.json.zst"), toPath: workspace.path("dumps/things.json.zst"))
        let report = infer(workspace, limit: limit)
        #expect(report.outcome == .success, "\(report.diagnostics)")
        let draft = try #require(report.draft)
        #expect(draft.contains("path: items.json.gz") && draft.contains("path: things.json.zst"))
        #expect(draft.components(separatedBy: "keyPath: items").count == 3)
        #expect(report.records == 1000)
        #expect(try buildDraft(draft, in: workspace) == ["Item": 500, "Thing": 500])
    }

    /// A file that holds no JSON value is left out, with a warning and a comment; the draft
    /// builds on the rest (build would stop at it, and no source names it).
    @Test func aFileOfNothingIsLeftOut() throws {
        let workspace = try Workspace()
        try workspace.write("dumps/users.json", #"[{"id": 1}]"#)
        try workspace.write("dumps/empty.json", "")
        try workspace.write("dumps/blank.json", " \n")
        let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps")))
        #expect(report.outcome == .success)
        #expect(
            report.diagnostics.map(\.description).sorted() == [
                "\(workspace.path("dumps/blank.json")): warning: this dump holds no JSON value (build would stop at it); it is left out",
                "\(workspace.path("dumps/empty.json")): warning: this dump holds no JSON value (build would stop at it); it is left out",
            ])
        let draft = try #require(report.draft)
        #expect(draft.contains("# empty.json holds no JSON value: it is left out"))
        #expect(!draft.contains("path: empty.json"))
        #expect(try buildDraft(draft, in: workspace) == ["User": 1])
    }

    /// An empty file among numbered pages: the glob would name it, so the others are listed.
    @Test func anEmptyPageBreaksTheGlob() throws {
        let (draft, workspace) = try inferDraft([
            "page-1.json": #"[{"id": 1}]"#, "page-2.json": "", "page-3.json": #"[{"id": 3}]"#,
        ])
        #expect(!draft.contains("page-*.json"))
        #expect(draft.contains("- path: page-1.json") && draft.contains("- path: page-3.json"))
        #expect(!draft.contains("- path: page-2.json"))
        #expect(try buildDraft(draft, in: workspace).values.reduce(0, +) == 2)
    }
}
