import Foundation
import GRDB
import SeederTestServer
import SeederTestSupport
import Testing

/// `seeder fetch` through the real binary against a server on 127.0.0.1 (docs/commands.md,
/// `seeder fetch`): every paginator and stop rule, only what changed, and the files after it.
struct FetchCommandTests {
    static let users = """
        seeder: 1
        fetch:
          base: BASE
          headers: { Authorization: "Bearer ${API_TOKEN}" }
        entities:
          User:
            attributes: { id: integer, name: string }
        sources:
          - path: users/*.json
            entity: User
            fetch: { url: users, query: { per_page: 2 }, paginate: link }
        """

    static let token = "s3cret-token-value"

    /// A GitHub-style service: `Link` headers, ETags, 304 on a matching `If-None-Match`.
    static func linkService(count: @escaping @Sendable () -> Int) -> TestHTTPServer.Handler {
        { request in
            guard request.path == "/users" else { return .status(404) }
            guard request.header("Authorization") == "Bearer \(token)" else {
                return .json(#"{"message": "Bad credentials"}"#, status: 401)
            }
            let page = Int(request.query["page"] ?? "1") ?? 1
            let body = records(page: page, size: 2, count: count())
            let etag = "\"\(body.hashValue)\""
            var headers: TestHTTPHeaders = ["ETag": etag]
            if page * 2 < count() { headers.add("Link", "</users?per_page=2&page=\(page + 1)>; rel=\"next\"") }
            if request.header("If-None-Match") == etag { return .status(304, headers: headers) }
            return .json(body, headers: headers)
        }
    }

    @Test func linkPagesThenOnlyWhatChanged() async throws {
        let count = Counter()
        for _ in 0..<5 { _ = count.next() }
        try await TestHTTPServer.with(Self.linkService(count: { count.count })) { server in
            let harness = try FetchHarness(mapping: Self.users.replacingOccurrences(of: "BASE", with: server.baseURL))
            let environment = ["API_TOKEN": Self.token]
            let first = try await harness.fetch(environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            let bytes = (1...3).map { records(page: $0, size: 2, count: 5).utf8.count }.reduce(0, +)
            #expect(
                first.stdout == """
                    source        pages  unchanged  removed  records  bytes  requests  retries
                    users/*.json      3          0        0        5    \(bytes)         3        0
                    updated dumps

                    """)
            #expect(try harness.text("users/0001.json") == records(page: 1, size: 2, count: 5))
            #expect(try harness.text("users/0003.json") == records(page: 3, size: 2, count: 5))
            let manifest = try harness.text(".seeder-fetch.json")
            #expect(manifest.contains(#""url":"\#(server.baseURL)users?per_page=2""#))
            #expect(manifest.contains(#""next":"\#(server.baseURL)users?per_page=2&page=2""#))
            #expect(!manifest.contains(Self.token))

            // An unchanged service: every page a 304, nothing written, not even the manifest.
            let before = try harness.snapshot()
            let requestsBefore = server.requests.count
            let second = try await harness.fetch(environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.hasSuffix("dumps is up to date: nothing was written\n"), "\(second.stdout)")
            #expect(try harness.snapshot() == before)
            let conditional = server.requests[requestsBefore...]
            #expect(conditional.count == 3 && conditional.allSatisfy { $0.header("If-None-Match") != nil })
            #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"])

            // Two users more: page 3 changes, page 4 is new; pages 1 and 2 stay as they were.
            _ = count.next()
            _ = count.next()
            let third = try await harness.fetch(environment: environment)
            #expect(third.status == 0, "\(third.stderr)")
            let after = try harness.snapshot()
            #expect(after["users/0001.json"] == before["users/0001.json"])
            #expect(after["users/0003.json"] != before["users/0003.json"])
            #expect(try harness.text("users/0004.json") == records(page: 4, size: 2, count: 7))
        }
    }

    @Test func pagesThatAreGoneAreRemoved() async throws {
        let count = Counter()
        for _ in 0..<5 { _ = count.next() }
        let shrink = Counter()
        try await TestHTTPServer.with(Self.linkService(count: { shrink.count > 0 ? 3 : count.count })) { server in
            let harness = try FetchHarness(mapping: Self.users.replacingOccurrences(of: "BASE", with: server.baseURL))
            #expect(try await harness.fetch(environment: ["API_TOKEN": Self.token]).status == 0)
            try harness.workspace.write("dumps/notes.txt", "mine")
            _ = shrink.next()
            let run = try await harness.fetch(["--json"], environment: ["API_TOKEN": Self.token])
            #expect(run.status == 0, "\(run.stderr)")
            let document = try await JSONDocumentTests.expectDocument(run, of: "fetch")
            let source = try #require((document["sources"] as? [[String: Any]])?.first)
            #expect(source["pagesRemoved"] as? Int == 1)
            #expect(Set(try harness.snapshot().keys) == ["users/0001.json", "users/0002.json", ".seeder-fetch.json", "notes.txt"])
            #expect(try harness.text("users/0002.json") == records(page: 2, size: 2, count: 3))
        }
    }

    /// `offset` with `total`: the pages after the first are requested at once, in parallel.
    @Test func offsetWithTotalInParallel() async throws {
        let inFlight = Counter()
        let handler: TestHTTPServer.Handler = { request in
            inFlight.begin()
            defer { inFlight.end() }
            try await Task.sleep(for: .milliseconds(150))
            let offset = Int(request.query["offset"] ?? "0")!
            let limit = Int(request.query["limit"] ?? "0")!
            let items = (offset..<min(offset + limit, 9)).map { #"{"id": \#($0 + 1)}"# }.joined(separator: ",")
            return .json(#"{"data": {"total": 9, "results": [\#(items)]}}"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { concurrency: 4 }
                    entities:
                      Character: { attributes: { id: integer } }
                    sources:
                      - path: characters/*.json
                        entity: Character
                        keyPath: data.results
                        fetch: { url: "\(server.url("characters"))", paginate: { offset: offset, limit: limit, size: 2, total: data.total } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("characters/*.json      5          0        0        9"), "\(run.stdout)")
            #expect(Set(try harness.snapshot().keys).count == 6)
            #expect(try harness.text("characters/0005.json") == #"{"data": {"total": 9, "results": [{"id": 9}]}}"#)
            #expect(Set(server.requests.map { $0.query["offset"] ?? "" }) == ["0", "2", "4", "6", "8"])
            #expect(inFlight.mostAtOnce >= 2, "the pages after the first ran in parallel")
            let build = try await seeder(["build", "mapping.yaml", "dumps", "-o", "out.sqlite"], in: harness.workspace.root)
            #expect(build.status == 0, "\(build.stderr)")
            let ids = try await DatabaseQueue(path: harness.workspace.path("out.sqlite")).read {
                try Int.fetchAll($0, sql: "SELECT id FROM character ORDER BY id")
            }
            #expect(ids == Array(1...9))
        }
    }

    /// The stop rules without a total: a short page (`offset`, `page` with `size`), an empty page
    /// (`page` without `size`), a missing next (`next`), `more: false` (`cursor`).
    @Test(arguments: [
        ("{ offset: offset, size: 3 }", 3, "offset"),
        ("{ page: page, size: 3, sizeParam: per_page }", 3, "page"),
        ("{ page: page, start: 0 }", 4, "page"),
        ("{ next: links.next }", 3, "next"),
        ("{ cursor: after, value: cursor, more: more }", 3, "cursor"),
    ])
    func stopRules(paginate: String, pages: Int, form: String) async throws {
        let total = 7
        let handler: TestHTTPServer.Handler = { request in
            let index: Int
            switch form {
            case "offset": index = Int(request.query["offset"] ?? "0")! / 3
            case "page": index = Int(request.query["page"] ?? "1")! - (request.query["per_page"] == nil ? 0 : 1)
            default: index = Int(request.query["after"] ?? request.query["p"] ?? "0")!
            }
            let ids = (min(index * 3, total)..<min(index * 3 + 3, total)).map { #"{"id": \#($0 + 1)}"# }.joined(separator: ",")
            let more = index * 3 + 3 < total
            let next = more ? #""/items?p=\#(index + 1)""# : "null"
            return .json(#"{"items": [\#(ids)], "links": {"next": \#(next)}, "cursor": "\#(index + 1)", "more": \#(more)}"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    entities:
                      Item: { attributes: { id: integer } }
                    sources:
                      - path: items/*.json
                        entity: Item
                        keyPath: items
                        fetch: { url: "\(server.url("items"))", paginate: \(paginate) }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(server.requests.count == pages, "\(server.requests.map(\.uri))")
            #expect(run.stdout.contains("items/*.json      \(pages)          0        0        7"), "\(run.stdout)")
            #expect(Set(try harness.snapshot().keys).count == pages + 1)
        }
    }
}
