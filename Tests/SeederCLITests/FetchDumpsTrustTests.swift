import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// A DUMPS that someone else prepared cannot turn `seeder fetch` against the user
/// (docs/commands.md, `seeder fetch`: DUMPS is data): the manifest's entries are checked before
/// they are acted on, nothing is written, renamed or deleted through a symbolic link, and a signal
/// leaves no folder behind. Each through the real binary, with its exit status and exact messages.
struct FetchDumpsTrustTests {
    /// A mapping of `User`s (an integer `id`) whose `sources` (YAML lines, each `- ...`) are
    /// fetched from `server`, with `fetch` in the document's `fetch:` besides `base`.
    static func mapping(_ server: TestHTTPServer, fetch: String = "", sources: [String]) -> String {
        let lines = sources.map { "  " + $0 }.joined(separator: "\n")
        return """
            seeder: 1
            fetch: { base: "\(server.baseURL)"\(fetch.isEmpty ? "" : ", " + fetch) }
            entities:
              User: { attributes: { id: integer } }
            sources:
            \(lines)

            """
    }

    /// `path: o/*.json` and `c/*/*.json`: folders of one letter are fetched into, and found
    /// again by the next run.
    @Test func oneLetterFolders() async throws {
        let handler: TestHTTPServer.Handler = { request in
            request.path == "/users" ? .json(#"[{"id": 1}]"#) : .json(#"[{"id": 11}]"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: Self.mapping(
                    server,
                    sources: [
                        "- { path: o/*.json, entity: User, fetch: { url: users, paginate: link } }",
                        "- { path: p.json, entity: User, fetch: { url: users } }",
                        #"- { path: c/*/*.json, entity: User, fetch: { url: "users/{id}/comics", each: p.json, paginate: link } }"#,
                    ]))
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr == "")
            #expect(Set(try harness.snapshot().keys) == ["o/0001.json", "p.json", "c/1/0001.json", ".seeder-fetch.json"])
            let before = try harness.snapshot()
            let again = try await harness.fetch()
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.hasSuffix("dumps is up to date: nothing was written\n"), "\(again.stdout)")
            #expect(try harness.snapshot() == before)
            #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"])
        }
    }
}
