import Foundation
import SeederTestSupport
import Testing

@testable import SeederCore

/// The plugin's reader of `schema:` (Plugins/SeederPlugin/MappingSchemaReader*.swift, compiled
/// here through links in Plugin/): on every form of docs/guides/swiftpm-plugin.md, The schema
/// file, it finds the path seeder's own loader finds, so the seed is rebuilt when that file
/// changes.
struct MappingSchemaReaderTests {
    static let entities = """
        entities:
          User:
            attributes: { id: integer, name: { type: string, default: "room: fake.json, # template: fake.sqlite" } }
        """

    /// Each row: what it shows, the mapping's `schema:` part, the path.
    static let forms: [(String, String, String)] = [
        ("flow, plain", "schema: { template: templates/app.sqlite }", "templates/app.sqlite"),
        ("flow, a comment after", "schema: { template: templates/app.sqlite }   # made by the app, room: no.json", "templates/app.sqlite"),
        ("block", "schema:\n  room: schemas/com.example.App/3.json", "schemas/com.example.App/3.json"),
        ("block, a comment line holding room:", "schema:\n  # room: old.json\n  template: t.sqlite  # room: no", "t.sqlite"),
        ("a commented-out schema before it", "# schema: { room: other.json }\nschema: { template: t.sqlite }", "t.sqlite"),
        ("absolute", "schema: { template: /opt/app/template.sqlite }", "/opt/app/template.sqlite"),
        ("a comma, single-quoted", "schema: { room: 'schemas/a, b.json' }", "schemas/a, b.json"),
        ("a # and a }, double-quoted", #"schema: { template: "t #1 }.sqlite" }"#, "t #1 }.sqlite"),
        ("a # not after a space, plain", "schema: { template: a#b.sqlite }", "a#b.sqlite"),
        ("a colon, plain", "schema:\n  template: C:/app:1.sqlite", "C:/app:1.sqlite"),
        ("a quote, single-quoted", "schema: { room: 'it''s.json' }", "it's.json"),
        ("escapes, double-quoted", #"schema: { template: "t\u00e9\x41\\b\"c\t.sqlite" }"#, "t\u{e9}A\\b\"c\t.sqlite"),
        ("JSON", #"{"seeder": 1, "schema": {"template":"j.sqlite"}, "#, "j.sqlite"),
        ("flow over lines", "schema: {\n  # room: no.json\n  template: t.sqlite,\n}", "t.sqlite"),
        ("plain over lines", "schema:\n  template: my\n    template.sqlite", "my template.sqlite"),
        ("double-quoted over lines", "schema:\n  template: \"my\n    long\\\n    name.sqlite\"", "my longname.sqlite"),
        ("single-quoted over lines", "schema: { room: 'a\n\n   b.json' }", "a\nb.json"),
        ("folded block scalar", "schema:\n  template: >-\n    a\n    b.sqlite\n", "a b.sqlite"),
        ("literal block scalar", "schema:\n  room: |-\n    r.json\n", "r.json"),
        ("tags", "schema: !!map { template: !!str t.sqlite }", "t.sqlite"),
        ("unicode", "schema: { template: \"donn\u{e9}es/mod\u{e8}le.sqlite\" }", "donn\u{e9}es/mod\u{e8}le.sqlite"),
        ("spaces, plain", "schema: { template: my template .sqlite }", "my template .sqlite"),
        ("CR LF", "schema:\r\n  template: crlf.sqlite\r\n", "crlf.sqlite"),
        ("under a document marker", "---\nschema: { template: t.sqlite }\n...\n", "t.sqlite"),
        ("an explicit key in a flow mapping", "schema: {? template: q3.sqlite}", "q3.sqlite"),
        ("an explicit key in a flow mapping, spaced", "schema: { ? room : 'r, 1.json' }", "r, 1.json"),
        ("an explicit key in a block mapping, schema", "? schema\n: {template: q1.sqlite}", "q1.sqlite"),
        ("an explicit key in a block mapping, template", "schema:\n  ? template\n  : q2.sqlite", "q2.sqlite"),
        ("explicit keys, over lines", "? schema\n:\n  ?\n    room\n  :\n    q5.json", "q5.json"),
        ("an explicit key, quoted and tagged", "schema:\n  ? !!str \"template\"  # a comment\n  : \"q6.sqlite\"", "q6.sqlite"),
    ]

    /// A whole mapping around `schema`, its first line `seeder: 1` (JSON: all of it).
    static func mapping(_ schema: String) -> String {
        if schema.hasPrefix("{") { return schema + #""entities": {"User": {"attributes": {"id": "integer"}}}}"# }
        if schema.hasPrefix("---") { return schema.replacingOccurrences(of: "---\n", with: "---\nseeder: 1\n" + entities + "\n") }
        return "seeder: 1\n" + schema + "\n" + entities + "\n"
    }

    /// The path seeder's loader finds, or its diagnostics.
    static func loaded(_ text: String) -> String? {
        let sink = DiagnosticSink()
        let mapping = MappingLoader().load(yaml: text, file: "mapping.yaml", diagnostics: sink)
        #expect(sink.diagnostics.isEmpty, "\(sink.diagnostics.map(\.description)) in:\n\(text)")
        return mapping?.schema?.path
    }

    @Test(arguments: forms)
    func findsThePathTheLoaderFinds(name: String, schema: String, path: String) throws {
        let text = Self.mapping(schema)
        #expect(Self.loaded(text) == path, "the loader, on \(name)")
        #expect(try MappingSchemaReader.paths(inMapping: text) == [path], "\(name)")
    }

    /// What only looks like `schema:`: a string that holds it, a comment, a key of another name.
    @Test(arguments: [
        "output: \"seed.sqlite\n  schema: { template: fake.sqlite }\"",
        "# schema: { template: fake.sqlite }",
        "output: 'room: fake.json'",
        "schemaVersion: 2  # schema: { room: fake.json }",
    ])
    func findsNoneWhereTheLoaderFindsNone(part: String) throws {
        let text = Self.mapping(part)
        #expect(Self.loaded(text) == nil)
        #expect(try MappingSchemaReader.paths(inMapping: text) == [])
    }

    /// A path as the plugin declares it: beside the mapping, or absolute as written.
    @Test func resolvesAsSeederDoes() {
        let mapping = URL(fileURLWithPath: "/work/app/Sources/App/tasklist.seeder.yaml")
        for path in ["templates/a, b #1.sqlite", "../schemas/3.json", "/opt/t.sqlite", "t%20.sqlite"] {
            let source = SchemaSource(kind: .template, path: path, location: SourceLocation(file: mapping.path))
            #expect(MappingSchemaReader.file(path, besideMapping: mapping).path == source.resolved(from: mapping.path))
        }
    }

    /// Mappings seeder refuses the reader refuses too, located; the plugin then warns.
    @Test(arguments: [
        ("schema: &s { template: t.sqlite }", "5:9: anchors and aliases are not allowed in a mapping"),
        ("schema: { template: \"t.sqlite }", "5:21: a quoted scalar (\") that is never closed"),
        ("schema: { template: t.sqlite", "5:9: a flow collection ({) that is never closed"),
        ("schema: { template: \"\\q\" }", "5:22: an unknown escape '\\q' in a double-quoted scalar"),
        ("schema: { template: t.sqlite }\n---\nseeder: 1", "6:1: a second document: a mapping file holds one"),
        ("schema:\n\ttemplate: t.sqlite", "6:1: a tab in indentation"),
        ("schema:\n  \t# room: x.json\n  template: t.sqlite", "6:3: a tab in indentation"),
        (
            "schema: { template: a.sqlite }\nschema: { template: b.sqlite }",
            "6:1: duplicate key 'schema' in a YAML mapping; the first one is at 5:1"
        ),
        (
            "schema: { template: a.sqlite, template: b.sqlite }",
            "5:31: duplicate key 'template' in a YAML mapping; the first one is at 5:11"
        ),
        (
            "schema:\n  template: a.sqlite\n  'template': b.sqlite",
            "7:3: duplicate key 'template' in a YAML mapping; the first one is at 6:3"
        ),
        (
            "schema:\n  ? template\n  : a.sqlite\n  template: b.sqlite",
            "8:3: duplicate key 'template' in a YAML mapping; the first one is at 6:5"
        ),
        (
            "schema: { room: a.json }\n? schema\n: { room: b.json }",
            "6:3: duplicate key 'schema' in a YAML mapping; the first one is at 5:1"
        ),
        (
            "schema: { ? room: a.json, room: b.json }",
            "5:27: duplicate key 'room' in a YAML mapping; the first one is at 5:13"
        ),
    ])
    func refusesWhatSeederRefuses(schema: String, message: String) {
        let text = "seeder: 1\n" + Self.entities + "\n" + schema + "\n"
        let sink = DiagnosticSink()
        #expect(MappingLoader().load(yaml: text, file: "mapping.yaml", diagnostics: sink) == nil)
        #expect(throws: MappingSchemaReader.Failure.self) { try MappingSchemaReader.paths(inMapping: text) }
        do {
            _ = try MappingSchemaReader.paths(inMapping: text)
        } catch {
            #expect(error.description == message)
        }
    }

    /// Random paths of every awkward character, written in random forms with comments about:
    /// the reader and the loader agree on each.
    @Test func agreesWithTheLoaderOnRandomPaths() throws {
        var random = SplitMix64(seed: 49)
        let alphabet = Array("ab/._- ,#:'\"{}[]\\&*!%@`|>?\u{e9}\u{4e2d}")
        for _ in 0..<2_000 {
            var path = String((0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            if Bool.random(using: &random) { path = "/" + path }
            path = path.trimmingCharacters(in: .whitespaces)
            if path.isEmpty { continue }
            let key = Bool.random(using: &random) ? "template" : "room"
            let value: String
            switch Int.random(in: 0..<3, using: &random) {
            case 0: value = "'" + path.replacingOccurrences(of: "'", with: "''") + "'"
            case 1:
                value =
                    "\""
                    + path.unicodeScalars.map { scalar in
                        switch scalar {
                        case "\"": return "\\\""
                        case "\\": return "\\\\"
                        case _ where !scalar.isASCII || Bool.random(using: &random): return String(format: "\\u%04X", scalar.value)
                        default: return String(scalar)
                        }
                    }.joined() + "\""
            default: value = path
            }
            let tag = Bool.random(using: &random) ? "!!str " : ""
            let indent = String(repeating: " ", count: Int.random(in: 1...4, using: &random))
            let form = Int.random(in: 0..<5, using: &random)
            var schema: String
            switch form {
            case 0: schema = "schema: { \(key): \(tag)\(value) }  # room: x.json"
            case 1: schema = "schema:\n\(indent)# template: y.sqlite\n\(indent)\(key): \(tag)\(value)\n"
            case 2: schema = "schema: { ? \(key): \(tag)\(value) }"
            case 3: schema = "schema:\n\(indent)? \(key)  # room: x.json\n\(indent): \(tag)\(value)\n"
            default: schema = "? schema\n: { \(key): \(tag)\(value) }"
            }
            // The key again in the block forms: seeder refuses the mapping, and the reader too.
            let repeated = (form == 1 || form == 3) && Int.random(in: 0..<6, using: &random) == 0
            if repeated { schema += "\(indent)\(key): again.sqlite\n" }
            // Before the entities or after them.
            let text = Bool.random(using: &random) ? Self.mapping(schema) : "seeder: 1\n" + Self.entities + "\n" + schema + "\n"
            let sink = DiagnosticSink()
            let expected = MappingLoader().load(yaml: text, file: "mapping.yaml", diagnostics: sink)?.schema?.path
            // A plain path the YAML reads otherwise (a flow indicator, a leading quote) is
            // refused by seeder, or read as something else: the reader agrees or refuses.
            if repeated {
                #expect(expected == nil && (try? MappingSchemaReader.paths(inMapping: text)) == nil, "\(text)")
            } else if let read = try? MappingSchemaReader.paths(inMapping: text) {
                if let expected { #expect(read == [expected], "\(text)") } else { #expect(read.count <= 1, "\(text)") }
            } else {
                #expect(expected == nil, "the reader refused what seeder reads:\n\(text)")
            }
        }
    }
}

extension MappingSchemaReaderTests {
    /// docs/guides/swiftpm-plugin.md, The schema file: each `schema:` its example shows is read
    /// as seeder reads it.
    @Test func readsTheGuidesForms() throws {
        let guide = try String(contentsOf: DocsTests.root.appendingPathComponent("docs/guides/swiftpm-plugin.md"), encoding: .utf8)
        let section = try #require(guide.firstRange(of: "## The schema file").map { guide[$0.upperBound...] })
        let block = try #require(section.firstMatch(of: #/```yaml\n((?s).*?)```/#)?.output.1)
        var forms: [String] = []
        for line in block.split(separator: "\n") {
            if line.hasPrefix("schema:") { forms.append(String(line)) } else { forms[forms.count - 1] += "\n" + line }
        }
        #expect(forms.count == 7)
        for form in forms {
            let text = Self.mapping(form)
            let path = try #require(Self.loaded(text))
            #expect(try MappingSchemaReader.paths(inMapping: text) == [path], "\(form)")
        }
    }
}
