import Foundation
import Testing

/// docs/guides/fetching.md, What fetch guarantees: each promise names the tests that hold it,
/// and each of those tests exists, so the table cannot name a test that was renamed or removed.
struct FetchGuaranteesDocsTests {
    @Test func everyPromiseNamesATestThatExists() throws {
        let guide = try String(contentsOfFile: repository + "/docs/guides/fetching.md", encoding: .utf8)
        let section = try #require(guide.range(of: "## What fetch guarantees"))
        let rows = guide[section.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| promise") }
        #expect(rows.count >= 13)
        var sources: [String: String] = [:]
        for folder in ["SeederCLITests", "SeederFetchTests", "SeederCoreTests", "SeederStoreTests", "SeedInstallerTests"] {
            let path = repository + "/Tests/" + folder
            for file in try FileManager.default.contentsOfDirectory(atPath: path) where file.hasSuffix(".swift") {
                sources[String(file.dropLast(6)), default: ""] += try String(contentsOfFile: path + "/" + file, encoding: .utf8)
            }
        }
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
                let text = sources.first { $0.key == suite || $0.key.hasPrefix(suite + "+") }?.value ?? ""
                #expect(text.contains("struct \(suite)") || text.contains("extension \(suite)"), "no suite \(suite): \(row)")
                #expect(text.contains("func \(test)("), "no test \(name): \(row)")
            }
        }
    }
}
