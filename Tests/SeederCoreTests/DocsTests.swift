import Foundation
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
