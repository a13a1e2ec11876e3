import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// `seeder fetch`'s failures (docs/commands.md, `seeder fetch`: Failures): each through the real
/// binary, with its exit status and exact message, and DUMPS afterwards byte for byte and by
/// modification time as it was, with no temporary folder left beside it.
struct FetchFailureTests {
    /// A mapping of one paged source, `users/*.json`, at `url` with `paginate`, and `extra` in
    /// the document's `fetch:`.
    static func mapping(_ server: TestHTTPServer, paginate: String = "link", extra: String = "", keyPath: String = "") -> String {
        """
        seeder: 1
        fetch: { retries: 2, timeout: 2\(extra.isEmpty ? "" : ", " + extra) }
        entities:
          User: { attributes: { id: integer } }
        sources:
          - path: users/*.json
            entity: User\(keyPath.isEmpty ? "" : "\n    keyPath: " + keyPath)
            fetch: { url: "\(server.url("users"))", paginate: \(paginate) }
        """
    }

    /// Fetches once with `good` answering, then again with `bad`: the second run's result, after
    /// checking that DUMPS did not change and nothing was left beside it.
    static func failAfterSuccess(
        paginate: String = "link", extra: String = "", keyPath: String = "", environment: [String: String] = [:],
        bad: @escaping TestHTTPServer.Handler
    ) async throws -> (Run, TestHTTPServer, FetchHarness) {
        let failing = Counter()
        let server = try await TestHTTPServer.start { request in
            if failing.count > 0 { return try await bad(request) }
            return .json(#"[{"id": 1}]"#, headers: ["ETag": "\"1\""])
        }
        let harness = try FetchHarness(mapping: mapping(server, paginate: paginate, extra: extra, keyPath: keyPath))
        try harness.workspace.write("mapping.yaml", mapping(server, paginate: paginate, extra: extra, keyPath: keyPath == "" ? "" : ""))
        let first = try await harness.fetch(environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        try harness.workspace.write("mapping.yaml", mapping(server, paginate: paginate, extra: extra, keyPath: keyPath))
        let before = try harness.snapshot()
        _ = failing.next()
        let run = try await harness.fetch(environment: environment)
        #expect(try harness.snapshot() == before, "DUMPS changed")
        #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"], "a temporary folder was left")
        await server.shutdown()
        return (run, server, harness)
    }

    /// The first line of standard error that is not a retry's note (`fetch: GET ...; retry 1 of 2`).
    static func line(_ run: Run) -> String {
        run.stderr.split(separator: "\n").first { !$0.hasPrefix("fetch: ") }.map(String.init) ?? ""
    }

    @Test func serverErrorsAreRetriedThenEveryAttemptNamed() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in .status(500) }
        #expect(run.status == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users")): gave up after 3 attempts: "
                + "status 500 Internal Server Error (3 times)")
        #expect(run.stderr.hasSuffix("fetch failed: 1 error; dumps was not changed\n"), "\(run.stderr)")
    }

    @Test func retryAfterIsObeyed() async throws {
        let calls = Counter()
        let handler: TestHTTPServer.Handler = { request in
            let call = calls.next()
            if call == 1 { return .status(503, headers: ["Retry-After": "1"]) }
            if call == 2 {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                return .status(429, headers: ["Retry-After": formatter.string(from: Date().addingTimeInterval(2))])
            }
            return .json(#"[{"id": 1}]"#)
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: Self.mapping(server, paginate: "link", extra: "").replacingOccurrences(of: "retries: 2", with: "retries: 3"))
            let started = Date()
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Date().timeIntervalSince(started) >= 2, "waited as asked")
            #expect(run.stdout.contains("users/*.json      1          0        0        1     11         3        2"), "\(run.stdout)")
        }
    }

    @Test func aWaitLongerThanAMinuteIsAnError() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in .status(429, headers: ["Retry-After": "3600"]) }
        #expect(run.status == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users")): status 429 Too Many Requests; the server asks to wait 60 min, "
                + "longer than the 60 s fetch waits: try again later")
    }

    @Test func brokenConnectionsAndTimeoutsAreRetried() async throws {
        let calls = Counter()
        let handler: TestHTTPServer.Handler = { request in
            switch calls.next() {
            case 1: return .closeWithoutAnswer
            case 2: return .json(#"[{"id": 1}, {"id": 2}]"#).cut(after: 5)
            case 3: return .json(#"[{"id": 1}]"#).delayed(by: .seconds(4))
            default: return .json(#"[{"id": 1}, {"id": 2}]"#)
            }
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(mapping: Self.mapping(server).replacingOccurrences(of: "retries: 2", with: "retries: 3"))
            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try harness.text("users/0001.json") == #"[{"id": 1}, {"id": 2}]"#)
            #expect(run.stdout.contains("        4        3\n"), "\(run.stdout)")
        }
    }

    @Test func timeoutsUseUpTheRetries() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in .json("[]").delayed(by: .seconds(5)) }
        #expect(run.status == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users")): gave up after 3 attempts: "
                + "no complete answer within 2 s (3 times)")
    }

    @Test func unauthorizedNamesTheVariables() async throws {
        let server = try await TestHTTPServer.start { _ in .json(#"{"message": "Bad credentials"}"#, status: 401) }
        defer { Task { await server.shutdown() } }
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                fetch: { headers: { Authorization: "Bearer ${API_TOKEN}" }, query: { key: "${API_KEY}", locale: en } }
                entities:
                  User: { attributes: { id: integer } }
                sources:
                  - path: users.json
                    entity: User
                    fetch: { url: "\(server.url("users"))" }
                """)
        let run = try await harness.fetch(environment: ["API_TOKEN": "token-1234567", "API_KEY": "key-7654321"])
        #expect(run.status == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users"))?key=${API_KEY}&locale=en: status 401 Unauthorized; "
                + "check header Authorization: Bearer ${API_TOKEN}, query key=${API_KEY}; the service says: {\"message\": \"Bad credentials\"}"
        )
        #expect(!run.stderr.contains("token-1234567") && !run.stderr.contains("key-7654321"))
        #expect(server.requests.count == 1, "a 401 is not retried")
        #expect(try harness.besideDumps() == ["mapping.yaml"], "DUMPS was not made")
    }

    @Test func otherClientErrorsQuoteTheBody() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in .text("no such page\n", status: 404) }
        #expect(run.status == 2)
        #expect(Self.line(run) == "mapping.yaml:8:12: error: GET \(server.url("users")): status 404 Not Found: no such page")
        #expect(server.requests.count == 2)
    }

    @Test func anHTMLPageIsADataError() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in
            .bytes(Array("<!DOCTYPE html>\n<html><body>Sign in</body></html>".utf8), contentType: "text/html")
        }
        #expect(run.status == 1)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users")): the body is not JSON (Content-Type text/html): "
                + "unexpected '<', expected a value at line 1, column 1; it begins \"<!DOCTYPE html> <html><body>Sign in</body></html>\"")
    }

    @Test func aKeyPathThatReachesNothingIsADataError() async throws {
        let (run, server, _) = try await Self.failAfterSuccess(keyPath: "data") { _ in .json(#"{"error": "maintenance"}"#) }
        #expect(run.status == 1)
        #expect(
            Self.line(run)
                == "mapping.yaml:9:12: error: GET \(server.url("users")): 'keyPath' data reaches nothing: the body is an object with no 'data'; "
                + #"the body begins "{"error": "maintenance"}"  [/]"#)
    }

    @Test func aNextLinkSeenTwiceIsAnError() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { request in
            .json(#"[{"id": \#(request.query["page"] ?? "1")}]"#, headers: ["Link": "</users?page=2>; rel=\"next\""])
        }
        #expect(run.status == 1)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users?page=2")) gives a next page it gave before (\(server.url("users?page=2"))): "
                + "the paginator would go round forever")
    }

    @Test func morePagesThanMaxPagesIsAnError() async throws {
        let (run, server, _) = try await Self.failAfterSuccess(extra: "maxPages: 2") { request in
            let page = Int(request.query["page"] ?? "1")!
            return .json(#"[{"id": \#(page)}]"#, headers: ["Link": "</users?page=\(page + 1)>; rel=\"next\""])
        }
        #expect(run.status == 1)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: more than 2 pages ('maxPages'): GET \(server.url("users?page=2")) has a next page; "
                + "raise 'maxPages' if the source is that long")
    }

    @Test func anUnsetVariableIsAnErrorAtItsText() async throws {
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                fetch: { headers: { Authorization: "Bearer ${SEEDER_TEST_UNSET_TOKEN}" } }
                entities:
                  User: { attributes: { id: integer } }
                sources:
                  - { path: users.json, entity: User, fetch: { url: "http://127.0.0.1:9/users" } }
                """)
        let run = try await harness.fetch()
        #expect(run.status == 1)
        #expect(
            Self.line(run)
                == "mapping.yaml:2:36: error: environment variable 'SEEDER_TEST_UNSET_TOKEN' is not set (read by '${SEEDER_TEST_UNSET_TOKEN}')"
        )
    }

    @Test func aServiceThatCannotBeReached() async throws {
        // A port nothing listens on, held so while the test runs.
        let refusing = try RefusingPort()
        let url = refusing.url("users")
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                fetch: { retries: 1 }
                entities:
                  User: { attributes: { id: integer } }
                sources:
                  - { path: users.json, entity: User, fetch: { url: "\(url)" } }
                """)
        let run = try await harness.fetch()
        #expect(run.status == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:6:46: error: GET \(url): gave up after 2 attempts: could not connect (connection refused) (2 times)"
        )
        _ = refusing
    }

    /// Without libcurl (or with a library that is not it), fetch says what to install, exits 2
    /// and leaves DUMPS and the folder beside it as they were; nothing else needs libcurl.
    @Test(arguments: [
        (
            "/nonexistent/libcurl.so.4",
            "/nonexistent/libcurl.so.4: cannot open shared object file: No such file or directory"
        ),
        ("libz.so.1", "libz.so.1 has no curl_global_init"),
    ])
    func withoutLibcurl(library: String, reason: String) async throws {
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                entities:
                  User: { attributes: { id: integer } }
                sources:
                  - { path: users.json, entity: User, fetch: { url: "http://127.0.0.1:9/users" } }
                """)
        try harness.workspace.write("dumps/users.json", #"[{"id": 1}]"#)
        let before = try harness.snapshot()
        let run = try await harness.fetch(environment: ["SEEDER_LIBCURL": library])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "error: seeder fetch needs libcurl 7.68 or later: SEEDER_LIBCURL=\(library): \(reason) (Debian and Ubuntu: apt install libcurl4; SEEDER_LIBCURL names the library file if it has another name)\n"
                + "fetch failed: 1 error; dumps was not changed\n"
        )
        #expect(try harness.snapshot() == before)
        #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"])
        let build = try await seeder(
            ["build", "mapping.yaml", "dumps", "-o", "out.sqlite", "--quiet"], in: harness.workspace.root,
            environment: ["SEEDER_LIBCURL": library])
        #expect(build.status == 0, "\(build.stderr)")
    }

    /// Sources fail at once, in any order; their errors are printed in the mapping's order, the
    /// first source's last to fail here.
    @Test func failuresInTheMappingsOrder() async throws {
        try await TestHTTPServer.with { request in
            request.path == "/a" ? TestHTTPResponse.status(401).delayed(by: .milliseconds(300)) : .status(401)
        } run: { server in
            let harness = try FetchHarness(
                mapping: """
                    seeder: 1
                    fetch: { base: "\(server.baseURL)" }
                    entities:
                      User: { attributes: { id: integer } }
                    sources:
                      - { path: a.json, entity: User, fetch: { url: a } }
                      - { path: b.json, entity: User, fetch: { url: b } }
                    """)
            let run = try await harness.fetch()
            #expect(run.status == 2)
            let lines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("mapping.yaml:") }
            #expect(lines.map { $0.prefix(15) } == ["mapping.yaml:6:", "mapping.yaml:7:"], "\(run.stderr)")
        }
    }

    /// A secret the server echoes is never written: not in a dump, not in a message.
    @Test func aSecretInAResponseIsRefused() async throws {
        let (run, server, harness) = try await Self.failAfterSuccess(
            extra: #"query: { key: "${API_TOKEN}" }"#, environment: ["API_TOKEN": "tok-abcdefgh"]
        ) { request in
            .json(#"[{"id": 1, "self": "\#(request.uri)"}]"#)
        }
        _ = harness
        #expect(run.status == 1)
        #expect(run.stderr.contains("the response holds the value of ${API_TOKEN} at line 1, column"), "\(run.stderr)")
        #expect(!run.stderr.contains("tok-abcdefgh"))
        _ = server
    }

    /// SIGTERM in the middle: the exit status of the signal, DUMPS as it was, no folder left.
    @Test func sigtermLeavesTheDumpsAsTheyWere() async throws {
        let slow = Counter()
        let server = try await TestHTTPServer.start { request in
            let page = Int(request.query["page"] ?? "1")!
            if slow.count > 0, page == 2 { try await Task.sleep(for: .seconds(30)) }
            return .json(#"[{"id": \#(page)}]"#, headers: page < 3 ? ["Link": "</users?page=\(page + 1)>; rel=\"next\""] : [:])
        }
        let harness = try FetchHarness(mapping: Self.mapping(server))
        let first = try await harness.fetch()
        #expect(first.status == 0, "\(first.stderr)")
        try harness.workspace.write(
            "mapping.yaml", Self.mapping(server).replacingOccurrences(of: "{ url:", with: "{ query: { v: 2 }, url:"))
        let before = try harness.snapshot()
        _ = slow.next()
        let fetch = try harness.startFetch()
        let deadline = Date().addingTimeInterval(20)
        while server.requests.count < 5, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // Page 1 is in the temporary folder by now; page 2 is waiting.
        try await Task.sleep(for: .milliseconds(300))
        fetch.send(SIGTERM)
        let run = await fetch.finished()
        #expect(run.status == 143, "\(run.stderr)")
        #expect(run.stderr.contains("fetch: interrupted; the dumps are as they were"))
        #expect(try harness.snapshot() == before)
        #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"])
        await server.shutdown()
    }

    /// The files of the run: a mapping that cannot be read, DUMPS that is a file, an unknown
    /// `--only`: each refused before any request, nothing written.
    @Test func filesAndArguments() async throws {
        let harness = try FetchHarness(
            mapping: """
                seeder: 1
                entities:
                  User: { attributes: { id: integer } }
                sources:
                  - { path: users.json, entity: User, fetch: { url: "http://127.0.0.1:9/users" } }
                """)
        try harness.workspace.write("dumps", "not a folder")
        let notAFolder = try await harness.fetch()
        #expect(notAFolder.status == 2)
        #expect(Self.line(notAFolder) == "dumps: error: dumps is not a directory")
        #expect(try String(contentsOfFile: harness.dumps, encoding: .utf8) == "not a folder")
        let missing = try await seeder(["fetch", "nothing.yaml", "out"], in: harness.workspace.root)
        #expect(missing.status == 2)
        #expect(Self.line(missing) == "nothing.yaml: error: cannot read the mapping file: No such file or directory")
        #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"])
    }

    /// `--diagnostics github`: each failure also as a workflow command on standard output.
    @Test func githubAnnotations() async throws {
        let harness = try FetchHarness(
            mapping: "seeder: 1\nentities: { User: { attributes: { id: integer } } }\nsources:\n  - { path: u.json, entity: User }\n")
        let none = try await harness.fetch(["--diagnostics", "github"])
        #expect(none.status == 1)
        #expect(
            none.stdout.hasPrefix("::error file=mapping.yaml,title=seeder mapping-invalid::no source has a 'fetch:' block"),
            "\(none.stdout)")
    }

    /// An error object with status 200 where a paged source's array of records was: an error,
    /// and the pages in DUMPS stay.
    @Test func anErrorObjectWhereAPageWas() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in .json(#"{"message": "Bad credentials"}"#) }
        #expect(run.status == 1)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users")): a page's records are an array, but the body is an object; "
                + #"the body begins "{"message": "Bad credentials"}"  [/]"#)
    }

    /// A service that ignores the page parameter answers page 1 again: an error at page 2, not
    /// `maxPages` requests.
    @Test func aPageParameterTheServiceIgnores() async throws {
        let server = try await TestHTTPServer.start { _ in .json(#"[{"id": 1}]"#) }
        let harness = try FetchHarness(mapping: Self.mapping(server, paginate: "{ page: pag, size: 1 }"))
        let run = try await harness.fetch()
        await server.shutdown()
        #expect(run.status == 1)
        #expect(server.requests.count == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users?pag=2")) is byte for byte the page before it (GET \(server.url("users?pag=1"))): "
                + "the service does not read the paginator's parameter, or the paginator would go round forever")
        #expect(try harness.besideDumps() == ["mapping.yaml"])
    }

    /// A `next` key path the first page lacks: one page, and a warning that it may be a typo.
    @Test func aNextKeyPathTheFirstPageLacks() async throws {
        let server = try await TestHTTPServer.start { _ in .json(#"{"items": [{"id": 2}], "links": {"next": null}}"#) }
        let harness = try FetchHarness(mapping: Self.mapping(server, paginate: "{ next: links.nxt }", keyPath: "items"))
        let run = try await harness.fetch()
        await server.shutdown()
        #expect(run.status == 0)
        #expect(
            Self.line(run)
                == "mapping.yaml:9:12: warning: GET \(server.url("users")): 'links.nxt' is missing from the first page, so 'users/*.json' is one page; "
                + "if the service has more, the key path is wrong (a missing key ends a source, as null does)")
    }

    /// A full disk: the page cannot be staged; exit 2, DUMPS as it was, no folder left. Root
    /// only (a small tmpfs), as the build's catalog does it.
    @Test(.enabled(if: getuid() == 0)) func aFullDisk() async throws {
        let big = Counter()
        let server = try await TestHTTPServer.start { _ in
            big.count > 0 ? .json("[" + String(repeating: #"{"id": 1},"#, count: 20_000) + #"{"id": 2}]"#) : .json(#"[{"id": 1}]"#)
        }
        let harness = try FetchHarness(
            mapping: Self.mapping(server).replacingOccurrences(of: "users/*.json", with: "users.json")
                .replacingOccurrences(of: ", paginate: link", with: ""))
        let disk = harness.workspace.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try await program("/bin/sh", ["-c", "mount -t tmpfs -o size=64k tmpfs disk"], in: harness.workspace.root)
        try #require(mounted.status == 0, "\(mounted.stderr)")
        try await withCleanUp {
            let first = try await seeder(["fetch", "mapping.yaml", "disk/dumps"], in: harness.workspace.root)
            #expect(first.status == 0, "\(first.stderr)")
            let before = try FetchHarness.files(under: disk)
            _ = big.next()
            let run = try await seeder(["fetch", "mapping.yaml", "disk/dumps"], in: harness.workspace.root)
            await server.shutdown()
            #expect(run.status == 2)
            #expect(
                Self.line(run)
                    == "mapping.yaml:8:12: error: cannot write users.json (for GET \(server.url("users"))): No space left on device")
            #expect(try FetchHarness.files(under: disk) == before, "DUMPS as it was, and no folder left beside it")
        } cleanUp: {
            _ = try? await program("/bin/sh", ["-c", "umount disk"], in: harness.workspace.root)
        }
    }

    /// A server that stops in the middle of a body: the timeout covers the body too.
    @Test func aBodyThatStopsComing() async throws {
        let (run, server, _) = try await Self.failAfterSuccess { _ in
            .json(#"[{"id": 1}, {"id": 2}, {"id": 3}]"#).chunked(size: 4, pause: .seconds(60))
        }
        #expect(run.status == 2)
        #expect(
            Self.line(run)
                == "mapping.yaml:8:12: error: GET \(server.url("users")): gave up after 3 attempts: "
                + "no complete answer within 2 s (3 times)")
    }
}
