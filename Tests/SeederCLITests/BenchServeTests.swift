import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// `seeder-bench serve`, the API `seeder fetch` is timed against (bench/README.md): its first
/// line, its pages, ETags and links, and its clean exit on SIGTERM.
@Suite struct BenchServeTests {
    /// The ids of a page's items, and its total.
    static func page(_ response: RawHTTPResponse) throws -> (ids: [Int], total: Int) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        return (items.compactMap { $0["id"] as? Int }, try #require(object["total"] as? Int))
    }

    @Test func servesPagesUntilTerminated() async throws {
        let serve = try RunningProgram(try seederBenchBinary(), ["serve", "--pages", "3", "--records", "2"])
        defer { if serve.isRunning { serve.send(SIGKILL) } }
        let line = await serve.output { $0.contains("\n") }
        let port = try #require(line.wholeMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/\n/).flatMap { Int($0.1) }, "first line: \(line)")

        let connection = try RawHTTPConnection(port: port)
        let first = try await connection.request("GET", "/items?page=1")
        #expect(first.status == 200 && first.header("Content-Type") == "application/json")
        #expect(first.header("ETag") == "\"items-6-2-1\"")
        #expect(first.header("Link") == "<http://127.0.0.1:\(port)/items?page=2&per_page=2>; rel=\"next\"")
        #expect(try Self.page(first).ids == [1, 2] && Self.page(first).total == 6)
        #expect(first.body.count > 300 && first.body.count < 600, "two records of ~200 bytes")
        #expect(try await connection.request("GET", "/items?page=1").body == first.body)

        let unchanged = try await connection.request("GET", "/items?page=2", headers: [("If-None-Match", "\"items-6-2-2\"")])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty)
        #expect(unchanged.header("Link") == "<http://127.0.0.1:\(port)/items?page=3&per_page=2>; rel=\"next\"")

        let last = try await connection.request("GET", "/items?page=3")
        #expect(try Self.page(last).ids == [5, 6] && last.header("Link") == nil)
        let wide = try await connection.request("GET", "/items?page=2&per_page=4")
        #expect(try Self.page(wide).ids == [5, 6] && wide.header("ETag") == "\"items-6-4-2\"")
        #expect(try Self.page(try await connection.request("GET", "/items?page=9")).ids == [])
        #expect(try await connection.request("GET", "/items?page=0").status == 400)
        #expect(try await connection.request("GET", "/users").status == 404)

        serve.send(SIGTERM)
        let ended = await serve.finished()
        #expect(!ended.signalled && ended.status == 0)
        #expect(try await connection.serverCloses())
    }
}
