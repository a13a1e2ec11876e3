import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// The workflows of docs/ci.md: every `seeder` command line in them, and GitLab's whole script,
/// run in a repository laid out as they assume (the mapping in `mappings/app.yaml`, the dumps in
/// `dumps/`, the last release's seed as `release.sqlite`).
struct CIDocsTests {
    /// The fenced YAML blocks of docs/ci.md, each as its lines.
    static func yamlBlocks() throws -> [[String]] {
        let text = try String(contentsOfFile: repository + "/docs/ci.md", encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```yaml" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// A repository as the workflows assume it, the release's seed one user behind.
    static func repositoryLayout() async throws -> Workspace {
        let scratch = try Workspace()
        try FileManager.default.createDirectory(atPath: scratch.path("mappings"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/mappings/tasklist.yaml", toPath: scratch.path("mappings/app.yaml"))
        try FileManager.default.copyItem(atPath: repository + "/seeds/tasklist", toPath: scratch.path("dumps"))
        let users = scratch.path("dumps/users.json")
        let current = try String(contentsOfFile: users, encoding: .utf8)
        try current.replacingOccurrences(of: "jeff@restkit.org", with: "jeff@example.com").write(
            toFile: users, atomically: true, encoding: .utf8)
        #expect(try await seeder(["build", "mappings/app.yaml", "dumps", "-o", "release.sqlite", "--quiet"], in: scratch.root).status == 0)
        try current.write(toFile: users, atomically: true, encoding: .utf8)
        return scratch
    }

    /// Runs `script` with bash in `directory`, `seeder` on PATH.
    static func bash(_ script: String, in directory: String) async throws -> Run {
        let binaries = URL(fileURLWithPath: try seederBinary()).deletingLastPathComponent().path
        return try await program(
            "/bin/bash", ["-euo", "pipefail", "-c", script], in: directory,
            environment: [
                "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "SEEDER_VERSION": "0.1.0",
            ])
    }

    /// A line of a workflow that runs seeder, without its YAML (`- `, `run: `).
    static func command(_ line: String) -> String? {
        var text = line.trimmingCharacters(in: .whitespaces)
        for prefix in ["- ", "run: "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        return text.firstMatch(of: #/(^|[;|&] *)seeder (build|validate|diff|patch|inspect|infer) /#) == nil ? nil : text
    }

    /// The `run:` scripts of a GitHub workflow's steps, one line or a `|` block each.
    static func runScripts(_ lines: [String]) -> [String] {
        var scripts: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            index += 1
            guard trimmed.hasPrefix("run:") || trimmed.hasPrefix("- run:") else { continue }
            let value = trimmed.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            guard value == "|" else {
                scripts.append(value)
                continue
            }
            let indent = line.prefix { $0 == " " }.count
            var block: [String] = []
            while index < lines.count, lines[index].prefix(while: { $0 == " " }).count > indent {
                block.append(lines[index].trimmingCharacters(in: .whitespaces))
                index += 1
            }
            scripts.append(block.joined(separator: "\n"))
        }
        return scripts
    }

    /// The GitHub job's steps that run seeder, whole, with `gh` stood in for: it finds the
    /// release's seed in place and keeps the comment it is asked to post.
    @Test func theGitHubStepsRun() async throws {
        let blocks = try Self.yamlBlocks()
        let github = try #require(blocks.first { $0.contains("jobs:") && !$0.contains { $0.contains("uses: your-org/seeder@") } })
        let steps = Self.runScripts(github).filter { script in script.split(separator: "\n").contains { Self.command(String($0)) != nil } }
        #expect(steps.count == 2, "\(steps)")
        let scratch = try await Self.repositoryLayout()
        try FileManager.default.createDirectory(atPath: scratch.path("stub"), withIntermediateDirectories: false)
        try #"""
        #!/bin/bash
        case "$1 $2" in
          "release download") exit 0 ;;
          "pr comment") shift 2; number=$1; shift
            while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cp "$2" "posted-$number.md"; shift; done; exit 0 ;;
        esac
        exit 1
        """#.write(toFile: scratch.path("stub/gh"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path("stub/gh"))
        for step in steps {
            let script =
                "export PATH=\"$PWD/stub:$PATH\"\n" + step.replacingOccurrences(of: "${{ github.event.pull_request.number }}", with: "7")
            let run = try await Self.bash(script, in: scratch.root)
            #expect(run.status == 0, "\(step): \(run.stderr)")
        }
        let posted = try String(contentsOfFile: scratch.path("posted-7.md"), encoding: .utf8)
        #expect(posted.contains("jeff@example.com") && posted.contains("jeff@restkit.org"))
        #expect(posted == (try String(contentsOfFile: scratch.path("seed-diff.md"), encoding: .utf8)))
        // The changeset was checked: the release's seed patched with it holds the new seed's records.
        #expect(FileManager.default.fileExists(atPath: scratch.path("app.changeset")))
        #expect(try await seeder(["diff", "patched.sqlite", "app.sqlite"], in: scratch.root).status == 0)
    }

    /// The GitHub job's check of the changeset fails the step when the changeset does not give
    /// the new seed: here, one made from another seed than the release's.
    @Test func theGitHubChangesetCheckFailsOnAnotherSeed() async throws {
        let blocks = try Self.yamlBlocks()
        let github = try #require(blocks.first { $0.contains("jobs:") && !$0.contains { $0.contains("uses: your-org/seeder@") } })
        let step = try #require(Self.runScripts(github).first { $0.contains("seeder patch ") })
        let check = step.split(separator: "\n").filter { $0.hasPrefix("seeder patch ") || $0.hasPrefix("seeder diff patched") }
        #expect(check.count == 2, "\(step)")
        let scratch = try await Self.repositoryLayout()
        #expect(try await seeder(["build", "mappings/app.yaml", "dumps", "-o", "app.sqlite", "--quiet"], in: scratch.root).status == 0)
        #expect(try await seeder(["diff", "app.sqlite", "release.sqlite", "--changeset", "app.changeset"], in: scratch.root).status == 1)
        let run = try await Self.bash(check.joined(separator: "\n"), in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "error: the changeset app.changeset starts from another seed than release.sqlite; patched.sqlite was not written\n")
    }

    /// GitLab's script whole: the first run builds and caches the seed with its digest, the
    /// second finds it in the cache and builds nothing.
    @Test func theGitLabScriptRunsAndCaches() async throws {
        let blocks = try Self.yamlBlocks()
        let gitlab = try #require(blocks.first { $0.contains("  script:") })
        let start = try #require(gitlab.firstIndex(of: "  script:"))
        let script = gitlab[(start + 1)...].prefix { $0.hasPrefix("    - ") }.map { String($0.dropFirst("    - ".count)) }
        #expect(script.count == 7)
        #expect(script.contains { Self.command($0) != nil })
        let scratch = try await Self.repositoryLayout()
        let first = try await Self.bash(script.joined(separator: "\n"), in: scratch.root)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("reading: ") || first.stderr.contains("resolving: "), "the build ran: \(first.stderr)")
        let built = try Data(contentsOf: URL(fileURLWithPath: scratch.path("app.sqlite")))
        try FileManager.default.removeItem(atPath: scratch.path("app.sqlite"))
        let second = try await Self.bash(script.joined(separator: "\n"), in: scratch.root)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("resolving: "), "the cached seed was used: \(second.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("app.sqlite"))) == built)
        #expect(try String(contentsOfFile: scratch.path("seed-diff.md"), encoding: .utf8).contains("jeff@example.com"))
    }
}

/// docs/ci.md's workflow that fetches the dumps first: its fetch, build and diff steps run
/// against a service on 127.0.0.1, twice; the second fetch writes nothing, so the dumps' cache
/// key (the manifest's digest) and the seed stay the same.
struct CIFetchDocsTests {
    @Test func theFetchWorkflowRuns() async throws {
        let blocks = try CIDocsTests.yamlBlocks()
        let workflow = try #require(blocks.first { $0.contains { $0.contains("seeder fetch") } })
        let steps = CIDocsTests.runScripts(workflow).filter { $0.firstMatch(of: #/seeder (fetch|build|diff) /#) != nil }
        #expect(steps.count == 3, "\(steps)")
        let handler: TestHTTPServer.Handler = { request in
            guard request.header("Authorization") == "Bearer ci-token-123456" else { return .status(401) }
            let page = Int(request.query["page"] ?? "1")!
            let body = records(page: page, size: 2, count: 3)
            let etag = "\"\(page)-\(body.utf8.count)\""
            var headers: TestHTTPHeaders = ["ETag": etag]
            if page < 2 { headers.add("Link", "</users?page=\(page + 1)>; rel=\"next\"") }
            return request.header("If-None-Match") == etag ? .status(304, headers: headers) : .json(body, headers: headers)
        }
        try await TestHTTPServer.with(handler) { server in
            let scratch = try Workspace(directories: ["mappings", "stub"])
            try scratch.write(
                "mappings/app.yaml",
                """
                seeder: 1
                fetch: { base: "\(server.baseURL)", headers: { Authorization: "Bearer ${API_TOKEN}" } }
                entities:
                  User: { attributes: { id: integer, name: string } }
                sources:
                  - { path: users/*.json, entity: User, fetch: { url: users, paginate: link } }
                """)
            try "#!/bin/bash\nexit 0\n".write(toFile: scratch.path("stub/gh"), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path("stub/gh"))
            let binaries = URL(fileURLWithPath: try seederBinary()).deletingLastPathComponent().path
            func run(_ step: String) async throws -> Run {
                var environment = ProcessInfo.processInfo.environment
                environment["PATH"] = scratch.path("stub") + ":" + binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
                environment["API_TOKEN"] = "ci-token-123456"
                environment["GITHUB_STEP_SUMMARY"] = scratch.path("summary.md")
                environment["NO_COLOR"] = "1"
                environment["SOURCE_DATE_EPOCH"] = "1700000000"
                return try await runProgram("/bin/bash", ["-euo", "pipefail", "-c", step], in: scratch.root, environment: environment)
            }
            for step in steps {
                let result = try await run(step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
                if step.contains("seeder build") {
                    try FileManager.default.copyItem(atPath: scratch.path("app.sqlite"), toPath: scratch.path("release.sqlite"))
                }
            }
            let manifest = try Data(contentsOf: URL(fileURLWithPath: scratch.path("dumps/.seeder-fetch.json")))
            let seed = try Data(contentsOf: URL(fileURLWithPath: scratch.path("app.sqlite")))
            let again = try await run(steps[0])
            #expect(again.status == 0 && again.stdout.contains("dumps is up to date: nothing was written"), "\(again.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("dumps/.seeder-fetch.json"))) == manifest)
            #expect(try await run(steps[1]).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("app.sqlite"))) == seed)
            let summary = try String(contentsOfFile: scratch.path("summary.md"), encoding: .utf8)
            #expect(summary.contains("### seeder fetch") && !summary.contains("ci-token-123456"))
        }
    }
}
