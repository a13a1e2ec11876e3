import Foundation
import Testing

/// The guarantee tables of the docs (docs/guides/fetching.md, What fetch guarantees, and
/// docs/trust.md): each promise names the tests that hold it, and each of those tests exists, so
/// a table cannot name a test that was renamed or removed.
struct GuaranteesDocsTests {
    @Test(arguments: [
        ("docs/guides/fetching.md", "## What fetch guarantees", 13),
        ("docs/trust.md", "## What seeder guarantees", 20),
    ])
    func everyPromiseNamesATestThatExists(page: String, heading: String, atLeast: Int) throws {
        let text = try String(contentsOfFile: repository + "/" + page, encoding: .utf8)
        let section = try #require(text.range(of: heading), "\(page) has no \(heading)")
        let rows = text[section.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| promise") }
        #expect(rows.count >= atLeast, "\(page): \(rows.count) promises")
        let sources = try testSources()
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let named = try #require(cells.last).split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map(\.element)
            #expect(!named.isEmpty, "a promise without a test: \(row)")
            for name in named {
                let parts = name.split(separator: ".")
                guard parts.count == 2 else { continue }
                let suite = String(parts[0])
                let test = String(parts[1])
                // The files that declare the suite or extend it, whatever they are named.
                let text = sources.values.filter { $0.contains("struct \(suite) ") || $0.contains("extension \(suite) ") }.joined()
                #expect(!text.isEmpty, "no suite \(suite): \(row)")
                #expect(text.contains("func \(test)("), "no test \(name): \(row)")
            }
        }
    }

    /// Every test file's text, by its path.
    private func testSources() throws -> [String: String] {
        var sources: [String: String] = [:]
        let tests = repository + "/Tests"
        for folder in try FileManager.default.contentsOfDirectory(atPath: tests) {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: tests + "/" + folder) else { continue }
            for file in files where file.hasSuffix(".swift") {
                sources[folder + "/" + file] = try String(contentsOfFile: tests + "/" + folder + "/" + file, encoding: .utf8)
            }
        }
        return sources
    }
}
