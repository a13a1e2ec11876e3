import Foundation
import Testing

@testable import SeederCore

/// Every input in fuzz/corpus replayed through its fuzz target's body, without the sanitizers
/// (SQLite's fuzzcheck): a crash the fuzzer once found stays fixed (fuzz/README.md).
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus")

    /// The corpus files of a target, sorted by name.
    static func files(of target: String) throws -> [URL] {
        let folder = corpus.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTargets.names)
    func replaysTheCorpus(_ target: String) throws {
        let files = try Self.files(of: target)
        #expect(files.count >= 5, "fuzz/corpus/\(target) holds \(files.count) files")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(FuzzTargets.run(target, bytes) == [], "fuzz/corpus/\(target)/\(file.lastPathComponent)")
        }
    }

    /// The mapper target maps with a mapping that loads, and its seed dump maps without a
    /// diagnostic, so the target reaches past the first error.
    @Test func theMapperTargetsMappingLoads() throws {
        let sink = DiagnosticSink()
        let mapping = MappingLoader().load(yaml: FuzzTargets.mapperYAML, file: "mapping.yaml", diagnostics: sink)
        #expect(sink.diagnostics.map(\.description) == [])
        #expect(mapping?.entities.map(\.name) == ["User", "Project", "Task", "Tag", "Card", "Note"])
    }

    /// The targets report broken invariants rather than pass everything: a document whose text
    /// is not the input's, a location counted wrong, a refused mapping without a located error.
    @Test func theTargetsReportBrokenInvariants() throws {
        var problems: [String] = []
        let document = try JSONDocument(parsing: #"[{"a": 1}]"#)
        FuzzTargets.checkDocument(document, in: Array(#" [{"a": 2}]"#.utf8), problems: &problems)
        FuzzTargets.checkOffset(1, startsValueOf: .object, in: Array("[1]".utf8), problems: &problems)
        FuzzTargets.checkLocation(2, in: Array("a\nb".utf8), problems: &problems)
        #expect(problems.count == 2)
        #expect(FuzzTargets.run("nothing", []) == ["no fuzz target 'nothing'"])
    }
}
