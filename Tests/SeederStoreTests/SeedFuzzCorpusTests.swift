import Foundation
import Testing

@testable import SeederStore

/// Every input in fuzz/corpus/seed replayed through the seed fuzz target's body, without the
/// sanitizers: a crash the fuzzer once found stays fixed (fuzz/README.md).
struct SeedFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus/seed")

    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func replaysTheCorpus() throws {
        let files = try Self.files()
        #expect(files.count >= 10, "fuzz/corpus/seed holds \(files.count) files")
        for file in files {
            let problems = SeedFileFuzzing.run(try [UInt8](Data(contentsOf: file)))
            #expect(problems == [], "fuzz/corpus/seed/\(file.lastPathComponent)")
        }
    }

    /// The seeds reach what they are for: a real seed is read whole and diffed with itself, a
    /// hostile one is refused with the place of its wrong value.
    @Test func theSeedsReachTheirParts() throws {
        func transcript(_ name: String) throws -> [String] {
            let path = NSTemporaryDirectory() + "seeder-fuzz-corpus-" + UUID().uuidString
            try Data(contentsOf: Self.corpus.appendingPathComponent(name)).write(to: URL(fileURLWithPath: path))
            defer { unlink(path) }
            return DiffFormat.allCases.flatMap { format in
                SeedFileFuzzing.outcome(path, format: format).transcript.map { $0.replacingOccurrences(of: path, with: "FILE") }
            }
        }
        let pods = try transcript("pods.db")
        #expect(pods.first?.hasPrefix("FILE: 11264 bytes, schema version 1, 2 tables\n") == true, "\(pods.first ?? "")")
        #expect(pods.filter { $0.hasPrefix("diff") } == ["diff text: [\"Pod 4\"]", "diff json: [\"Pod 4\"]", "diff markdown: [\"Pod 4\"]"])
        let blob = try transcript("metadata-value-blob.db")
        #expect(
            blob.first == "inspect: FILE: error: seed_metadata, row 2 (key \"format\"), column value: expected text, found a blob (2 bytes)"
        )
        #expect(try transcript("not-sqlite.txt").first == "inspect: FILE: error: not an SQLite database")
    }

    /// The checks report what they are for: an error of another type, one naming another file.
    @Test func theChecksReportBrokenInvariants() {
        #expect(SeedFileFuzzing.check(CocoaError(.fileReadUnknown), "a.db", "inspect").count == 1)
        #expect(
            SeedFileFuzzing.check(SeedFileError(path: "b.db", reason: "why"), "a.db", "inspect")
                == ["inspect: the error names b.db, not the file"])
        #expect(SeedFileFuzzing.check(SeedFileError(path: "a.db", reason: ""), "a.db", "inspect") == ["inspect: an error without a reason"])
    }
}
