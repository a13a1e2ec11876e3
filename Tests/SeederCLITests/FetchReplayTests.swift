import Foundation
import GRDB
import SeederTestServer
import SeederTestSupport
import Testing

/// `seeder fetch` against a real GitHub session, replayed: the five pages of an issues list that
/// octokit/fixtures recorded (`Fixtures/github-issues/`, its README names the source and the
/// license), answered from 127.0.0.1 with their recorded status, header fields and bodies, and
/// the GitHub mapping of docs/guides/fetching.md run on them through the real binary, `fetch`
/// then `build` (docs/commands.md, `seeder fetch`).
struct FetchReplayTests {
    static let fixtures = repository + "/Tests/SeederCLITests/Fixtures/github-issues/"
    /// A token of GitHub's form, fake: it must reach the server and nothing else.
    static let token = "ghp_R3playFakeToken0000000000000000000"
    static let environment = ["GITHUB_TOKEN": token, "SOURCE_DATE_EPOCH": "1700000000"]

    /// One recorded request and what GitHub answered.
    struct Exchange {
        /// The request target as recorded, path and query: `/repositories/515435940/issues?per_page=3&page=2`.
        var target: String
        var status: Int
        /// The response's header fields as recorded, in order.
        var headers: TestHTTPHeaders
        var body: Data

        var etag: String { headers.first("ETag") ?? "" }

        /// The issues of the page, as JSON objects.
        func issues() throws -> [[String: Any]] {
            try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
        }
    }

    /// The recorded exchanges, in the order they were made.
    static func exchanges() throws -> [Exchange] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "exchanges.json"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try list.map { item in
            #expect(item["method"] as? String == "GET")
            let fields = try #require(item["headers"] as? [[String]])
            return Exchange(
                target: try #require(item["path"] as? String), status: try #require(item["status"] as? Int),
                headers: TestHTTPHeaders(fields.map { ($0[0], $0[1]) }),
                body: try Data(contentsOf: URL(fileURLWithPath: fixtures + (try #require(item["body"] as? String)))))
        }
    }

    /// The header fields of `exchange` as the server sends them: `https://api.github.com/` in
    /// `Link` replaced by the server's own base URL (the `Host` the client reached it at).
    static func rewritten(_ exchange: Exchange, base: String) -> TestHTTPHeaders {
        TestHTTPHeaders(
            exchange.headers.map { field in
                (
                    field.name,
                    field.name.lowercased() == "link"
                        ? field.value.replacingOccurrences(of: "https://api.github.com/", with: base) : field.value
                )
            })
    }

    /// The `rel="next"` target of a recorded page, on `base`; `nil` on the last page.
    static func next(of exchange: Exchange, base: String) -> String? {
        let link = rewritten(exchange, base: base).first("Link") ?? ""
        return link.components(separatedBy: ", ").first { $0.hasSuffix(#"rel="next""#) }.map {
            String($0.dropFirst().prefix { $0 != ">" })
        }
    }

    /// GitHub, replayed: a request whose path and query were recorded gets the recorded answer;
    /// with `honoursIfNoneMatch`, a request whose `If-None-Match` is the page's recorded `ETag`
    /// gets `304 Not Modified` instead, as GitHub answers it: no body, the recorded fields but
    /// `Content-Type`, `Content-Length` and `Link` (RFC 9110, 15.4.5: a 304 repeats `ETag`,
    /// `Cache-Control`, `Vary`, `Date`; `Link` is not among them, so fetch must follow the next
    /// page its manifest recorded). A request without a `User-Agent` gets GitHub's 403, one
    /// without the token its 401.
    static func github(_ exchanges: [Exchange], honoursIfNoneMatch: Bool) -> TestHTTPServer.Handler {
        { request in
            guard request.method == "GET", let exchange = exchanges.first(where: { $0.target == request.uri }) else {
                return .json(#"{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}"#, status: 404)
            }
            guard request.header("User-Agent") != nil else {
                return .text(
                    "Request forbidden by administrative rules. Please make sure your request has a User-Agent header", status: 403)
            }
            guard request.header("Authorization") == "Bearer \(token)" else {
                return .json(#"{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}"#, status: 401)
            }
            let headers = rewritten(exchange, base: "http://\(request.header("Host") ?? "")/")
            if honoursIfNoneMatch, request.header("If-None-Match") == exchange.etag {
                var unchanged = headers
                for name in ["Content-Type", "Content-Length", "Link"] { unchanged.remove(name) }
                return .status(304, headers: unchanged)
            }
            return TestHTTPResponse(status: exchange.status, headers: headers, body: Array(exchange.body))
        }
    }

    /// An issue as the seed holds it, and as the recorded page has it.
    struct IssueRow: Equatable, Sendable {
        var id: Int?
        var number: Int?
        var title: String?
        var state: String?
        var user: Int?
    }

    /// The GitHub mapping of docs/guides/fetching.md as it is written, pointed at the server,
    /// at the recorded repository and at the recorded query (`per_page=3`, no `state`).
    static func guideMapping(base: String, recorded: Exchange) throws -> String {
        let guide = try String(contentsOfFile: repository + "/docs/guides/fetching.md", encoding: .utf8)
        let section = try #require(guide.components(separatedBy: "\n## GitHub").dropFirst().first)
        let yaml = try #require(section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let parts = recorded.target.split(separator: "?", maxSplits: 1)
        let query = try #require(parts.last?.split(separator: "=").map(String.init))
        #expect(query == ["per_page", "3"])
        var mapping = yaml
        for (old, new) in [
            ("https://api.github.com/", base), ("repos/apple/swift/issues", String(parts[0].dropFirst())),
            ("{ state: all, per_page: 100 }", "{ per_page: \(query[1]) }"),
        ] {
            try #require(mapping.components(separatedBy: old).count == 2, "the guide's GitHub mapping has no \(old)")
            mapping = mapping.replacingOccurrences(of: old, with: new)
        }
        return mapping
    }

    /// `seeder build mapping.yaml dumps -o OUTPUT`, reproducibly.
    static func build(_ harness: FetchHarness, to output: String) async throws -> Run {
        try await seeder(["build", "mapping.yaml", "dumps", "-o", output], in: harness.workspace.root, environment: environment)
    }

    /// `seeder fetch`'s summary of the one source (docs/commands.md, `seeder fetch`).
    static func table(pages: Int, unchanged: Int, records: Int, bytes: Int, requests: Int) -> String {
        """
        source         pages  unchanged  removed  records  bytes  requests  retries
        issues/*.json  \(pad(pages, 5))  \(pad(unchanged, 9))  \(pad(0, 7))  \(pad(records, 7))  \(pad(bytes, 5))  \(pad(requests, 8))  \(pad(0, 7))

        """
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - String(number).count)) + String(number)
    }

    /// Fetch, build, then fetch again against a GitHub that answers 304, and build again.
    @Test func theRecordedSessionThenNothingChanged() async throws {
        let exchanges = try Self.exchanges()
        let issues = try exchanges.flatMap { try $0.issues() }
        let bytes = exchanges.map(\.body.count).reduce(0, +)
        // The recording as the README describes it, so that a fixture read wrong fails here.
        #expect(exchanges.count == 5 && issues.count == 13 && bytes == 34049)
        #expect(exchanges.allSatisfy { $0.status == 200 && $0.headers.first("Content-Length") == String($0.body.count) })

        try await TestHTTPServer.with(Self.github(exchanges, honoursIfNoneMatch: true)) { server in
            let harness = try FetchHarness(mapping: try Self.guideMapping(base: server.baseURL, recorded: exchanges[0]))
            var runs: [Run] = []

            let first = try await harness.fetch(environment: Self.environment)
            runs.append(first)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr == "")
            #expect(first.stdout == Self.table(pages: 5, unchanged: 0, records: 13, bytes: bytes, requests: 5) + "updated dumps\n")
            // One request a recorded page, in the recorded order, each with the guide's headers and none conditional.
            #expect(server.requests.map(\.uri) == exchanges.map(\.target))
            for request in server.requests {
                #expect(request.header("Accept") == "application/vnd.github+json")
                #expect(request.header("User-Agent") == "my-app-seed")
                #expect(request.header("X-GitHub-Api-Version") == "2022-11-28")
            }
            #expect(
                server.requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" && $0.header("If-None-Match") == nil })

            // Each page's file is the recorded body, byte for byte.
            let pages = (1...exchanges.count).map { String(format: "issues/%04d.json", $0) }
            let fetched = try harness.snapshot()
            #expect(Set(fetched.keys) == Set(pages + [".seeder-fetch.json"]))
            for (page, exchange) in zip(pages, exchanges) {
                #expect(fetched[page]?.bytes == exchange.body, "\(page)")
            }

            // The manifest: each page's URL, its recorded ETag, its size, and the next page's URL.
            let manifestFile = try #require(fetched[".seeder-fetch.json"])
            let manifest = try #require(try JSONSerialization.jsonObject(with: manifestFile.bytes) as? [String: Any])
            let files = try #require(manifest["files"] as? [String: [String: Any]])
            #expect(Set(files.keys) == Set(pages))
            for (page, exchange) in zip(pages, exchanges) {
                let entry = try #require(files[page])
                #expect(entry["url"] as? String == server.baseURL + exchange.target.dropFirst(), "\(page)")
                #expect(entry["etag"] as? String == exchange.etag, "\(page)")
                #expect(entry["size"] as? Int == exchange.body.count, "\(page)")
                #expect(entry["next"] as? String == Self.next(of: exchange, base: server.baseURL), "\(page)")
            }
            #expect(Set(exchanges.map(\.etag)).count == 5, "the recorded ETags differ page by page")

            let build = try await Self.build(harness, to: "first.sqlite")
            runs.append(build)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(!build.stderr.contains("error:"), "\(build.stderr)")
            #expect(
                build.stdout == """
                    entity  records  rows  merged  conflicts  references  dropped
                    Issue        13    13       0          0          13        0
                    User         13     1      12          0           0        0
                    Label         0     0       0          0           0        0
                    wrote first.sqlite

                    """)

            // The seed holds every recorded issue, each linked to its user, and each distinct user once.
            let users = Set(issues.compactMap { ($0["user"] as? [String: Any])?["id"] as? Int })
            let labels = Set(issues.flatMap { ($0["labels"] as? [[String: Any]]) ?? [] }.compactMap { $0["id"] as? Int })
            #expect(users.count == 1 && labels.isEmpty)
            let seed = try DatabaseQueue(path: harness.workspace.path("first.sqlite"))
            let (rows, userIDs, labelCount) = try await seed.read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT id, number, title, state, user_id FROM issue ORDER BY id").map {
                        IssueRow(id: $0["id"], number: $0["number"], title: $0["title"], state: $0["state"], user: $0["user_id"])
                    },
                    try Int.fetchAll(db, sql: "SELECT id FROM user ORDER BY id"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM label")
                )
            }
            let expected = issues.map { issue in
                IssueRow(
                    id: issue["id"] as? Int, number: issue["number"] as? Int, title: issue["title"] as? String,
                    state: issue["state"] as? String,
                    user: (issue["user"] as? [String: Any])?["id"] as? Int)
            }
            #expect(rows == expected.sorted { ($0.id ?? 0) < ($1.id ?? 0) })
            #expect(userIDs == users.sorted())
            #expect(labelCount == labels.count)

            // Again: GitHub answers every page 304, and nothing in DUMPS is written.
            let requestsBefore = server.requests.count
            let second = try await harness.fetch(environment: Self.environment)
            runs.append(second)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stderr == "")
            #expect(
                second.stdout
                    == Self.table(pages: 0, unchanged: 5, records: 13, bytes: 0, requests: 5) + "dumps is up to date: nothing was written\n"
            )
            #expect(try harness.snapshot() == fetched, "a file's bytes or modification time changed")
            let conditional = Array(server.requests[requestsBefore...])
            #expect(conditional.map(\.uri) == exchanges.map(\.target))
            #expect(conditional.map { $0.header("If-None-Match") } == exchanges.map(\.etag))

            let rebuild = try await Self.build(harness, to: "second.sqlite")
            runs.append(rebuild)
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            let seeds = try ["first.sqlite", "second.sqlite"].map { try Data(contentsOf: URL(fileURLWithPath: harness.workspace.path($0))) }
            #expect(seeds[0] == seeds[1], "the seed built again differs")

            // The token went to the server and nowhere else.
            let secret = Data(Self.token.utf8)
            for (name, file) in try harness.snapshot() { #expect(file.bytes.range(of: secret) == nil, "the token is in \(name)") }
            #expect(seeds.allSatisfy { $0.range(of: secret) == nil }, "the token is in a seed")
            for run in runs { #expect(!run.stdout.contains(Self.token) && !run.stderr.contains(Self.token)) }
            #expect(try harness.besideDumps() == ["dumps", "first.sqlite", "mapping.yaml", "second.sqlite"])
        }
    }

    /// A service (or a cache in front of it) that ignores `If-None-Match` and sends the recorded
    /// pages again: a 200 whose body is the file's bytes rewrites nothing either (docs/commands.md,
    /// fetch: Only what changed).
    @Test func theSameAnswersAgainWriteNothing() async throws {
        let exchanges = try Self.exchanges()
        let bytes = exchanges.map(\.body.count).reduce(0, +)
        try await TestHTTPServer.with(Self.github(exchanges, honoursIfNoneMatch: false)) { server in
            let harness = try FetchHarness(mapping: try Self.guideMapping(base: server.baseURL, recorded: exchanges[0]))
            let first = try await harness.fetch(environment: Self.environment)
            #expect(first.status == 0, "\(first.stderr)")
            let before = try harness.snapshot()
            let second = try await harness.fetch(environment: Self.environment)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(
                second.stdout
                    == Self.table(pages: 5, unchanged: 0, records: 13, bytes: bytes, requests: 5)
                    + "dumps is up to date: nothing was written\n")
            #expect(try harness.snapshot() == before, "a file's bytes or modification time changed")
            #expect(server.requests.count == 2 * exchanges.count)
            #expect(server.requests.suffix(exchanges.count).map { $0.header("If-None-Match") } == exchanges.map(\.etag))
        }
    }
}
