import Foundation
import GRDB
import SeederTestServer
import SeederTestSupport
import Testing

/// `seeder fetch`'s features beyond paging (docs/mapping.md, Fetching the dumps): compressed
/// bodies and files, POST and GraphQL, redirects, `--only`, and secrets kept out of everything.
struct FetchFeatureTests {
    static let body = #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#

    /// A gzipped response is undone; a `.json.gz` path is written gzipped, the same bytes each time.
    @Test func compressedBodiesAndFiles() async throws {
        let gzipped = Array(try await Compressor.gzip.compress(Data(Self.body.utf8)))
        let handler: TestHTTPServer.Handler = { request in
            #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
            return .bytes(gzipped, contentType: "application/json", headers: ["Content-Encoding": "gzip"])
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      User: { attributes: { id: integer, name: string } }
                    sources:
                      - { path: users.json, entity: User, fetch: { url: "\(server.url("users"))" } }
                      - { path: copy.json.gz, entity: User, fetch: { url: "\(server.url("users"))" } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try harness.text("users.json") == Self.body)
            let stored = try Data(contentsOf: URL(fileURLWithPath: harness.dumps + "/copy.json.gz"))
            #expect(Array(stored.prefix(2)) == [0x1F, 0x8B])
            #expect(Array(stored[4..<8]) == [0, 0, 0, 0], "no time in the gzip header")
            let unzipped = try await program("/usr/bin/env", ["gzip", "-dc", harness.dumps + "/copy.json.gz"])
            #expect(unzipped.stdout == Self.body)
            let build = try await seeder(["build", "mapping.yaml", "dumps", "-o", "out.sqlite"], in: harness.workspace.root)
            #expect(build.status == 0, "\(build.stderr)")
        }
    }

    /// `http_proxy` is read as curl reads it: the request goes to the proxy, in absolute form,
    /// for a host that need not resolve.
    @Test func aProxyFromTheEnvironment() async throws {
        try await TestHTTPServer.with { _ in
            .json(Self.body)
        } run: { proxy in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      User: { attributes: { id: integer, name: string } }
                    sources:
                      - { path: users.json, entity: User, fetch: { url: "http://api.example.invalid/v1/users" } }
                    """)
            let run = try await harness.fetch(environment: [
                "http_proxy": proxy.url(""), "no_proxy": "", "NO_PROXY": "", "all_proxy": "", "ALL_PROXY": "",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(proxy.requests.map(\.uri) == ["http://api.example.invalid/v1/users"])
            #expect(try harness.text("users.json") == Self.body)
        }
    }

    @Test func zstdFilesAreReadBack() async throws {
        let lines = "{\"id\": 1}\n{\"id\": 2}\n"
        let handler: TestHTTPServer.Handler = { _ in .text(lines) }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - { path: users.ndjson.zst, entity: User, fetch: { url: "\(server.url("users"))" } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("users.ndjson.zst      1          0        0        2"), "\(run.stdout)")
            let unzipped = try await program("/usr/bin/env", ["zstd", "-dc", harness.dumps + "/users.ndjson.zst"])
            #expect(unzipped.stdout == lines)
            let before = try harness.snapshot()
            let again = try await harness.fetch()
            #expect(again.status == 0 && again.stdout.hasSuffix("nothing was written\n"), "\(again.stdout)")
            #expect(try harness.snapshot() == before, "the same body is the same compressed file")
            let build = try await seeder(["build", "mapping.yaml", "dumps", "-o", "out.sqlite"], in: harness.workspace.root)
            #expect(build.status == 0, "\(build.stderr)")
        }
    }

    /// GraphQL: a POST whose cursor goes in the body; `errors` in a 200 is an error.
    @Test func graphQLCursorInTheBody() async throws {
        let handler: TestHTTPServer.Handler = { request in
            #expect(request.method == "POST")
            #expect(request.header("Content-Type") == "application/json")
            let json = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            let after = (json?["variables"] as? [String: Any])?["after"] as? String
            if json?["query"] as? String == "bad" { return .json(#"{"data": null, "errors": [{"message": "Field 'x' doesn't exist"}]}"#) }
            let (nodes, end, more) = after == nil ? (#"[{"number": 1}, {"number": 2}]"#, "c2", true) : (#"[{"number": 3}]"#, "c3", false)
            return .json(#"{"data": {"issues": {"nodes": \#(nodes), "pageInfo": {"endCursor": "\#(end)", "hasNextPage": \#(more)}}}}"#)
        }
        try await TestHTTPServer.with(handler) { server in
            func mapping(_ query: String) -> String {
                """
                seeder: 1
                entities:
                  Issue: { identity: number, attributes: { number: integer } }
                sources:
                  - path: issues/*.json
                    entity: Issue
                    keyPath: data.issues.nodes
                    fetch:
                      url: "\(server.url("graphql"))"
                      method: POST
                      body: { query: "\(query)", variables: { after: null, first: 2 } }
                      paginate: { cursor: { body: variables.after }, value: data.issues.pageInfo.endCursor, more: data.issues.pageInfo.hasNextPage }
                """
            }
            let harness = try FetchHarness(
                mapping: mapping("query($after: String) { issues(first: 2, after: $after) { nodes { number } } }"))
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                server.requests.map(\.text) == [
                    #"{"query":"query($after: String) { issues(first: 2, after: $after) { nodes { number } } }","variables":{"after":null,"first":2}}"#,
                    #"{"query":"query($after: String) { issues(first: 2, after: $after) { nodes { number } } }","variables":{"after":"c2","first":2}}"#,
                ])
            #expect(Set(try harness.snapshot().keys) == ["issues/0001.json", "issues/0002.json", ".seeder-fetch.json"])
            // POST is never conditional.
            _ = try await harness.fetch()
            #expect(server.requests.allSatisfy { $0.header("If-None-Match") == nil && $0.header("If-Modified-Since") == nil })

            try harness.workspace.write("mapping.yaml", mapping("bad"))
            let bad = try await harness.fetch()
            #expect(bad.status == 1)
            #expect(
                bad.stderr.contains("error: POST \(server.url("graphql")): the GraphQL response has errors: \"Field 'x' doesn't exist\""),
                "\(bad.stderr)")
        }
    }

    /// Redirects are followed; the credential does not follow to another host.
    @Test func redirectsAreFollowed() async throws {
        let handler: TestHTTPServer.Handler = { request in
            switch request.path {
            case "/old": return .redirect(to: "/new?x=1", status: 301)
            case "/new": return .json(#"[{"id": 1}]"#)
            default: return .status(404)
            }
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - { path: users.json, entity: User, fetch: { url: "\(server.url("old"))" } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(server.requests.map(\.uri) == ["/old", "/new?x=1"])
            #expect(try harness.text("users.json") == #"[{"id": 1}]"#)
        }
    }

    /// `each`: one fetch per record of the parent, into a folder per parent; `--only` the child
    /// reads its parents from DUMPS; `@file.1` links each record to its parent.
    @Test func eachParentAndOnly() async throws {
        let handler: TestHTTPServer.Handler = { request in
            if request.path == "/characters" {
                return .json(#"{"data": {"results": [{"id": 7, "name": "Ann"}, {"id": 9, "name": "Bob"}]}}"#)
            }
            let parts = request.path.split(separator: "/")
            guard parts.count == 3, parts[0] == "characters", parts[2] == "comics", let id = Int(parts[1]) else { return .status(404) }
            let page = Int(request.query["page"] ?? "1")!
            let items = page == 1 ? #"[{"id": \#(id * 10 + 1)}, {"id": \#(id * 10 + 2)}]"# : page == 2 && id == 7 ? #"[{"id": 73}]"# : "[]"
            return .json(#"{"data": {"results": \#(items)}}"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { base: "\(server.baseURL)" }
                    entities:
                      Character: { attributes: { id: integer, name: string } }
                      Comic:
                        attributes: { id: integer }
                        relationships: { character: { to: Character, from: "@file.1" } }
                    sources:
                      - path: characters.json
                        entity: Character
                        keyPath: data.results
                        fetch: { url: characters }
                      - path: comics/*/*.json
                        entity: Comic
                        keyPath: data.results
                        fetch: { url: "characters/{id}/comics", each: characters.json, paginate: { page: page, size: 2 } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                Set(try harness.snapshot().keys)
                    == [
                        "characters.json", "comics/7/0001.json", "comics/7/0002.json", "comics/9/0001.json", "comics/9/0002.json",
                        ".seeder-fetch.json",
                    ])
            let build = try await seeder(["build", "mapping.yaml", "dumps", "-o", "out.sqlite"], in: harness.workspace.root)
            #expect(build.status == 0, "\(build.stderr)")
            let links = try await DatabaseQueue(path: harness.workspace.path("out.sqlite")).read {
                try Row.fetchAll($0, sql: "SELECT id, character_id FROM comic ORDER BY id").map { [$0[0] as Int, $0[1] as Int] }
            }
            #expect(links == [[71, 7], [72, 7], [73, 7], [91, 9], [92, 9]])

            let requests = server.requests.count
            let only = try await harness.fetch(["--only", "comics/*/*.json"])
            #expect(only.status == 0, "\(only.stderr)")
            #expect(!server.requests[requests...].contains { $0.path == "/characters" }, "the parents were read from DUMPS")
            #expect(only.stdout.contains("comics/*/*.json"), "\(only.stdout)")
            #expect(!only.stdout.contains("characters.json"), "\(only.stdout)")

            let unknown = try await harness.fetch(["--only", "comic/*/*.json"])
            #expect(unknown.status == 1)
            #expect(
                unknown.stderr.hasPrefix(
                    "error: --only 'comic/*/*.json' names no source with a 'fetch:' block (did you mean 'comics/*/*.json'?); they are 'characters.json', 'comics/*/*.json'"
                ),
                "\(unknown.stderr)")
        }
    }

    /// The folder is the URL's first `{K}`: parents that give the same folder with other values
    /// (`repos/{owner}/{name}/issues`, two repositories of one owner) are an error at the second,
    /// never one fetch's files overwritten by the other's or one left out; the same values twice
    /// (a record on two pages) are fetched once.
    @Test func parentsThatShareAFolderButNotTheirValues() async throws {
        let repositories = #"[{"owner": "octo", "name": "a"}, {"owner": "octo", "name": "a"},\#n {"owner": "octo", "name": "b"}]"#
        let handler: TestHTTPServer.Handler = { request in
            request.path == "/repos" ? .json(repositories) : .json(#"[{"id": 1}]"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      Issue: { attributes: { id: integer } }
                    sources:
                      - { path: repos.json, fetch: { url: "\(server.url("repos"))" } }
                      - { path: issues/*.json, entity: Issue, fetch: { url: "\(server.url("repos/{owner}/{name}/issues"))", each: repos.json } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 1)
            #expect(
                run.stderr.hasPrefix(
                    "dumps/repos.json:2:2: error: two records of 'repos.json' give the folder 'octo' (dumps/repos.json:1:2) but differ in "
                        + "'{name}'; one folder cannot hold both fetches: make the URL's first '{K}' a key that tells the records apart  [/2]"
                ),
                "\(run.stderr)")
            #expect(!server.requests.contains { $0.path.hasSuffix("/issues") })
            #expect(try harness.besideDumps() == ["mapping.yaml"])
        }
    }

    /// A parent record without the key `{K}` needs is an error at its place in the parent's file;
    /// so is one whose value is the empty string, said as such.
    @Test(arguments: [("{\"name\": \"no id\"}", "missing"), ("{\"id\": \"\"}", "an empty string")])
    func aParentWithoutTheKey(_ record: String, _ said: String) async throws {
        let handler: TestHTTPServer.Handler = { _ in .json("[{\"id\": 1},\n \(record)]") }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - { path: users.json, entity: User, fetch: { url: "\(server.url("users"))" } }
                      - { path: posts/*.json, entity: User, fetch: { url: "\(server.url("users/{id}/posts"))", each: users.json } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 1)
            #expect(
                run.stderr.hasPrefix(
                    "dumps/users.json:2:2: error: a record of 'users.json' has no value for '{id}' (\(said)), which 'each' needs  [/1]"),
                "\(run.stderr)")
            #expect(try harness.besideDumps() == ["mapping.yaml"])
        }
    }

    /// No secret reaches a file seeder writes or a message: the token, a key in the query, and
    /// the MD5 signature made from them, grepped for in every file and in every output.
    @Test func secretsAreNowhere() async throws {
        let token = "tok-0123456789"
        let key = "pub-key-4567"
        let handler: TestHTTPServer.Handler = { request in
            let page = Int(request.query["page"] ?? "1")!
            if page == 3 { return .json(#"{"message": "gone"}"#, status: 410) }
            return .json(#"[{"id": \#(page)}]"#, headers: ["Link": "<\(request.path)?apikey=\(key)&page=\(page + 1)>; rel=\"next\""])
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch:
                      headers: { Authorization: "Bearer ${API_TOKEN}" }
                      query: { ts: "1", apikey: "${API_KEY}", hash: "${md5:1${API_TOKEN}${API_KEY}}" }
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - { path: users/*.json, entity: User, fetch: { url: "\(server.url("users"))", paginate: link } }
                    """)
            let environment = ["API_TOKEN": token, "API_KEY": key]
            let failed = try await harness.fetch(["--json"], environment: environment)
            #expect(failed.status == 2)
            let md5 = try await program("/bin/bash", ["-c", "printf %s '1\(token)\(key)' | md5sum | cut -c1-32"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(server.requests.first?.query["hash"] == md5, "the signature was sent")
            // The failure names the URL with ${NAME}s, the one the server gave included.
            #expect(failed.stderr.contains("?apikey=${API_KEY}&page=3: status 410 Gone"), "\(failed.stderr)")
            let handlerOK: TestHTTPServer.Handler = { request in
                let page = Int(request.query["page"] ?? "1")!
                return .json(
                    #"[{"id": \#(page)}]"#,
                    headers: page < 2 ? ["Link": "<\(request.path)?apikey=\(key)&page=\(page + 1)>; rel=\"next\""] : [:])
            }
            try await TestHTTPServer.with(handlerOK) { good in
                try harness.workspace.write(
                    "mapping.yaml",
                    try String(contentsOfFile: harness.mappingPath, encoding: .utf8)
                        .replacingOccurrences(of: server.baseURL, with: good.baseURL))
                let run = try await harness.fetch(["--progress", "plain"], environment: environment)
                #expect(run.status == 0, "\(run.stderr)")
                let json = try await harness.fetch(["--json"], environment: environment)
                let build = try await seeder(
                    ["build", "mapping.yaml", "dumps", "-o", "out.sqlite", "--report", "report.json"], in: harness.workspace.root)
                #expect(build.status == 0, "\(build.stderr)")
                var texts = [failed.stdout, failed.stderr, run.stdout, run.stderr, json.stdout, json.stderr, build.stdout, build.stderr]
                let files = FileManager.default.enumerator(atPath: harness.workspace.root)!.compactMap { $0 as? String }
                for file in files {
                    if let data = FileManager.default.contents(atPath: harness.workspace.path(file)) {
                        texts.append(String(decoding: data, as: UTF8.self))
                    }
                }
                #expect(files.contains("dumps/.seeder-fetch.json") && files.contains("out.sqlite"))
                for text in texts {
                    #expect(!text.contains(token) && !text.contains(key) && !text.contains(md5))
                }
                let manifest = try harness.text(".seeder-fetch.json")
                #expect(manifest.contains("apikey=${API_KEY}&hash=${md5:1${API_TOKEN}${API_KEY}}"), "\(manifest)")
            }
        }
    }
}
