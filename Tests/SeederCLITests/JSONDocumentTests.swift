import Foundation
import GRDB
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

import enum SeederCore.DiagnosticCode

/// Every command's `--json` (docs/json.md): the real output of the binary, on the examples and on
/// failing inputs, checked against the schema docs/json.md gives, so that the reference cannot
/// drift from the documents: every member it requires is there with its type, members come in
/// its order, and none appears that it does not list.
struct JSONDocumentTests {
    /// The schemas of docs/json.md, by command: its fenced `json` blocks that name a `$schema`.
    static let schemas: [String: String] = {
        guard let docs = try? String(contentsOfFile: repository + "/docs/json.md", encoding: .utf8) else { return [:] }
        var schemas: [String: String] = [:]
        for block in docs.components(separatedBy: "```json\n").dropFirst() {
            let text = block.components(separatedBy: "\n```")[0]
            guard text.contains("\"$schema\""),
                let schema = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let title = schema["title"] as? String
            else { continue }
            for command in ["build", "validate", "fetch", "infer", "diff", "inspect"]
            where title.split(separator: " ").contains(Substring(command)) {
                schemas[command] = text
            }
        }
        return schemas
    }()

    /// What `seeder --version` prints, which every document's `seeder` must be.
    static let version = Task { (try? await seeder(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "?" }

    /// Checks that `run` printed one document of `command` and nothing else on standard output,
    /// conforming to its schema, with the run's exit status and no diagnostic of seeder's own
    /// failure; returns it.
    @discardableResult
    static func expectDocument(
        _ run: Run, of command: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let version = await version.value
        let schema = try #require(schemas[command], "docs/json.md has no schema for \(command)", sourceLocation: sourceLocation)
        let problems = try JSONSchemaChecker(schema: schema).problems(in: run.stdout)
        #expect(problems == [], "\(command) --json: \(run.stdout)\nstderr: \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.hasSuffix("}\n"), sourceLocation: sourceLocation)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        #expect(run.stdout.hasPrefix(#"{"seeder":"\#(version)","format":"#), sourceLocation: sourceLocation)
        #expect(document["command"] as? String == command, sourceLocation: sourceLocation)
        if let status = document["exitStatus"] as? Int {
            #expect(Int32(status) == run.status, "the document's exitStatus; stderr: \(run.stderr)", sourceLocation: sourceLocation)
        }
        let codes = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(!codes.contains("internal"), "\(run.stdout)", sourceLocation: sourceLocation)
        return document
    }

    @Test func docsHaveASchemaForEveryCommandAndOneDiagnostic() throws {
        #expect(Set(Self.schemas.keys) == ["build", "validate", "fetch", "infer", "diff", "inspect"])
        // The diagnostic is described twice (build's and infer's documents): the same both times.
        func definitions(_ command: String) throws -> [String: Any] {
            let schema = try JSONSerialization.jsonObject(with: Data(try #require(Self.schemas[command]).utf8)) as? [String: Any]
            return try #require(schema?["$defs"] as? [String: Any])
        }
        for name in ["diagnostic", "location"] {
            #expect(
                NSDictionary(dictionary: try #require(try definitions("build")[name] as? [String: Any]))
                    == NSDictionary(dictionary: try #require(try definitions("infer")[name] as? [String: Any])))
        }
        let diagnostic = try #require(try definitions("build")["diagnostic"] as? [String: Any])
        let code = (diagnostic["properties"] as? [String: Any])?["code"] as? [String: Any]
        #expect(code?["enum"] as? [String] == DiagnosticCode.allCases.map(\.rawValue))
    }

    /// The checker itself finds what it must: a missing member, a wrong type, an undocumented
    /// member, members out of order, and a keyword it does not read.
    @Test func theCheckerFindsWhatDiffersFromTheSchema() throws {
        let checker = try JSONSchemaChecker(
            schema: #"""
                {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"enum": ["x"]}}, "required": ["a", "b"],
                 "additionalProperties": false}
                """#)
        #expect(checker.problems(in: #"{"a": 1, "b": "x"}"#) == [])
        #expect(checker.problems(in: #"{"a": 1}"#) == ["/: lacks the required member 'b'"])
        #expect(checker.problems(in: #"{"a": 1.5, "b": "x"}"#) == ["/a: 1.5, expected integer"])
        #expect(checker.problems(in: #"{"a": 1, "b": "x", "c": 2}"#) == ["/c: a member the documentation does not list"])
        #expect(checker.problems(in: #"{"b": "x", "a": 1}"#) == ["/a: comes after 'b', but the documented order puts it before"])
        #expect(checker.problems(in: #"{"a": 1, "b": "y"}"#) == [#"/b: "y" is not one of ["x"]"#])
        let open = try JSONSchemaChecker(schema: #"{"type": "object", "properties": {}, "minProperties": 1}"#)
        #expect(open.problems(in: "{}").contains("#: keyword 'minProperties' is not one the checker reads"))
        #expect(open.problems(in: "{}").contains("#: an object schema must say whether other members may appear (additionalProperties)"))
    }

    @Test(arguments: ExampleTests.examples)
    func everyCommandPrintsItsDocumentOnTheExample(_ name: String) async throws {
        let scratch = try Workspace()
        let (mapping, dumps) = (repository + "/mappings/\(name).yaml", repository + "/seeds/\(name)")
        let build = try await seeder(["build", mapping, dumps, "-o", "seed.sqlite", "--json"], in: scratch.root)
        #expect(build.status == 0, "\(build.stderr)")
        await #expect(try Self.expectDocument(build, of: "build")["output"] as? String == "seed.sqlite")
        #expect(build.stderr == "", "no summary besides the document")
        for arguments in [["--json"], ["--report", "-"], ["--json", "--report", "-"]] {
            let validate = try await seeder(["validate", mapping, dumps] + arguments, in: scratch.root)
            #expect(validate.status == 0, "\(validate.stderr)")
            try await Self.expectDocument(validate, of: "validate")
        }
        let report = try await seeder(["build", mapping, dumps, "-o", "again.sqlite", "--report", "-", "--quiet"], in: scratch.root)
        try await Self.expectDocument(report, of: "build")
        #expect(scratch.files == ["again.sqlite", "seed.sqlite"], "'--report -' is standard output, no file named '-'")
        try await Self.expectDocument(try await seeder(["inspect", "seed.sqlite", "--json"], in: scratch.root), of: "inspect")
        let diff = try await seeder(["diff", "seed.sqlite", "again.sqlite", "--json"], in: scratch.root)
        #expect(diff.status == 0)
        try await Self.expectDocument(diff, of: "diff")
        let infer = try await seeder(["infer", dumps, "--json"], in: scratch.root)
        #expect(infer.status == 0, "\(infer.stderr)")
        try await Self.expectDocument(infer, of: "infer")
        // Sources and relationships that choose their entity by a value (JSON:API's `type`).
        let jsonAPI = try await Self.expectDocument(
            try await seeder(["infer", InferCorpusTests.corpus + "appstoreconnect/release-1", "--json"]), of: "infer")
        let sources = try #require(jsonAPI["sources"] as? [[String: Any]])
        let included = try #require(
            sources.first { $0["path"] as? String == "beta-feedbacks.json" && $0["keyPath"] as? [String] == ["included"] })
        #expect(included["entity"] is NSNull)
        #expect(
            (included["selector"] as? [String: Any])?["cases"] as? [String: String]
                == ["builds": "Build", "betaTesters": "BetaTester", "betaScreenshots": "BetaScreenshot"])
    }

    @Test func diffPrintsRecordsLinksAndValuesAsDocumented() async throws {
        let tasklist = try await DiffCommandTests.tasklistSeeds()
        let json = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--json"], in: tasklist.root)
        #expect(json.status == 1)
        try await Self.expectDocument(json, of: "diff")
        let withChangeset = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--json", "--changeset", "c"], in: tasklist.root)
        let changeset = try await #require(try Self.expectDocument(withChangeset, of: "diff")["changeset"] as? [String: Any])
        #expect(changeset["path"] as? String == "c")
        #expect(changeset["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: tasklist.root + "/c")[.size] as? Int))
        let tables = try #require(changeset["tables"] as? [[String: Any]])
        #expect(tables.map { $0["table"] as? String } == ["seed_metadata", "seed_source", "user", "project", "task"])
        #expect(tables.last.map { [$0["inserts"], $0["updates"], $0["deletes"]] as? [Int] } == [1, 2, 1])
        #expect(try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "json"], in: tasklist.root).stdout == json.stdout)
        #expect(try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--json", "--format", "markdown"], in: tasklist.root).status == 64)
        let catalog = try await DiffCommandTests.seeds([
            ("v1", "mappings/catalog.yaml", "seeds/catalog", "1700000000"),
            ("v2", DiffCommandTests.fixtures + "/catalog-v2.yaml", DiffCommandTests.fixtures + "/catalog-v2", "1700000000"),
        ])
        let links = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--json"], in: catalog.root)
        #expect(links.stdout.contains(#""role":"links""#) && links.stdout.contains(#""change":"columnAdded""#))
        try await Self.expectDocument(links, of: "diff")
        // Any SQLite file: blobs, keys of two columns, rows without a key.
        let files = try Workspace()
        for (name, sql) in [
            (
                "a",
                "CREATE TABLE t(a TEXT PRIMARY KEY, b); INSERT INTO t VALUES ('x', x'00ff'); CREATE TABLE log(m); INSERT INTO log VALUES (1);"
            ),
            ("b", "CREATE TABLE t(a TEXT PRIMARY KEY, b); INSERT INTO t VALUES ('x', x'00fe'), ('y', 2.5); CREATE TABLE log(m);"),
        ] {
            try await DatabaseQueue(path: files.path("\(name).db")).write { try $0.execute(sql: sql) }
        }
        let any = try await seeder(["diff", "a.db", "b.db", "--json"], in: files.root)
        #expect(any.stdout.contains(#""sha256""#) && any.stdout.contains(#""pairing":"rows""#))
        try await Self.expectDocument(any, of: "diff")
        let social = try await DiffCommandTests.seeds([("v1", "mappings/social.yaml", "seeds/social", "1700000000")])
        try await Self.expectDocument(try await seeder(["inspect", "v1.sqlite", "--json"], in: social.root), of: "inspect")
    }

    @Test func inferPrintsTheDraftItWrites() async throws {
        let scratch = try Workspace()
        for fixture in ["events", "firebase", "github", "marvel"] {
            let run = try await seeder(
                ["infer", repository + "/Tests/SeederCLITests/Fixtures/infer/" + fixture, "--json"], in: scratch.root)
            #expect(run.status == 0, "\(run.stderr)")
            try await Self.expectDocument(run, of: "infer")
        }
        let written = try await seeder(["infer", repository + "/seeds/accounts", "-o", "draft.yaml", "--json"], in: scratch.root)
        let document = try await Self.expectDocument(written, of: "infer")
        #expect(document["output"] as? String == "draft.yaml")
        #expect(try document["draft"] as? String == String(contentsOfFile: scratch.path("draft.yaml"), encoding: .utf8))
        #expect(written.stderr.hasPrefix("drafted draft.yaml: 2 entities"))
        // Refused before anything is read: a document all the same, with the refusal.
        let refused = try await seeder(["infer", repository + "/seeds/accounts", "-o", "draft.yaml", "--json"], in: scratch.root)
        #expect(refused.status == 2)
        let codes = await (try Self.expectDocument(refused, of: "infer")["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String }
        #expect(codes == ["output-refused"])
        #expect(refused.stderr == "error: the output draft.yaml exists; --force replaces it\n")
        try scratch.write("bad/items.json", #"[{"id": 1},"#)
        let invalid = try await seeder(["infer", "bad", "--json"], in: scratch.root)
        #expect(invalid.status == 1)
        await #expect(try Self.expectDocument(invalid, of: "infer")["draft"] is NSNull)
    }

    /// Every kind of bad input of the catalog, run with `--json`: `build`, `validate` and `infer`
    /// print a document that says what went wrong, none of whose diagnostics is seeder's own
    /// failure (`internal`, the code nothing else names); `diff` and `inspect` print nothing on
    /// standard output when they fail.
    @Test(arguments: BadInputCatalog.kinds.filter { $0.launcher.isEmpty && $0.stdoutFile == nil })
    func badInputsPrintADocumentThatSaysWhy(_ kind: BadInput) async throws {
        let scratch = try CommandTests.tasklist()
        let previous = try await seeder(["build", "tasklist.yaml", "dumps", "--quiet"], in: scratch.root)
        try #require(previous.status == 0, "\(previous.stderr)")
        try await withCleanUp {
            try await kind.prepare(scratch.root)
            var json = kind
            json.arguments.append("--json")
            let run = try await BadInputCatalog.seederWithin(json, in: scratch.root)
            #expect(run.status == kind.status, "\(run.stderr)")
            let command = kind.arguments[0]
            guard ["build", "validate", "infer"].contains(command) else {
                // `diff` and `inspect` have nothing to describe when they cannot read their seeds.
                if run.status >= 2 { #expect(run.stdout == "") } else { try await Self.expectDocument(run, of: command) }
                return
            }
            let document = try await Self.expectDocument(run, of: command)
            let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
            #expect(!diagnostics.filter { $0["severity"] as? String == "error" }.isEmpty || kind.status == 0, "\(run.stdout)")
        } cleanUp: {
            await kind.cleanUp(scratch.root)
        }
    }
}
