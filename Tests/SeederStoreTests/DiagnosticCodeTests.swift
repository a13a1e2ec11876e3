import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// One input that makes a diagnostic of a code: the mapping, the dump files, the build's options.
struct CodeExample: Sendable, CustomTestStringConvertible {
    var code: DiagnosticCode
    var mapping: String
    /// Dump files by name, relative to the dumps directory.
    var dumps: [String: String] = [:]
    /// Makes what text cannot (a link, a compressed file), in the workspace (its root is the argument).
    var prepare: @Sendable (String) async throws -> Void = { _ in }
    var configure: @Sendable (inout BuildOptions, String) -> Void = { _, _ in }

    var testDescription: String { code.rawValue }

    /// A mapping of users read from `users.json`.
    static let users = """
        seeder: 1
        entities:
          User: { attributes: { id: integer, name: string } }
        sources:
          - { path: users.json, entity: User }

        """

    /// `users` with `text` in place of `pattern`.
    static func users(_ pattern: String, _ text: String) -> String {
        users.replacingOccurrences(of: pattern, with: text)
    }

    /// `users` where User has the relationship `friend`, written `relationship`.
    static func users(friend relationship: String) -> String {
        users("name: string }", "name: string }, relationships: { friend: \(relationship) }")
    }

    /// One user, Ann.
    static let ann = ["users.json": #"[{"id": 1, "name": "Ann"}]"#]
}

/// Every code of docs/json.md comes from the kind of problem it names: one input per code, and
/// the message it gives is the example docs/json.md shows. The catalog of bad inputs
/// (SeederCLITests) checks that none of its many problems falls back on `internal`.
struct DiagnosticCodeTests {
    static let examples: [CodeExample] = [
        CodeExample(code: .mappingSyntax, mapping: "seeder: 1\nentities:\n  User: &user { attributes: { id: integer } }\n"),
        CodeExample(code: .mappingUnknownKey, mapping: CodeExample.users("{ attributes:", "{ atributes:")),
        CodeExample(code: .mappingUnknownName, mapping: CodeExample.users(friend: "{ to: Usr }")),
        CodeExample(code: .mappingInvalid, mapping: CodeExample.users(friend: "{ many: true }")),
        CodeExample(
            code: .schema, mapping: CodeExample.users("seeder: 1\n", "seeder: 1\nschema: { template: app.sqlite }\n"),
            dumps: CodeExample.ann,
            prepare: { try "not a database".write(toFile: $0 + "/app.sqlite", atomically: true, encoding: .utf8) }),
        CodeExample(code: .io, mapping: CodeExample.users, configure: { options, root in options.dumps = root + "/nowhere" }),
        CodeExample(
            code: .outputRefused, mapping: CodeExample.users, dumps: CodeExample.ann,
            configure: { options, root in options.report = root + "/mapping.yaml" }),
        CodeExample(code: .noFile, mapping: CodeExample.users, dumps: ["user.json": "[]"]),
        CodeExample(
            code: .inputRefused, mapping: CodeExample.users,
            prepare: { root in
                try "[]".write(toFile: root + "/outside.json", atomically: true, encoding: .utf8)
                try FileManager.default.createSymbolicLink(atPath: root + "/dumps/users.json", withDestinationPath: "../outside.json")
            }),
        CodeExample(code: .unreadFile, mapping: CodeExample.users, dumps: ["users.json": "[]", "notes.json": "[]"]),
        CodeExample(
            code: .readTwice, mapping: CodeExample.users.components(separatedBy: "sources:")[0], dumps: CodeExample.ann,
            prepare: { try await Compressor.gzip.compress($0 + "/dumps/users.json") }),
        CodeExample(code: .syntax, mapping: CodeExample.users, dumps: ["users.json": #"[{"id": 1, "name": "Ann"},]"#]),
        CodeExample(
            code: .compression, mapping: CodeExample.users("path: users.json", "path: users.json.gz"), dumps: CodeExample.ann,
            prepare: { root in
                let compressed = try await Compressor.gzip.compress(root + "/dumps/users.json")
                var bytes = try Data(contentsOf: URL(fileURLWithPath: compressed))
                bytes[bytes.count - 8] ^= 0x01
                try bytes.write(to: URL(fileURLWithPath: compressed))
                try FileManager.default.removeItem(atPath: root + "/dumps/users.json")
            }),
        CodeExample(code: .type, mapping: CodeExample.users, dumps: ["users.json": #"[{"id": "one", "name": "Ann"}]"#]),
        CodeExample(
            code: .required, mapping: CodeExample.users("name: string", "name: { type: string, required: true }"),
            dumps: ["users.json": #"[{"id": 1, "name": null}]"#]),
        CodeExample(code: .identity, mapping: CodeExample.users, dumps: ["users.json": #"[{"name": "Ann"}]"#]),
        CodeExample(code: .shape, mapping: CodeExample.users, dumps: ["users.json": #"[[1, "Ann"]]"#]),
        CodeExample(
            code: .selector,
            mapping: CodeExample.users("User: { attributes: { id: integer, name: string } }", "Photo: { attributes: { id: integer } }")
                .replacingOccurrences(of: "entity: User", with: "entity: { by: type, cases: { photo: Photo } }"),
            dumps: ["users.json": #"[{"id": 1, "type": "photo"}, {"id": 2, "type": "audio"}]"#]),
        CodeExample(
            code: .conflict, mapping: CodeExample.users, dumps: ["users.json": #"[{"id": 1, "name": "Ann"}, {"id": 1, "name": "Anne"}]"#]),
        CodeExample(
            code: .dangling, mapping: CodeExample.users(friend: "{ to: User }"),
            dumps: ["users.json": #"[{"id": 1, "name": "Ann", "friend_id": 7}]"#]),
        CodeExample(
            code: .unique, mapping: CodeExample.users("name: string", "name: { type: string, unique: true }"),
            dumps: ["users.json": #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Ann"}]"#]),
        CodeExample(code: .unmappedKey, mapping: CodeExample.users, dumps: ["users.json": #"[{"id": 1, "name": "Ann", "age": 30}]"#]),
        CodeExample(code: .noMatch, mapping: CodeExample.users, dumps: ["users.json": #"[{"id": 1, "nmae": "Ann"}]"#]),
        CodeExample(
            code: .noRecord, mapping: CodeExample.users("sources:", "  Tag: { attributes: { id: integer } }\nsources:"),
            dumps: CodeExample.ann),
    ]

    /// The code table of docs/json.md: each code and its example message.
    static func documentedExamples() throws -> [String: String] {
        let docs = try String(contentsOfFile: repositoryRoot + "/docs/json.md", encoding: .utf8)
        let table = try #require(docs.range(of: "### Diagnostic codes")).upperBound
        let end = docs.range(of: "\n## ", range: table..<docs.endIndex)?.lowerBound ?? docs.endIndex
        var examples: [String: String] = [:]
        for line in docs[table..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let code = DiagnosticCode(rawValue: cells[1].trimmingCharacters(in: ["`"])) else { continue }
            let example = cells[cells.count - 2]
            examples[code.rawValue] = example.hasPrefix("`") ? String(example.dropFirst().dropLast()) : example
        }
        return examples
    }

    @Test func documentsEveryCodeOnce() throws {
        let documented = try Self.documentedExamples()
        #expect(Set(documented.keys) == Set(DiagnosticCode.allCases.map(\.rawValue)), "the code table of docs/json.md")
        // Every code but `internal`, which no input can make, has an example below; fetch's own
        // are made by a fetch (FetchCommandTests, in the CLI tests).
        #expect(
            Set(Self.examples.map(\.code))
                == Set(DiagnosticCode.allCases).subtracting([.internal, .unsetVariable, .http, .pagination, .secret]))
    }

    @Test(arguments: examples)
    func reportsTheDocumentedExample(_ example: CodeExample) async throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", example.mapping)
        for (name, text) in example.dumps { try workspace.write("dumps/" + name, text) }
        try await example.prepare(workspace.root)
        let report = workspace.build(validate: true) { example.configure(&$0, workspace.root) }
        let messages = report.diagnostics.filter { $0.code == example.code }.map {
            $0.message.replacingOccurrences(of: workspace.root + "/", with: "")
        }
        let documented = try #require(try Self.documentedExamples()[example.code.rawValue])
        #expect(messages.contains(documented), "\(report.messages(workspace)) with codes \(report.diagnostics.map(\.code))")
    }
}

/// The repository's root, from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
    .path
