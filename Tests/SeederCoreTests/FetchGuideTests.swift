import Foundation
import Testing

@testable import SeederCore

/// The worked mappings of docs/guides/fetching.md load as they are written: each fenced YAML
/// block that is a whole mapping (`seeder: 1`), with its `fetch:` blocks.
struct FetchGuideTests {
    static func mappings() throws -> [String] {
        let text = try String(contentsOf: DocsTests.root.appendingPathComponent("docs/guides/fetching.md"), encoding: .utf8)
        return text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
            .filter { $0.hasPrefix("seeder: 1") }
    }

    @Test func everyMappingLoads() throws {
        let mappings = try Self.mappings()
        #expect(mappings.count == 4)
        for yaml in mappings {
            let (mapping, messages) = loadMapping(yaml)
            #expect(messages == [], "\(yaml)")
            #expect(mapping?.sources?.contains { $0.fetch != nil } == true)
        }
    }
}
