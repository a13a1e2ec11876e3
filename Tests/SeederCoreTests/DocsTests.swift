import Foundation
import SeederTestSupport
import Testing

@testable import SeederCore

/// The reference cannot fall behind the code: every key, type, operator, date format, storage
/// and policy the loader accepts is named in `docs/mapping.md`.
struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func reference() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/mapping.md"), encoding: .utf8)
    }

    static var names: [String] {
        let keys = MappingLoader.Keys.self
        return keys.document + keys.naming + keys.entity + keys.attribute + keys.relationship + keys.source + keys.selector + keys.schema
            + keys.search + keys.compatibility + keys.fetchDefaults + keys.fetchSource + keys.paginatorForms + keys.paginateNext
            + keys.paginateCursor + keys.paginateOffset + keys.paginatePage + FetchMethod.allCases.map(\.rawValue)
            + SearchEngine.allCases.map(\.rawValue) + ["triggers"]
            + AttributeType.allCases.map(\.rawValue) + DateStorage.allCases.map(\.rawValue) + DateFormat.names
            + CollectionOperator.allCases.map { "@" + $0.rawValue } + ["@" + KeyPath.fileName, "@" + KeyPath.whereName]
            + ConflictPolicy.allCases.map(\.rawValue)
            + NullPolicy.allCases.map(\.rawValue) + MissingPolicy.allCases.map(\.rawValue)
            + [NamingStyle.snakeCase.rawValue, NamingStyle.asIs.rawValue, ".json", ".jsonl", ".ndjson"]
            + DumpCompression.allCases.compactMap(\.suffix)
    }

    @Test(arguments: names)
    func mappingReferenceNames(_ name: String) throws {
        let text = try Self.reference()
        #expect(
            text.contains("`\(name)`") || text.contains("`\(name).K`") || text.contains("`\(name).N`") || text.contains("`\(name):"),
            "docs/mapping.md does not mention `\(name)`")
    }
}

/// Every whole mapping the docs show (a ```` ```yaml ```` block that begins with `seeder: 1`,
/// after comments) loads without an error or a warning, so an example cannot use a key the loader
/// no longer takes, or take a shape it refuses. The dumps and files it names are not read here
/// (the guides' own tests build the ones they have); blocks that elide a part with `...` are no
/// whole mapping.
struct DocsMappingExamplesTests {
    struct Example: CustomStringConvertible, Sendable {
        var page: String
        var line: Int
        var yaml: String
        var description: String { "\(page):\(line)" }
    }

    static let examples: [Example] = {
        return ConsoleTranscript.pages(repository: DocsTests.root.path).flatMap { page -> [Example] in
            guard let text = try? String(contentsOf: DocsTests.root.appendingPathComponent(page), encoding: .utf8) else { return [] }
            var examples: [Example] = []
            var line = 1
            for (index, part) in text.components(separatedBy: "```yaml\n").enumerated() {
                // The fence's own line, then the part's.
                defer { line += part.components(separatedBy: "\n").count - 1 + 1 }
                guard index > 0, let yaml = part.components(separatedBy: "```").first else { continue }
                let lines = yaml.components(separatedBy: "\n")
                guard lines.first(where: { !$0.hasPrefix("#") }) == "seeder: 1",
                    !lines.contains(where: { $0.prefix { $0 != "#" }.contains("...") })
                else { continue }
                examples.append(Example(page: page, line: line, yaml: yaml))
            }
            return examples
        }
    }()

    @Test func theDocsShowWholeMappings() {
        // A page that stops showing whole mappings (or a fence this test no longer reads) must
        // not pass unnoticed.
        #expect(Self.examples.count >= 15, "\(Self.examples)")
    }

    @Test(arguments: examples)
    func loads(_ example: Example) {
        let diagnostics = DiagnosticSink()
        let mapping = MappingLoader().load(yaml: example.yaml, file: example.page, diagnostics: diagnostics)
        #expect(mapping != nil)
        #expect(diagnostics.diagnostics.map(\.description) == [], "\(example)")
    }
}
