import Foundation
import SeederInfer
import Testing

/// `InferRule.all`, the list docs/commands.md (`seeder infer`, Rules) tabulates.
@Suite struct InferRulesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every rule has a corpus case that exists, a test that exists, and a row in docs/commands.md.
    @Test func everyRuleHasItsCaseItsTestAndItsRowInTheDocs() throws {
        let docs = try String(contentsOfFile: Self.repository + "/docs/commands.md", encoding: .utf8)
        let tests = try FileManager.default.subpathsOfDirectory(atPath: Self.repository + "/Tests").filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOfFile: Self.repository + "/Tests/" + $0, encoding: .utf8) }.joined()
        for rule in InferRule.all {
            #expect(
                FileManager.default.fileExists(atPath: Self.repository + "/Tests/SeederCLITests/Fixtures/" + rule.corpusCase),
                "\(rule.name)")
            let parts = rule.test.split(separator: "/")
            #expect(tests.contains("struct \(parts[0])"), "\(rule.name): \(rule.test)")
            if parts.count > 1 { #expect(tests.contains("func \(parts[1])("), "\(rule.name): \(rule.test)") }
            #expect(docs.contains("| `\(rule.name)` |"), "\(rule.name) is not in docs/commands.md")
        }
        #expect(Set(InferRule.all.map(\.name)).count == InferRule.all.count)
    }

    /// The docs' table is `InferRule.all`, row for row, in its order and with its stages: the
    /// identity and relationship rules among them are the ones `seeder infer` runs, in the order
    /// it tries them.
    @Test func theDocsTableIsTheListTheCodeRuns() throws {
        let docs = try String(contentsOfFile: Self.repository + "/docs/commands.md", encoding: .utf8)
        let rows = docs.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("` | ") }.compactMap { line -> String? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, ["grouping", "layout", "merging", "identity", "relationship"].contains(cells[1]) else { return nil }
            return cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")) + " " + cells[1]
        }
        #expect(rows == InferRule.all.map { "\($0.name) \($0.stage)" })
        #expect(
            InferRule.all.filter { $0.stage == "grouping" }.map(\.name) == ["fetched-source", "one-record-a-file", "numbered-files"])
        #expect(
            InferRule.all.filter { $0.stage == "layout" }.map(\.name) == [
                "json-api", "root-with-id-is-a-record", "keyed-export", "root-keyed-by-records", "collections-side-by-side",
                "largest-array-is-the-page", "empty-page", "object-is-one-record",
            ])
        #expect(
            InferRule.all.filter { $0.stage == "merging" }.map(\.name) == [
                "reference-to-detailed-kind", "shared-shape", "sources-of-one-kind", "named-by-url-kind",
            ])
        #expect(
            InferRule.all.filter { $0.stage == "identity" }.map(\.name) == [
                "record-keys", "id-keys", "id-in-own-url", "identity-by-name", "owned-identity", "referenced-and-detailed",
            ])
        #expect(
            InferRule.all.filter { $0.stage == "relationship" }.map(\.name) == [
                "reference-by-url", "records-keyed-by-data", "object-without-identity-is-columns", "wide-objects-are-json",
                "embedded-records", "url-reference", "id-reference", "json-fallback", "scalar-attribute", "wrapper-is-json",
            ])
    }
}
