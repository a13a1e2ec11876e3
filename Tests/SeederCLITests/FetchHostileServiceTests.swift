import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// `seeder fetch` against a service that tries to turn it against the user (docs/guides/fetching.md,
/// What fetch guarantees): two hosts on loopback, 127.0.0.1 the mapping's and 127.0.0.2 the
/// attacker's, the real binary, and what each host received checked byte for byte.
struct FetchHostileServiceTests {
    static let token = "T0ken+Secret/Value"
    static let apiKey = "K3y-Secret=Value"
    static let environment = ["TOKEN": token, "API_KEY": apiKey]

    /// A mapping of one source at `url` on `server`, with a token in Authorization, a key in a
    /// custom header and a cookie, all credentials.
    static func mapping(_ server: TestHTTPServer, url: String = "users", paginate: String? = nil, keyPath: String? = nil) -> String {
        """
        seeder: 1
        fetch:
          base: "\(server.baseURL)"
          retries: 1
          timeout: 5
          headers: { Authorization: "Bearer ${TOKEN}", X-Api-Key: "${API_KEY}", Cookie: "session=abc" }
        entities:
          User: { attributes: { id: integer } }
        sources:
          - path: \(paginate == nil ? "users.json" : "users/*.json")
            entity: User\(keyPath.map { "\n    keyPath: \($0)" } ?? "")
            fetch: { url: "\(url)"\(paginate.map { ", paginate: \($0)" } ?? "") }
        """
    }

    /// Nothing a request to `server` held (its line, headers and body) carries a credential.
    static func expectNoCredentials(_ server: TestHTTPServer, _ comment: Comment? = nil) {
        for request in server.requests {
            let wire = "\(request.method) \(request.uri)\n\(request.headers.description)\n\(request.text)"
            for name in ["Authorization", "X-Api-Key", "Cookie", "Proxy-Authorization"] {
                #expect(request.header(name) == nil, "\(name) reached \(server.host): \(comment?.description ?? "")")
            }
            for secret in [token, apiKey, "T0ken", "K3y-Secret", "session=abc"] {
                #expect(!wire.contains(secret), "\(secret) reached \(server.host): \(wire)")
            }
        }
    }

    static func expectNoSecret(in run: Run, _ harness: FetchHarness) throws {
        let output = run.stdout + run.stderr
        for (relative, bytes) in try FetchHarness.files(under: harness.workspace.root) {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("Secret"), "a secret in \(relative)")
        }
        #expect(!output.contains("Secret"), "\(output)")
    }

    /// Two servers, the mapping's on 127.0.0.1 and the other host's on 127.0.0.2.
    static func withTwoHosts(
        home: @escaping TestHTTPServer.Handler, elsewhere: @escaping TestHTTPServer.Handler = { _ in .json(#"[{"id": 9}]"#) },
        run body: (TestHTTPServer, TestHTTPServer) async throws -> Void
    ) async throws {
        let other = try await TestHTTPServer.start(loopbackHost: 2, elsewhere)
        do {
            try await TestHTTPServer.with(home) { server in try await body(server, other) }
            await other.shutdown()
        } catch {
            await other.shutdown()
            throw error
        }
    }

    /// Every redirect status to another host: followed, with no credential of any kind.
    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectToAnotherHostCarriesNoCredential(status: Int) async throws {
        let port = Box(0)
        try await Self.withTwoHosts { _ in
            .redirect(to: "http://127.0.0.2:\(port.value)/landing", status: status)
        } run: { home, other in
            port.value = other.port
            let harness = try FetchHarness(mapping: Self.mapping(home))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(home.requests.first?.header("X-Api-Key") == Self.apiKey, "the mapping's own host gets them")
            #expect(other.requests.map(\.uri) == ["/landing"])
            Self.expectNoCredentials(other, "\(status)")
            try Self.expectNoSecret(in: run, harness)
        }
    }

    /// A `Link` header's next page on another host: requested without credentials.
    @Test func aLinkToAnotherHostCarriesNoCredential() async throws {
        let port = Box(0)
        try await Self.withTwoHosts { _ in
            .json(#"[{"id": 1}]"#, headers: ["Link": "<http://127.0.0.2:\(port.value)/page2>; rel=\"next\""])
        } elsewhere: { _ in
            .json(#"[{"id": 2}]"#)
        } run: { home, other in
            port.value = other.port
            let harness = try FetchHarness(mapping: Self.mapping(home, paginate: "link"))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try harness.text("users/0002.json") == #"[{"id": 2}]"#)
            Self.expectNoCredentials(other)
        }
    }

    /// A body's next URL on another host (JSON:API `links.next`): requested without credentials;
    /// one that carries the secret there is refused, and nothing is written.
    @Test func aBodyNextToAnotherHost() async throws {
        let port = Box(0)
        let leak = Box(false)
        try await Self.withTwoHosts { request in
            let next =
                leak.value
                ? "http://127.0.0.2:\(port.value)/steal?key=\(request.header("X-Api-Key") ?? "")" : "http://127.0.0.2:\(port.value)/p2"
            return .json(#"{"data": [{"id": 1}], "links": {"next": "\#(next)"}}"#)
        } elsewhere: { _ in
            .json(#"{"data": [{"id": 2}], "links": {"next": null}}"#)
        } run: { home, other in
            port.value = other.port
            let harness = try FetchHarness(mapping: Self.mapping(home, paginate: "{ next: links.next }", keyPath: "data"))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 0, "\(run.stderr)")
            Self.expectNoCredentials(other)
            leak.value = true
            let before = try harness.snapshot()
            let refused = try await harness.fetch(environment: Self.environment)
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("the response holds the value of ${API_KEY} at line 1, column"),
                "a body that echoes the key is never written: \(refused.stderr)")
            #expect(try harness.snapshot() == before)
            #expect(other.requests.count == 1, "the URL with the key was not requested")
            Self.expectNoCredentials(other)
            try Self.expectNoSecret(in: refused, harness)
        }
    }

    /// A redirect to another host whose URL carries the secret (echoed in any form) is refused.
    @Test func aRedirectThatCarriesTheSecretElsewhereIsRefused() async throws {
        let port = Box(0)
        try await Self.withTwoHosts { request in
            let echoed = (request.header("X-Api-Key") ?? "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return .redirect(to: "http://127.0.0.2:\(port.value)/steal?k=\(echoed)")
        } run: { home, other in
            port.value = other.port
            let harness = try FetchHarness(mapping: Self.mapping(home))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 2)
            #expect(
                FetchFailureTests.line(run)
                    == "mapping.yaml:12:12: error: GET \(home.url("users")): a URL of another origin (http://127.0.0.2:\(other.port)) "
                    + "than the mapping's (http://127.0.0.1:\(home.port)) holds a secret; fetch never sends one there")
            #expect(other.requests.isEmpty)
            try Self.expectNoSecret(in: run, harness)
        }
    }

    /// A redirect to a file:// or ftp:// URL is refused: nothing is read there, DUMPS is unchanged.
    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1:9/users.json"])
    func aRedirectToAnotherSchemeIsRefused(location: String) async throws {
        try await TestHTTPServer.with { _ in
            .redirect(to: location)
        } run: { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            let before = try harness.snapshot()
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 2)
            #expect(
                FetchFailureTests.line(run)
                    == "mapping.yaml:12:12: error: GET \(server.url("users")): \(location) is not an http or https URL fetch can request")
            #expect(server.requests.count == 1)
            #expect(try harness.snapshot() == before)
        }
    }

    /// The service echoes the secret percent-encoded or JSON-escaped: the body is not written,
    /// and no form of the secret is shown, in any message or file.
    @Test(arguments: [
        #"{"id": 1, "self": "https://h/x?api_key=T0ken%2BSecret%2FValue"}"#,
        #"{"id": 1, "self": "T0ken+Secret\/Value"}"#,
        #"{"id": 1, "self": "T0ken\u002BSecret\u002fValue"}"#,
        #"{"id": 1, "self": "T0ken%2bSecret\/Value"}"#,
    ])
    func anEchoedSecretInAnyFormIsNeverWritten(body: String) async throws {
        try await TestHTTPServer.with { _ in
            .json("[\(body)]")
        } run: { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 1)
            #expect(
                FetchFailureTests.line(run)
                    == "mapping.yaml:12:12: error: GET \(server.url("users")): the response holds the value of ${TOKEN} at line 1, "
                    + "column \(body.utf8.count - body.drop { $0 != "T" }.utf8.count + 2); fetch never writes a secret into a dump "
                    + "(send it in a header, or ask the service not to echo it)")
            #expect(try harness.snapshot().isEmpty)
            try Self.expectNoSecret(in: run, harness)
        }
    }

    /// An error page that quotes the secret just where the excerpt is cut shows no part of it.
    @Test func anExcerptCutAtTheSecretShowsNoPartOfIt() async throws {
        try await TestHTTPServer.with { request in
            // Cut at 200 characters before it was hidden, the excerpt showed the token's first 12.
            .text(String(repeating: "x", count: 180) + " " + (request.header("Authorization") ?? ""), status: 404)
        } run: { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 2)
            #expect(FetchFailureTests.line(run).hasSuffix("x Bearer ${TOKEN}"), "\(run.stderr)")
            #expect(!run.stderr.contains("T0ken"))
        }
    }

    /// Numbers the service sends: any value is an error or a wait, never a crash, and the
    /// staging folder is gone.
    @Test(arguments: [
        ["Retry-After": "1e300"], ["Retry-After": "1e400"], ["Retry-After": "nan"], ["Retry-After": "-1"],
        ["Retry-After": "99999999999999999999999999"], ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1e300"],
        ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999999999999999"],
    ])
    func aNumberFromTheServiceIsNeverACrash(headers: [String: String]) async throws {
        try await TestHTTPServer.with { _ in
            .status(429, headers: TestHTTPHeaders(headers.map { ($0.key, $0.value) }))
        } run: { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 2, "\(run.stderr)")
            let line = FetchFailureTests.line(run)
            let long = "status 429 Too Many Requests; the server asks to wait 365 days or more, longer than the 60 s fetch waits"
            #expect(
                line.hasSuffix("gave up after 2 attempts: status 429 Too Many Requests (2 times)") || line.contains(long), "\(line)")
            #expect(try harness.besideDumps() == ["mapping.yaml"])
        }
    }

    /// A parent record's value that holds CR LF adds no header; `..` does not climb the path.
    @Test func aParentsValuesAreNeverSyntax() async throws {
        try await TestHTTPServer.with { request in
            request.path == "/kids" ? .json(#"[{"id": "..", "name": "x\r\nAuthorization: Bearer injected"}]"#) : .json("[]")
        } run: { server in
            for (header, url, message) in [
                (
                    "X-Kid: \"{name}\"", "kids/{id}/items",
                    "the record at /0 of kids.json gives '{id}' the value '..', which would climb the URL's path; fetch never sends it"
                ),
                (
                    "X-Kid: \"{name}\"", "kid/{name}/items",
                    "the record at /0 of kids.json gives '{name}' a value with a line break or NUL, which fetch never puts in a header"
                ),
            ] {
                let harness = try FetchHarness(
                    mapping: """
                        seeder: 1
                        fetch: { base: "\(server.baseURL)", retries: 0 }
                        entities:
                          Kid: { attributes: { id: string } }
                          Item: { attributes: { id: integer } }
                        sources:
                          - { path: kids.json, entity: Kid, fetch: { url: kids } }
                          - { path: items/*.json, entity: Item, fetch: { url: "\(url)", each: kids.json, headers: { \(header) } } }
                        """)
                let run = try await harness.fetch()
                #expect(run.status == 1)
                #expect(FetchFailureTests.line(run) == "mapping.yaml:8:48: error: \(message)  [/0]", "\(run.stderr)")
            }
            #expect(server.requests.map(\.path).allSatisfy { $0 == "/kids" }, "\(server.requests.map(\.uri))")
            #expect(server.requests.allSatisfy { $0.header("Authorization") == nil })
        }
    }

    /// A tampered manifest's next URL (another host, `${TOKEN}` in it) is never followed nor
    /// expanded after a 304: the page is asked for again, whole, and its own `Link` followed.
    @Test func aTamperedRecordedNextIsNotFollowed() async throws {
        let port = Box(0)
        try await Self.withTwoHosts { request in
            let page = Int(request.query["page"] ?? "1")!
            if page == 1, request.header("If-None-Match") == "\"p1\"" { return .status(304) }
            return .json(
                #"[{"id": \#(page)}]"#,
                headers: page == 1 ? ["ETag": "\"p1\"", "Link": "</users?page=2>; rel=\"next\""] : ["ETag": "\"p\(page)\""])
        } run: { home, other in
            port.value = other.port
            let harness = try FetchHarness(mapping: Self.mapping(home, paginate: "link"))
            #expect(try await harness.fetch(environment: Self.environment).status == 0)
            let manifest = try harness.text(".seeder-fetch.json")
            let recorded = "\(home.url("users?page=2"))"
            #expect(manifest.contains(#""next":"\#(recorded)""#), "\(manifest)")
            let tampered = manifest.replacingOccurrences(
                of: recorded, with: "http://127.0.0.2:\(other.port)/steal?token=${TOKEN}")
            try harness.workspace.write("dumps/.seeder-fetch.json", tampered)
            let run = try await harness.fetch(environment: Self.environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(other.requests.isEmpty, "\(other.requests.map(\.uri))")
            #expect(home.requests.suffix(3).map(\.uri) == ["/users", "/users", "/users?page=2"], "asked again, whole, after the 304")
            #expect(try harness.text(".seeder-fetch.json") == manifest, "the manifest is written as the service says")
        }
    }

    /// Four large pages at once, gzipped on the wire: each body goes to the staging folder as
    /// it arrives and is read from there as the build reads a dump, so the fetch holds a few
    /// blocks, not the bodies. A second fetch reads the stored pages the same way after 304s.
    @Test func largeBodiesAreStreamedNotHeld() async throws {
        let count = 250_000
        var text = #"{"total": \#(4 * count), "data": ["#
        text.reserveCapacity(count * 48)
        for id in 1...count { text += (id == 1 ? "" : ",") + #"{"id": \#(id), "name": "a user of a large page"}"# }
        text += "]}"
        let body = text
        let scratch = try Workspace()
        try scratch.write("body.json", body)
        let gzipped = Array(try Data(contentsOf: URL(fileURLWithPath: try await Compressor.gzip.compress(scratch.path("body.json")))))
        try await TestHTTPServer.with { request in
            if request.header("If-None-Match") == "\"big\"" { return .status(304) }
            return .bytes(gzipped, contentType: "application/json", headers: ["Content-Encoding": "gzip", "ETag": "\"big\""])
        } run: { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { base: "\(server.baseURL)", concurrency: 4 }
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - path: users/*.json.gz
                        entity: User
                        keyPath: data
                        fetch: { url: users, paginate: { offset: offset, limit: limit, size: \(count), total: total } }
                    """)
            let (run, peak) = try await harness.fetchMeasuringPeak()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout.contains("users/*.json.gz      4          0        0  \(4 * count)  \(4 * body.utf8.count)"), "\(run.stdout)")
            // Four bodies of 12 MiB: held whole they took 225 MB; streamed, 62 MB.
            #expect(peak < 120_000, "peak \(peak) kB")
            let unzipped = try await program("/usr/bin/env", ["gzip", "-dc", harness.dumps + "/users/0003.json.gz"])
            #expect(unzipped.stdout == body)
            let before = try harness.snapshot()
            let again = try await harness.fetch()
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("users/*.json.gz      0          4        0  \(4 * count)      0"), "\(again.stdout)")
            #expect(try harness.snapshot() == before)
        }
    }

    /// A key sent in the query that the service echoes into its `Link` header: the manifest
    /// records the next page with `${API_KEY}`, which is never sent as text; after a 304 the
    /// page is asked for again, and the next fetch is as good as the first. Echoed in a form the
    /// manifest cannot name (every character but letters and digits encoded), the next page is
    /// not recorded in a usable form at all, and the same holds.
    @Test(arguments: ["-._~", ""])
    func aSecretInARecordedNextIsNeverSentAsText(alsoKept: String) async throws {
        let kept = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: alsoKept))
        try await TestHTTPServer.with { request in
            let page = Int(request.query["page"] ?? "1")!
            guard request.query["apikey"] == Self.apiKey else { return .json(#"{"message": "bad key"}"#, status: 401) }
            if request.header("If-None-Match") == "\"p\(page)\"" { return .status(304) }
            let key = Self.apiKey.addingPercentEncoding(withAllowedCharacters: kept)!
            return .json(
                #"[{"id": \#(page)}]"#,
                headers: page == 1 ? ["ETag": "\"p1\"", "Link": "</users?apikey=\(key)&page=2>; rel=\"next\""] : ["ETag": "\"p2\""])
        } run: { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { base: "\(server.baseURL)", retries: 0, query: { apikey: "${API_KEY}" } }
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - { path: users/*.json, entity: User, fetch: { url: users, paginate: link } }
                    """)
            for _ in 0..<3 {
                let run = try await harness.fetch(environment: Self.environment)
                #expect(run.status == 0, "\(run.stderr)")
            }
            #expect(try harness.text(".seeder-fetch.json").contains("apikey=${API_KEY}&page=2") == !alsoKept.isEmpty)
            #expect(server.requests.count { $0.uri.hasSuffix("page=2") } == 3, "page 2 fetched on each run")
            #expect(server.requests.allSatisfy { !$0.uri.contains("%7B") && !$0.uri.contains("${") }, "\(server.requests.map(\.uri))")
            try Self.expectNoSecret(in: try await harness.fetch(environment: Self.environment), harness)
        }
    }

    /// Nothing listening: each retry is said as it happens (`--progress`), and the failure names
    /// each outcome once, with its count.
    @Test func retriesAreShownAndOutcomesCounted() async throws {
        let refusing = try RefusingPort()
        let url = refusing.url("users")
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                fetch: { retries: 2 }
                entities:
                  User: { attributes: { id: integer } }
                sources:
                  - { path: users.json, entity: User, fetch: { url: "\(url)" } }
                """)
        // Off a terminal, without `--progress`, as in CI; and `--progress plain`.
        for arguments in [[], ["--progress", "plain"]] {
            let run = try await harness.fetch(arguments)
            let retries = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fetch: GET") }
            #expect(retries.count == 2, "\(run.stderr)")
            #expect(
                retries.first?.hasPrefix("fetch: GET \(url): could not connect (connection refused); retry 1 of 2 in 0.") == true,
                "\(run.stderr)")
        }
        let quiet = try await harness.fetch(["--progress", "never"])
        #expect(!quiet.stderr.contains("retry 1 of 2"), "\(quiet.stderr)")
        let run = try await harness.fetch(["--progress", "plain"])
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "mapping.yaml:6:46: error: GET \(url): gave up after 3 attempts: could not connect (connection refused) (3 times)\n"),
            "\(run.stderr)")
        _ = refusing
    }
}
