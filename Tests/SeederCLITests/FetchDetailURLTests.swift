import Foundation
import GRDB
import SeederTestServer
import SeederTestSupport
import Testing

/// A list that only leads to records (docs/mapping.md, A detail URL from the record): a source
/// with `fetch:` and no entity, `url: "{K}"` following each entry's own URL, and `missing:`,
/// against PokeAPI's recorded answers (`Fixtures/pokeapi-types/`, its README names the source),
/// through the real binary.
struct FetchDetailURLTests {
    static let fixtures =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/pokeapi-types/"

    static func fixture(_ name: String) -> String {
        (try? String(contentsOfFile: fixtures + name, encoding: .utf8)) ?? ""
    }

    /// PokeAPI as recorded: the type list (its `$BASE_URL_PLACEHOLDER` made the server's own
    /// origin) and the types 10, 11 and 12, each with an `ETag`; `gone` paths answer 404.
    static func pokeAPI(gone: Set<String> = ["/api/v2/type/1/"]) -> TestHTTPServer.Handler {
        { request in
            if gone.contains(request.path) { return .json(#"{"detail": "Not found."}"#, status: 404) }
            if request.path == "/api/v2/type/" {
                let origin = "http://" + (request.header("Host") ?? "")
                return .json(fixture("type-list.json").replacingOccurrences(of: "$BASE_URL_PLACEHOLDER", with: origin))
            }
            let parts = request.path.split(separator: "/")
            guard parts.count == 4, parts[2] == "type", ["10", "11", "12"].contains(parts[3]) else { return .status(404) }
            let etag = "\"type-\(parts[3])\""
            if request.header("If-None-Match") == etag { return .status(304, headers: ["ETag": etag]) }
            return .json(fixture("\(parts[3]).json"), headers: ["ETag": etag])
        }
    }

    /// The list source has no entity; each type is fetched from its entry's `url`, named by its
    /// id; `missing` as given.
    static func mapping(_ server: TestHTTPServer, missing: String = "skip", list: String = "type-list.json") -> String {
        """
        seeder: 1
        fetch: { base: "\(server.baseURL)api/v2/" }
        entities:
          Type:
            identity: id
            attributes:
              id: integer
              name: string
              damageClass: { type: string, from: move_damage_class.name }
        sources:
          - path: \(list)
            keyPath: results
            fetch: { url: type/ }
          - path: types/*.json
            entity: Type
            fetch: { url: "{url}", each: \(list), missing: \(missing) }
        """
    }

    /// The list drives one fetch a detail URL; the one gone is skipped with a note at its entry,
    /// counted as missing in the table and `--json`; build reads the types and never the list,
    /// nor warns about it; a second fetch asks with `If-None-Match` and keeps every file.
    @Test func aListLeadsToItsRecords() async throws {
        try await TestHTTPServer.with(Self.pokeAPI()) { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            let origin = "http://127.0.0.1:\(server.port)"
            #expect(
                run.stderr
                    == "dumps/type-list.json:6:9: note: GET \(origin)/api/v2/type/1/: status 404 Not Found; skipped ('missing: skip'): "
                    + "no file for the record at /results/0 of type-list.json  [/results/0]\n")
            #expect(
                Set(try harness.snapshot().keys)
                    == ["type-list.json", "types/10.json", "types/11.json", "types/12.json", ".seeder-fetch.json"])
            #expect(try harness.text("types/12.json") == Self.fixture("12.json"), "the body as the service sent it")
            #expect(
                run.stdout.hasPrefix(
                    """
                    source          pages  unchanged  removed  missing  records  bytes  requests  retries
                    type-list.json      1          0        0        0        4
                    """), "\(run.stdout)")
            #expect(run.stdout.contains(#/\ntypes/\*\.json +3 +0 +0 +1 +3 +\d+ +4 +0\n/#), "\(run.stdout)")

            let build = try await seeder(["build", "mapping.yaml", "dumps", "-o", "out.sqlite"], in: harness.workspace.root)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(!build.stderr.contains("type-list.json"), "the list is never read, nor warned about: \(build.stderr)")
            let rows = try await DatabaseQueue(path: harness.workspace.path("out.sqlite")).read {
                try Row.fetchAll($0, sql: "SELECT id, name, damage_class FROM type ORDER BY id").map {
                    "\($0[0] as Int) \($0[1] as String) \($0[2] as String)"
                }
            }
            #expect(rows == ["10 fire special", "11 water special", "12 grass special"])
            let validate = try await seeder(["validate", "mapping.yaml", "dumps"], in: harness.workspace.root)
            #expect(validate.status == 0 && !validate.stderr.contains("type-list.json"), "\(validate.stderr)")

            let before = server.requests.count
            let again = try await harness.fetch(["--json"])
            #expect(again.status == 0, "\(again.stderr)")
            let details = server.requests[before...].filter { $0.path.hasPrefix("/api/v2/type/1") }
            #expect(details.count == 4, "\(details.map(\.uri))")
            #expect(
                details.filter { $0.path != "/api/v2/type/1/" }.allSatisfy { $0.header("If-None-Match")?.hasPrefix("\"type-") == true })
            let document = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as! [String: Any]
            let sources = document["sources"] as! [[String: Any]]
            #expect(sources[1]["path"] as? String == "types/*.json")
            #expect(sources[1]["pagesUnchanged"] as? Int == 3)
            #expect(sources[1]["missing"] as? Int == 1)
            #expect(document["changed"] as? Bool == false)
            let notes = (document["diagnostics"] as! [[String: Any]]).map { "\($0["severity"]!) \($0["code"]!) \($0["jsonPath"]!)" }
            #expect(notes == ["note http /results/0"])
            let annotated = try await harness.fetch(["--diagnostics", "github"])
            #expect(
                annotated.stdout.contains("::notice file=dumps/type-list.json,line=6,col=9,title=seeder http::GET "),
                "a note is a notice to GitHub: \(annotated.stdout)")
        }
    }

    /// A child fetched before and gone now is removed, as a page that no longer exists is; with
    /// `missing: error` (the default) a gone child fails the fetch as before, and DUMPS stays.
    @Test func aChildThatIsGone() async throws {
        let gone = Box<Set<String>>(["/api/v2/type/1/"])
        let recorded = Self.pokeAPI(gone: [])
        let handler: TestHTTPServer.Handler = { request in
            gone.value.contains(request.path) ? .status(410) : try await recorded(request)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            #expect(try await harness.fetch().status == 0)
            gone.value = ["/api/v2/type/1/", "/api/v2/type/12/"]
            // DUMPS written with a trailing slash, as the guides write it: the note names the list
            // at `dumps/type-list.json`, not `dumps//type-list.json`.
            let run = try await seeder(["fetch", "mapping.yaml", "dumps/"], in: harness.workspace.root)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("/api/v2/type/12/: status 410 Gone; skipped ('missing: skip')"), "\(run.stderr)")
            #expect(run.stderr.hasPrefix("dumps/type-list.json:6:9: note: "), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: harness.dumps + "/types/12.json"))
            #expect(run.stdout.contains(#/\ntypes/\*\.json +0 +2 +1 +2 +2 /#), "\(run.stdout)")

            try harness.workspace.write("mapping.yaml", Self.mapping(server, missing: "error"))
            let before = try harness.snapshot()
            let failed = try await harness.fetch()
            #expect(failed.status == 2)
            #expect(
                failed.stderr.hasPrefix(
                    "mapping.yaml:16:12: error: GET http://127.0.0.1:\(server.port)/api/v2/type/1/: status 410 Gone\n"),
                "\(failed.stderr)")
            #expect(try harness.snapshot() == before)
        }
    }

    /// Relative URLs resolve against `base`, dot segments removed; the same URL from several
    /// records is fetched once.
    @Test func relativeURLsAndOneFetchAURL() async throws {
        let list =
            #"{"results": [{"url": "/api/v2/type/12/"}, {"url": "type/10/"}, {"url": "../v2/type/./11/"}, {"url": "/api/v2/type/12/"}]}"#
        let recorded = Self.pokeAPI()
        let handler: TestHTTPServer.Handler = { request in
            request.path == "/api/v2/type/" ? .json(list) : try await recorded(request)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                server.requests.map(\.path).sorted() == ["/api/v2/type/", "/api/v2/type/10/", "/api/v2/type/11/", "/api/v2/type/12/"])
            #expect(
                Set(try harness.snapshot().keys) == [
                    "type-list.json", "types/10.json", "types/11.json", "types/12.json", ".seeder-fetch.json",
                ])
        }
    }

    /// A paginated detail URL: the page parameter joins the URL's own query, the files are
    /// `<last segment>/<page>`; only a child's first request may be missing, a later page that
    /// answers 404 is still an error.
    @Test func aPaginatedDetailURL() async throws {
        let lastPage = Box(2)
        let handler: TestHTTPServer.Handler = { request in
            if request.path == "/list" { return .json(#"[{"url": "/items/7/?kind=a"}, {"url": "/items/9/?kind=a"}]"#) }
            let page = Int(request.query["page"] ?? "0") ?? 0
            guard request.query["kind"] == "a", page >= 1 else { return .status(400) }
            if request.path == "/items/9/" { return .status(404) }
            return page > lastPage.value ? .status(404) : .json(page == 1 ? #"[{"id": 1}, {"id": 2}]"# : #"[{"id": 3}]"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { base: "\(server.baseURL)" }
                    entities:
                      Item: { identity: id, attributes: { id: integer } }
                    sources:
                      - { path: list.json, fetch: { url: list } }
                      - path: items/*/*.json
                        entity: Item
                        fetch: { url: "{url}", each: list.json, missing: skip, paginate: { page: page, size: 2 } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Set(try harness.snapshot().keys) == ["list.json", "items/7/0001.json", "items/7/0002.json", ".seeder-fetch.json"])
            #expect(server.requests.map(\.uri).contains("/items/7/?kind=a&page=2"))

            lastPage.value = 1
            let failed = try await harness.fetch()
            #expect(failed.status == 2)
            #expect(
                failed.stderr.contains("\nmapping.yaml:9:12: error: GET \(server.baseURL)items/7/?kind=a&page=2: status 404 Not Found\n"),
                "\(failed.stderr)")
        }
    }

    /// What a record's URL may not be: each an error at the record, with its JSON path, exit 1,
    /// nothing requested and DUMPS unchanged.
    @Test(arguments: [
        (
            #"[{"url": "/api/v2/type/12/"}, {"url": "/api/v2/generation/12/"}]"#, "types.json:1:31",
            "two records of 'types.json' give URLs whose file would be '12': http://127.0.0.1:PORT/api/v2/type/12/ (dumps/types.json:1:2) "
                + "and http://127.0.0.1:PORT/api/v2/generation/12/; one file cannot hold both: give the files a '*' of another key "
                + "('url: \"{K}\"' names them by the URL's last segment)  [/1]"
        ),
        (
            #"[{"url": "ftp://127.0.0.1/type/1/"}]"#, "types.json:1:2",
            "a record of 'types.json' gives '{url}' 'ftp://127.0.0.1/type/1/', a 'ftp:' URL; fetch requests only http and https  [/0]"
        ),
        (
            #"[{"url": "javascript:alert(1)"}]"#, "types.json:1:2",
            "a record of 'types.json' gives '{url}' 'javascript:alert(1)', a 'javascript:' URL; fetch requests only http and https  [/0]"
        ),
        (
            #"[{"url": "/api/v2/type/12/\r\nX-Injected: 1"}]"#, "types.json:1:2",
            #"a record of 'types.json' gives '{url}' '/api/v2/type/12/\r\nX-Injected: 1', a URL with a space or a control character, which fetch never sends  [/0]"#
        ),
        (
            #"[{"url": "http:///type/1/"}]"#, "types.json:1:2",
            "a record of 'types.json' gives '{url}' 'http:///type/1/', which names no host fetch can request  [/0]"
        ),
        (
            #"[{"url": "/"}]"#, "types.json:1:2",
            "a record of 'types.json' gives '{url}' '/', whose path has no segment to name its file  [/0]"
        ),
        (
            #"[{"url": "http://user:pass@127.0.0.2/type/1/"}]"#, "types.json:1:2",
            "a record of 'types.json' gives '{url}' 'http://user:pass@127.0.0.2/type/1/', a URL with a user name or password, "
                + "which fetch never sends from data  [/0]"
        ),
        (
            #"[{"url": "http://127.0.0.2%3a8801/type/1/"}]"#, "types.json:1:2",
            "a record of 'types.json' gives '{url}' 'http://127.0.0.2%3a8801/type/1/', which names no host fetch can request  [/0]"
        ),
    ])
    func aURLFetchRefuses(list: String, place: String, message: String) async throws {
        try await TestHTTPServer.with(Self.pokeAPI()) { server in
            let harness = try FetchHarness(mapping: Self.mapping(server, list: "types.json"))
            try harness.workspace.write("dumps/types.json", list)
            let run = try await harness.fetch(["--only", "types/*.json"])
            #expect(run.status == 1)
            let expected = "dumps/\(place): error: " + message.replacingOccurrences(of: "PORT", with: "\(server.port)") + "\n"
            #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
            #expect(server.requests.isEmpty)
            #expect(Set(try harness.snapshot().keys) == ["types.json"])
        }
    }

    /// A relative URL needs `base` to resolve against.
    @Test func aRelativeURLWithoutBase() async throws {
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                entities:
                  Type: { identity: id, attributes: { id: integer } }
                sources:
                  - { path: list.json, fetch: { url: "http://127.0.0.1:9/list" } }
                  - { path: types/*.json, entity: Type, fetch: { url: "{url}", each: list.json } }
                """)
        try harness.workspace.write("dumps/list.json", "[\n  {\"url\": \"/api/v2/type/12/\"}]")
        let run = try await harness.fetch(["--only", "types/*.json"])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "dumps/list.json:2:3: error: a record of 'list.json' gives '{url}' '/api/v2/type/12/', a relative URL, "
                    + "and the mapping's 'fetch:' has no 'base' to resolve it against  [/0]\n"), "\(run.stderr)")
    }

    /// A detail URL of another origin than `base`'s gets no credential: no `Authorization`,
    /// `Cookie` or header with a `${NAME}`, and no query parameter with one; the others are
    /// sent there, and every credential still reaches `base`'s origin.
    @Test func anotherOriginGetsNoCredential() async throws {
        let otherPort = Box(0)
        let home: TestHTTPServer.Handler = { request in
            request.path == "/api/v2/type/"
                ? .json(#"{"results": [{"url": "http://127.0.0.2:\#(otherPort.value)/api/v2/type/12/?v=2"}, {"url": "type/10/"}]}"#)
                : try await Self.pokeAPI()(request)
        }
        try await FetchHostileServiceTests.withTwoHosts(home: home, elsewhere: Self.pokeAPI()) { home, other in
            otherPort.value = other.port
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch:
                      base: "\(home.baseURL)api/v2/"
                      headers: { Authorization: "Bearer ${TOKEN}", X-Api-Key: "${API_KEY}", Cookie: "session=abc" }
                      query: { key: "${API_KEY}", lang: en }
                    entities:
                      Type: { identity: id, attributes: { id: integer, name: string } }
                    sources:
                      - { path: list.json, keyPath: results, fetch: { url: type/ } }
                      - { path: types/*.json, entity: Type, fetch: { url: "{url}", each: list.json } }
                    """)
            let run = try await harness.fetch(environment: FetchHostileServiceTests.environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(other.requests.map(\.uri) == ["/api/v2/type/12/?v=2&lang=en"])
            FetchHostileServiceTests.expectNoCredentials(other)
            let atHome = home.requests.filter { $0.path == "/api/v2/type/10/" }
            #expect(atHome.count == 1)
            #expect(atHome.first?.header("Authorization") == "Bearer \(FetchHostileServiceTests.token)")
            #expect(atHome.first?.query["key"] == FetchHostileServiceTests.apiKey)
            #expect(Set(try harness.snapshot().keys) == ["list.json", "types/10.json", "types/12.json", ".seeder-fetch.json"])
        }
    }

    /// `fetch --only types/*.json` of a mapping whose `base` is `base` with a token in
    /// `Authorization`, the list (`list.json`, no entity) written in DUMPS as `list`.
    static func fetchWithAToken(base: String, list: String) async throws -> Run {
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                fetch: { base: "\(base)", headers: { Authorization: "Bearer ${TOKEN}" }, retries: 0 }
                entities:
                  Type: { identity: id, attributes: { id: integer } }
                sources:
                  - { path: list.json, fetch: { url: list } }
                  - { path: types/*.json, entity: Type, fetch: { url: "{url}", each: list.json } }
                """)
        try harness.workspace.write("dumps/list.json", list)
        return try await harness.fetch(["--only", "types/*.json"], environment: FetchHostileServiceTests.environment)
    }

    /// A 401 from another origin's detail URL says that fetch sent it no credential, rather than
    /// naming the token to check.
    @Test func anotherOriginsRefusalSaysNoCredentialWent() async throws {
        let refusing: TestHTTPServer.Handler = { _ in .status(401) }
        let gone: TestHTTPServer.Handler = { _ in .status(404) }
        try await FetchHostileServiceTests.withTwoHosts(home: gone, elsewhere: refusing) { home, other in
            let run = try await Self.fetchWithAToken(base: home.baseURL, list: #"[{"url": "\#(other.baseURL)type/12/"}]"#)
            #expect(run.status == 2)
            #expect(
                run.stderr.hasPrefix(
                    "mapping.yaml:7:48: error: GET \(other.baseURL)type/12/: status 401 Unauthorized (a URL of another origin than the "
                        + "mapping's, http://127.0.0.2:\(other.port): fetch sends no credential there); the request carries no credential "
                        + "(no ${NAME} in its headers or query)\n"), "\(run.stderr)")
            FetchHostileServiceTests.expectNoCredentials(other)
        }
    }

    /// From an https `base`, a detail URL on http is refused, not requested.
    @Test func httpsToHttpIsRefused() async throws {
        try await TestHTTPServer.with(Self.pokeAPI()) { server in
            let run = try await Self.fetchWithAToken(
                base: "https://127.0.0.1:9/api/v2/", list: #"[{"url": "\#(server.baseURL)api/v2/type/12/"}]"#)
            #expect(run.status == 2)
            #expect(
                run.stderr.contains("\(server.baseURL)api/v2/type/12/ leads from https to http, which fetch never follows"), "\(run.stderr)"
            )
            #expect(server.requests.isEmpty)
        }
    }

    /// A source with neither `entity` nor `fetch:`, `keyedBy` without an entity, and a
    /// `missing:` that is no choice: mapping errors at their nodes.
    @Test(arguments: [
        (
            "  - { path: list.json }", "mapping.yaml:6:5",
            "a source needs 'entity' (the entity its records are), or 'fetch:' alone to be fetched only for another source's 'each'"
        ),
        (
            "  - { path: list.json, keyedBy: id, fetch: { url: list } }", "mapping.yaml:6:24",
            "'keyedBy' names an attribute of the source's entity, and this source has no 'entity'"
        ),
        (
            "  - { path: list.json, fetch: { url: list } }\n  - { path: t/*.json, entity: Type, fetch: { url: \"{url}\", each: list.json, missing: skipp } }",
            "mapping.yaml:7:86", "unknown value 'skipp' for 'missing' (did you mean 'skip'?); expected error or skip"
        ),
        (
            "  - { path: list.json, fetch: { url: list, missing: skip } }", "mapping.yaml:6:44",
            "'missing: skip' skips a child of 'each' that is gone; this source has no 'each'"
        ),
    ])
    func mappingErrors(sources: String, place: String, message: String) async throws {
        let workspace = try Workspace()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            fetch: { base: "http://127.0.0.1:9/" }
            entities:
              Type: { identity: id, attributes: { id: integer } }
            sources:
            \(sources)
            """)
        try workspace.write("dumps/t/1.json", #"{"id": 1}"#)
        let run = try await seeder(["validate", "mapping.yaml", "dumps"], in: workspace.root)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(place): error: \(message)\n"), "\(run.stderr)")
    }

    /// An entity-less source's glob may match nothing: build never reads it; `--only` fetches it
    /// alone.
    @Test func aListAloneAndBuildWithoutIt() async throws {
        try await TestHTTPServer.with(Self.pokeAPI()) { server in
            let harness = try FetchHarness(mapping: Self.mapping(server))
            try harness.workspace.write("dumps/types/12.json", Self.fixture("12.json"))
            let build = try await seeder(["build", "mapping.yaml", "dumps", "-o", "out.sqlite"], in: harness.workspace.root)
            #expect(build.status == 0, "\(build.stderr)")
            #expect(!build.stderr.contains("type-list") && !build.stderr.contains("error"), "\(build.stderr)")
            let only = try await harness.fetch(["--only", "type-list.json"])
            #expect(only.status == 0, "\(only.stderr)")
            #expect(server.requests.map(\.path) == ["/api/v2/type/"])
            #expect(Set(try harness.snapshot().keys) == ["type-list.json", "types/12.json", ".seeder-fetch.json"])
        }
    }

    /// A list of thousands of entries: each detail fetched once, in memory that does not grow
    /// with the list (a few entries ahead of the requests in flight, not a task an entry). It
    /// grew by about 35 kB an entry: 3,000 entries took 140 MB, now 47 MB.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time(1) measures the peak"))
    func aLongListHoldsBoundedMemory() async throws {
        let count = 3_000
        let list = #"{"results": ["# + (1...count).map { #"{"url": "/items/\#($0)/"}"# }.joined(separator: ",") + "]}"
        try await TestHTTPServer.with { request in
            request.path == "/list" ? .json(list) : .json(#"{"id": \#(request.path.split(separator: "/").last ?? "0")}"#)
        } run: { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { base: "\(server.baseURL)" }
                    entities:
                      Item: { attributes: { id: integer } }
                    sources:
                      - { path: list.json, keyPath: results, fetch: { url: list } }
                      - { path: items/*.json, entity: Item, fetch: { url: "{url}", each: list.json } }
                    """)
            let (run, peak) = try await harness.fetchMeasuringPeak()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: harness.dumps + "/items").count == count)
            #expect(peak < 80_000, "peak \(peak) kB")
        }
    }
}
