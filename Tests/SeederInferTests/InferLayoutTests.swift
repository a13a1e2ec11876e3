import Foundation
import SeederCore
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

@testable import SeederInfer

/// A draft is a function of the dumps' values, not of their layout (docs/commands.md, `seeder
/// infer`): the same dumps compact and pretty-printed draft the same mapping.
struct InferLayoutTests {
    /// The repository's `seeds/`, whose example dump sets are inferred both ways.
    static let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("seeds").path

    /// `text` with no whitespace between tokens, or pretty-printed (two spaces a level, as
    /// GitHub's API sends it): only the whitespace outside strings changes.
    static func relayout(_ text: [UInt8], pretty: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            out.append(UInt8(ascii: "\n"))
            out += [UInt8](repeating: UInt8(ascii: " "), count: 2 * depth)
        }
        for byte in text {
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                depth += 1
                if pretty { newline() }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if pretty { newline() }
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                if pretty { newline() }
            case UInt8(ascii: ":"):
                out.append(byte)
                if pretty { out.append(UInt8(ascii: " ")) }
            default:
                out.append(byte)
            }
        }
        return out
    }

    /// Copies the dump set at `source` into `workspace/dumps`, every `.json` file laid out anew.
    static func copy(_ source: String, into workspace: Workspace, pretty: Bool) throws {
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: source) as [String]?)
        for file in files.sorted() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/" + file)))
            let target = workspace.path("dumps/" + file)
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(file.hasSuffix(".json") ? relayout(bytes, pretty: pretty) : bytes).write(to: URL(fileURLWithPath: target))
        }
    }

    /// The draft of the dumps at `workspace/dumps`, without its first line (which names the folder).
    static func draft(_ workspace: Workspace) throws -> String {
        let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps")))
        #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))")
        return try #require(report.draft).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
    }

    @Test(arguments: ["accounts", "catalog", "marvel", "pods", "social", "tasklist"])
    func anExampleDraftsAlikeCompactAndPretty(_ name: String) throws {
        let (compact, pretty) = (try Workspace(), try Workspace())
        try Self.copy(Self.seeds + "/" + name, into: compact, pretty: false)
        try Self.copy(Self.seeds + "/" + name, into: pretty, pretty: true)
        #expect(try Self.draft(compact) == Self.draft(pretty))
    }

    /// One account embedded at two depths (an issue's `user`, and its comments' `user`): its
    /// copies are indented differently when pretty-printed, and are still copies of one record,
    /// so `id` is its identity both ways.
    @Test func copiesAtTwoDepthsAreOneRecord() throws {
        let issues = """
            [{"id": 1, "title": "a", "user": {"id": 7, "login": "ann"}, "comments": [{"id": 10, "body": "x", "user": {"id": 7, "login": "ann"}}]},
             {"id": 2, "title": "b", "user": {"id": 8, "login": "bob"}, "comments": [{"id": 11, "body": "y", "user": {"id": 7, "login": "ann"}}]}]
            """
        var drafts: [String] = []
        for pretty in [false, true] {
            let workspace = try Workspace()
            try workspace.write("dumps/issues.json", String(decoding: Self.relayout(Array(issues.utf8), pretty: pretty), as: UTF8.self))
            drafts.append(try Self.draft(workspace))
        }
        #expect(drafts[0] == drafts[1])
        #expect(!drafts[1].contains("unique only within each parent"), "\(drafts[1])")
        #expect(!drafts[1].contains("embedded, no identity"), "\(drafts[1])")
    }
}
