import Foundation
import GRDB
import SeederFiles
import SeederStore
import SeederTestServer
import SeederTestSupport
import Testing
import Yams

/// action.yml, the seeder GitHub Action (docs/ci.md, The seeder action), run step by step as a
/// runner runs a composite action: each `run:` script with bash, its `env:` expressions filled
/// in, its `if:` decided, `$GITHUB_OUTPUT` and `$GITHUB_PATH` read as the runner reads them,
/// `$GITHUB_STEP_SUMMARY` kept; the release tarball with its checksum, the web service and the
/// previous seed served on 127.0.0.1. `uses:` steps (the cache, the artifact upload) are stood in
/// for, and so is TLS: the action downloads over https only, and the scripts' `curl` is a stand-in
/// that sends `https://github.test/...` to the loopback server over http.
struct ActionTests {
    /// The action's steps as parsed.
    struct Step {
        var id: String?
        var condition: String?
        var uses: String?
        var with: [String: String]
        var env: [String: String]
        var run: String?
    }

    static func steps() throws -> (inputs: [String: String], steps: [Step]) {
        let text = try String(contentsOfFile: repository + "/action.yml", encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let inputs = try #require(document["inputs"] as? [String: [String: Any]])
        let runs = try #require(document["runs"] as? [String: Any])
        #expect(runs["using"] as? String == "composite")
        let steps = try #require(runs["steps"] as? [[String: Any]]).map { step in
            Step(
                id: step["id"] as? String, condition: step["if"] as? String, uses: step["uses"] as? String,
                with: (step["with"] as? [String: Any])?.mapValues { "\($0)" } ?? [:], env: (step["env"] as? [String: String]) ?? [:],
                run: step["run"] as? String)
        }
        for step in steps where step.run != nil {
            #expect(!step.run!.contains("${{"), "a script takes its inputs from env, not spliced in: \(step.run!)")
        }
        return (inputs.mapValues { ($0["default"] as? String) ?? "" }, steps)
    }

    /// One run of the action: what it wrote and where it stopped.
    struct Outcome {
        var failedStep: String?
        var stdout = ""
        var stderr = ""
        var outputs: [String: [String: String]] = [:]
        /// Every byte the steps wrote to `GITHUB_OUTPUT` and `GITHUB_PATH`.
        var outputFile = ""
        var pathFile = ""
        var uploaded: [String] = []
        var installed = false
        /// The key the cache step was given.
        var cacheKey: String?
    }

    /// The host the stand-in `curl` sends to the test's server.
    static let host = "https://github.test"

    /// A `curl` that sends `https://github.test/...` to `server` over http, and is otherwise the
    /// system's: in `workspace`'s `stub/`, put first on the steps' PATH.
    static func curlStandIn(in workspace: Workspace, server: TestHTTPServer) throws -> String {
        let folder = workspace.path("stub")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        #!/bin/bash
        arguments=()
        for argument in "$@"; do
          case "$argument" in
            \(host)/*) argument="\(server.baseURL)${argument#\(host)/}" ;;
            =https) argument==http ;;
          esac
          arguments+=("$argument")
        done
        exec /usr/bin/curl "${arguments[@]}"

        """.write(toFile: folder + "/curl", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/curl")
        return folder
    }

    /// The name-value pairs of a `GITHUB_OUTPUT` file as the runner reads it: `NAME=VALUE`, or
    /// `NAME<<DELIMITER`, the lines of the value, then the delimiter alone on its line.
    static func fileCommands(_ text: String) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        if lines.last == "" { lines.removeLast() }
        while let line = lines.popFirst() {
            let equals = line.firstRange(of: "=")?.lowerBound
            let heredoc = line.firstRange(of: "<<")?.lowerBound
            if let equals, heredoc == nil || equals < heredoc! {
                pairs.append((String(line[..<equals]), String(line[line.index(after: equals)...])))
            } else if let heredoc {
                let delimiter = String(line[line.index(heredoc, offsetBy: 2)...])
                guard let end = lines.firstIndex(of: delimiter) else {
                    Issue.record("GITHUB_OUTPUT: no line '\(delimiter)' ends \(line)")
                    return pairs
                }
                pairs.append((String(line[..<heredoc]), lines[..<end].joined(separator: "\n")))
                lines = lines[(end + 1)...]
            } else if !line.isEmpty {
                Issue.record("GITHUB_OUTPUT: a line the runner refuses: \(line)")
            }
        }
        return pairs
    }

    /// Runs the action in `workspace` with `given` inputs; `cached` says whether the cache step
    /// finds seeder.
    static func runAction(_ given: [String: String], in workspace: Workspace, server: TestHTTPServer, cached: Bool) async throws
        -> Outcome
    {
        let (defaults, steps) = try Self.steps()
        for name in given.keys { #expect(defaults[name] != nil, "action.yml has no input '\(name)'") }
        let inputs = defaults.merging(given) { $1 }
        var outcome = Outcome()
        var path: [String] = []
        let runner = ["tool_cache": workspace.path("toolcache"), "temp": workspace.path("tmp"), "os": "Linux", "arch": "X64"]
        let github = ["server_url": Self.host, "action_repository": "seeder-org/seeder"]
        try FileManager.default.createDirectory(atPath: workspace.path("tmp"), withIntermediateDirectories: true)
        let stub = try Self.curlStandIn(in: workspace, server: server)
        func value(_ expression: String) -> String? {
            let parts = expression.split(separator: ".", maxSplits: 3).map(String.init)
            switch parts.first {
            case "inputs": return inputs[parts[1]]
            case "runner": return runner[parts[1]]
            case "github": return github[parts[1]]
            case "steps" where parts.count == 4: return outcome.outputs[parts[1]]?[parts[3]] ?? ""
            default: return nil
            }
        }
        func fill(_ text: String) -> String {
            text.replacing(#/\$\{\{\s*([^}]+?)\s*\}\}/#) { match in
                let found = value(String(match.output.1))
                #expect(found != nil, "an expression the test does not know: \(match.output.1)")
                return found ?? ""
            }
        }
        func holds(_ condition: String?) -> Bool {
            guard let condition else { return true }
            let match = condition.wholeMatch(of: #/\s*([\w.-]+)\s*(==|!=)\s*'([^']*)'\s*/#)
            #expect(match != nil, "a condition the test does not know: \(condition)")
            guard let match else { return false }
            let left = value(String(match.output.1)) ?? ""
            return (left == match.output.3) == (match.output.2 == "==")
        }
        for (index, step) in steps.enumerated() where holds(step.condition) {
            let name = step.id ?? "step \(index + 1)"
            if let uses = step.uses {
                if uses.hasPrefix("actions/cache@") {
                    outcome.outputs[name] = ["cache-hit": cached ? "true" : "false"]
                    outcome.cacheKey = fill(step.with["key"] ?? "")
                } else if uses.hasPrefix("actions/upload-artifact@") {
                    let file = fill(step.with["path"] ?? "")
                    #expect(FileManager.default.fileExists(atPath: workspace.path(file)), "the artifact \(file) exists")
                    outcome.uploaded.append(file)
                } else {
                    Issue.record("a step the test does not know: \(uses)")
                }
                continue
            }
            let script = try #require(step.run)
            if script.contains("sha256sum") && script.contains("tar -xz") { outcome.installed = true }
            let files = ["GITHUB_OUTPUT", "GITHUB_PATH"].map { workspace.path("tmp/\($0)-\(index)") }
            for file in files { _ = FileManager.default.createFile(atPath: file, contents: nil) }
            var environment = ProcessInfo.processInfo.environment
            // Never the tests' own build of seeder: the action's, from the tarball.
            environment["PATH"] = ([stub] + path + ["/usr/local/bin", "/usr/bin", "/bin"]).joined(separator: ":")
            environment["GITHUB_ACTIONS"] = "true"
            environment["GITHUB_OUTPUT"] = files[0]
            environment["GITHUB_PATH"] = files[1]
            environment["GITHUB_STEP_SUMMARY"] = workspace.path("summary.md")
            environment["NO_COLOR"] = "1"
            environment["API_TOKEN"] = "action-token-123456"
            for (key, value) in step.env { environment[key] = fill(value) }
            let run = try await runProgram(
                "/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: workspace.root, environment: environment)
            outcome.stdout += run.stdout
            outcome.stderr += run.stderr
            let written = try String(contentsOfFile: files[0], encoding: .utf8)
            outcome.outputFile += written
            for (key, value) in Self.fileCommands(written) { outcome.outputs[name, default: [:]][key] = value }
            let paths = try String(contentsOfFile: files[1], encoding: .utf8)
            outcome.pathFile += paths
            path = paths.split(separator: "\n").map(String.init).reversed() + path
            guard run.status == 0 else {
                outcome.failedStep = name
                return outcome
            }
        }
        return outcome
    }

    /// A workspace with a mapping whose users are fetched from `server`, and the tarball
    /// `scripts/release` would make, from the tests' build, with its `.sha256`.
    static func repositoryLayout(server: TestHTTPServer) async throws -> (Workspace, tarball: [UInt8], checksum: [UInt8]) {
        let scratch = try Workspace(directories: ["mappings", "dumps", "release"])
        try scratch.write(
            "mappings/app.yaml",
            """
            seeder: 1
            fetch: { base: "\(server.baseURL)", headers: { Authorization: "Bearer ${API_TOKEN}" } }
            entities:
              User: { attributes: { id: integer, name: string } }
            sources:
              - { path: users/*.json, entity: User, keyPath: items, fetch: { url: users, paginate: { page: page, size: 2, pages: pages } } }
            """)
        let name =
            "seeder-0.1.0-linux-\(try await program("/usr/bin/uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))"
        try FileManager.default.createDirectory(atPath: scratch.path("release/\(name)/bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try seederBinary(), toPath: scratch.path("release/\(name)/bin/seeder"))
        // Packed once a run (seconds each for a debug binary), then copied into each workspace.
        let release = try await packed.value {
            let tar = try await program("/bin/tar", ["-czf", "\(name).tar.gz", name], in: scratch.path("release"))
            #expect(tar.status == 0, "\(tar.stderr)")
            // As scripts/release writes it.
            let checksum = try await program("/usr/bin/sha256sum", ["\(name).tar.gz"], in: scratch.path("release"))
            #expect(checksum.status == 0, "\(checksum.stderr)")
            return (
                try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path("release/\(name).tar.gz")))), Array(checksum.stdout.utf8)
            )
        }
        try Data(release.tarball).write(to: URL(fileURLWithPath: scratch.path("release/\(name).tar.gz")))
        return (scratch, release.tarball, release.checksum)
    }

    /// The tests' release tarball and its `.sha256`, once packed.
    private static let packed = Once<(tarball: [UInt8], checksum: [UInt8])>()

    /// Fetch, build, upload, diff against a URL: then again from the cache, the dumps unchanged.
    @Test func fetchesBuildsUploadsAndDiffs() async throws {
        let tarball = Box<[UInt8]>([])
        let checksum = Box<[UInt8]>([])
        let previous = Box<[UInt8]>([])
        let handler: TestHTTPServer.Handler = { request in
            if request.path.hasSuffix(".tar.gz") || request.path.hasSuffix(".tar.gz.sha256") {
                guard request.path.hasPrefix("/seeder-org/seeder/releases/download/v0.1.0/") else { return .status(404) }
                return request.path.hasSuffix(".gz")
                    ? .bytes(tarball.value, contentType: "application/gzip") : .bytes(checksum.value, contentType: "text/plain")
            }
            if request.path == "/previous.sqlite" { return .bytes(previous.value, contentType: "application/vnd.sqlite3") }
            guard request.header("Authorization") == "Bearer action-token-123456" else { return .status(401) }
            let page = Int(request.query["page"] ?? "1")!
            return .json(#"{"pages": 2, "items": \#(records(page: page, size: 2, count: 3))}"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let (scratch, bytes, sum) = try await Self.repositoryLayout(server: server)
            tarball.value = bytes
            checksum.value = sum
            // The last release's seed: one user fewer.
            try scratch.write("old/users.json", #"[{"id": 1, "name": "user 1"}, {"id": 2, "name": "user 2"}]"#)
            try scratch.write(
                "old.yaml",
                "seeder: 1\nentities:\n  User: { attributes: { id: integer, name: string } }\nsources:\n  - { path: users.json, entity: User }\n"
            )
            #expect(try await seeder(["build", "old.yaml", "old", "-o", "old.sqlite", "--quiet"], in: scratch.root).status == 0)
            previous.value = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path("old.sqlite"))))

            let inputs = [
                "mapping": "mappings/app.yaml", "dumps": "dumps", "output": "app.sqlite", "fetch": "true",
                "diff-against": Self.host + "/previous.sqlite",
            ]
            let first = try await Self.runAction(inputs, in: scratch, server: server, cached: false)
            #expect(first.failedStep == nil, "\(first.stderr) \(first.stdout)")
            #expect(first.installed)
            #expect(first.uploaded == ["app.sqlite"])
            #expect(first.outputs["build"]?["seed"] == "app.sqlite")
            // The delimiter form, a new random delimiter each output.
            let delimiters = first.outputFile.matches(of: #/(?m)^(seed|changed|diff)<<(ghadelimiter_[0-9a-f]{32})$/#).map(\.output.2)
            #expect(delimiters.count == 3 && Set(delimiters).count == 3, "\(first.outputFile)")
            #expect(first.outputs["diff"]?["changed"] == "true")
            let diff = try String(contentsOfFile: try #require(first.outputs["diff"]?["diff"]), encoding: .utf8)
            #expect(diff.contains("user 3"), "\(diff)")
            let summary = try String(contentsOfFile: scratch.path("summary.md"), encoding: .utf8)
            #expect(summary.contains("### seeder fetch") && summary.contains("### seeder build") && summary.contains("user 3"))
            #expect(!summary.contains("action-token-123456") && !first.stdout.contains("action-token-123456"))
            let users = try await DatabaseQueue(path: scratch.path("app.sqlite")).read { db in
                try Row.fetchAll(db, sql: "SELECT id, name FROM user ORDER BY id").map(\.description)
            }
            #expect(
                users == [
                    #"[id:1 name:"user 1"]"#, #"[id:2 name:"user 2"]"#, #"[id:3 name:"user 3"]"#,
                ])

            // From the cache: nothing installed, the same seed.
            let seed = try Data(contentsOf: URL(fileURLWithPath: scratch.path("app.sqlite")))
            try FileManager.default.removeItem(atPath: scratch.path("app.sqlite"))
            let second = try await Self.runAction(inputs, in: scratch, server: server, cached: true)
            #expect(second.failedStep == nil, "\(second.stderr)")
            #expect(!second.installed)
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("app.sqlite"))) == seed)
        }
    }

    /// A dump that does not fit: the build step fails with an annotation on the dump's line,
    /// and nothing after it runs; a previous seed given as a path is diffed once it is fixed.
    @Test func aFailingBuildAnnotatesAndStops() async throws {
        try await TestHTTPServer.with { request in
            request.path.hasSuffix(".tar.gz") ? .status(404) : .status(500)
        } run: { server in
            let (scratch, _, _) = try await Self.repositoryLayout(server: server)
            try scratch.write("dumps/users/0001.json", #"{"items": [{"id": 1, "name": "Ann"}, {"id": "two", "name": "Bob"}]}"#)
            let inputs = ["mapping": "mappings/app.yaml", "dumps": "dumps", "diff-against": "old.sqlite", "artifact": ""]
            // Installed already (the cache), from the tarball's layout.
            let name = try #require(
                try FileManager.default.contentsOfDirectory(atPath: scratch.path("release")).first { !$0.hasSuffix(".gz") })
            try FileManager.default.createDirectory(atPath: scratch.path("toolcache/seeder"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: scratch.path("release/\(name)"), toPath: scratch.path("toolcache/seeder/0.1.0"))
            let failed = try await Self.runAction(inputs, in: scratch, server: server, cached: true)
            #expect(failed.failedStep == "build")
            #expect(
                failed.stdout.contains(
                    #"::error file=dumps/users/0001.json,line=1,col=45,title=seeder type::User: 'id' is "two", expected integer  [/items/1/id]"#
                ),
                "\(failed.stdout)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))

            try scratch.write("dumps/users/0001.json", #"{"items": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]}"#)
            #expect(try await seeder(["build", "mappings/app.yaml", "dumps", "-o", "old.sqlite", "--quiet"], in: scratch.root).status == 0)
            let same = try await Self.runAction(inputs, in: scratch, server: server, cached: true)
            #expect(same.failedStep == nil, "\(same.stderr)")
            #expect(same.outputs["diff"]?["changed"] == "false")
            #expect(FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))

            // With strict: "true" a key never mapped is an error on its line.
            try scratch.write("dumps/users/0001.json", #"{"items": [{"id": 1, "name": "Ann", "nickname": "A"}]}"#)
            let strict = try await Self.runAction(inputs.merging(["strict": "true"]) { $1 }, in: scratch, server: server, cached: true)
            #expect(strict.failedStep == "build")
            #expect(
                strict.stdout.contains(
                    "::error file=mappings/app.yaml,line=4,col=3,title=seeder unmapped-key::1 key is never mapped: User.nickname"),
                "\(strict.stdout)")
            let relaxed = try await Self.runAction(inputs, in: scratch, server: server, cached: true)
            #expect(relaxed.failedStep == nil, "\(relaxed.stderr)")
        }
    }
}

extension ActionTests {
    /// docs/ci.md's workflow with the action: its `gh` step, then the action with its `with:`
    /// inputs, in the repository layout of the CI docs' tests; once more before any release.
    @Test func theDocumentedWorkflowRuns() async throws {
        let blocks = try CIDocsTests.yamlBlocks()
        let workflow = try #require(blocks.first { $0.contains { $0.contains("uses: your-org/seeder@") } })
        let uses = try #require(workflow.firstIndex { $0.contains("uses: your-org/seeder@") })
        #expect(workflow[uses].hasSuffix("@v\(SeedBuilder.version)"))
        #expect(try Self.steps().inputs["version"] == SeedBuilder.version, "the action installs its own version by default")
        var inputs: [String: String] = [:]
        for line in workflow[(uses + 2)...] {
            guard let match = line.wholeMatch(of: #/ {10}([\w-]+): (.+)/#) else { break }
            inputs[String(match.output.1)] = String(match.output.2)
        }
        #expect(inputs.keys.sorted() == ["diff-against", "dumps", "mapping", "output"])
        let script = try #require(CIDocsTests.runScripts(workflow).first { $0.contains("gh release download") })
        try await TestHTTPServer.with { _ in
            .status(404)
        } run: { server in
            let scratch = try await CIDocsTests.repositoryLayout()
            try FileManager.default.createDirectory(atPath: scratch.path("stub"), withIntermediateDirectories: true)
            try "#!/bin/bash\n[ \"$1 $2\" = \"release download\" ] && exit 0\nexit 1\n".write(
                toFile: scratch.path("stub/gh"), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path("stub/gh"))
            #expect(try await program("/bin/bash", ["-c", "PATH=\"$PWD/stub:$PATH\"; " + script], in: scratch.root).status == 0)
            let (layout, _, _) = try await Self.repositoryLayout(server: server)
            let name = try #require(
                try FileManager.default.contentsOfDirectory(atPath: layout.path("release")).first { !$0.hasSuffix(".gz") })
            try FileManager.default.createDirectory(atPath: scratch.path("toolcache/seeder"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: layout.path("release/\(name)"), toPath: scratch.path("toolcache/seeder/0.1.0"))
            let run = try await Self.runAction(inputs, in: scratch, server: server, cached: true)
            #expect(run.failedStep == nil, "\(run.stderr)")
            #expect(run.outputs["diff"]?["changed"] == "true")
            let summary = try String(contentsOfFile: scratch.path("summary.md"), encoding: .utf8)
            #expect(summary.contains("jeff@example.com") && summary.contains("jeff@restkit.org"))
            // Before the first release: nothing to diff, and no failure.
            try FileManager.default.removeItem(atPath: scratch.path("release.sqlite"))
            let first = try await Self.runAction(inputs, in: scratch, server: server, cached: true)
            #expect(first.failedStep == nil, "\(first.stderr)")
            #expect(first.stdout.contains("::notice::no previous seed at release.sqlite: nothing to diff"))
            #expect(first.outputs["diff"]?["changed"] == nil)
        }
    }
}

/// A value handlers read once a test has it.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, under the lock.
    func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
