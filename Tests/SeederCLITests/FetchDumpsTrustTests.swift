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

    /// A manifest whose entries lead out of DUMPS, or name files no source of the mapping names:
    /// each is ignored with a warning and dropped; no file outside DUMPS, and no file of DUMPS
    /// that no source names, is removed.
    @Test func aTamperedManifestIsDataNotInstructions() async throws {
        let handler: TestHTTPServer.Handler = { _ in .json(#"[{"id": 1}]"#, headers: ["ETag": "\"1\""]) }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: Self.mapping(
                    server,
                    sources: ["- { path: users/*.json, entity: User, fetch: { url: users, paginate: link } }"]))
            let first = try await harness.fetch()
            #expect(first.status == 0, "\(first.stderr)")
            let workspace = harness.workspace
            for name in ["keep.yaml", "x.json", "abs.json", "dumps/other/0001.json", "dumps/users/notes.json"] {
                try workspace.write(name, "keep \(name)\n")
            }
            let outside = try FetchHarness.files(under: workspace.root).filter { !$0.key.hasPrefix("dumps") }
            let manifestPath = workspace.path("dumps/.seeder-fetch.json")
            let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
            let entry = try #require(
                manifest.range(of: #"{"source""#).map { manifest[$0.lowerBound...] }?.prefix { $0 != "}" })
            let tampered: [(name: String, source: String)] = [
                ("../keep.yaml", "users/*.json"),
                (workspace.path("abs.json"), "users/*.json"),
                ("users/../../x.json", "users/*.json"),
                ("other/0001.json", "other/*.json"),
                ("users/notes.json", "users/*.json"),
                ("./users/0001.json", "users/*.json"),
                ("users//0001.json", "users/*.json"),
                (#"users\0002.json"#, "users/*.json"),
                ("users/\u{1B}[2J0003.json", "users/*.json"),
            ]
            var members = tampered.map { tamper in
                let member = entry.replacingOccurrences(of: #""users/*.json""#, with: "\"\(tamper.source)\"") + "}"
                return "\(Self.jsonString(tamper.name)): \(member)"
            }
            members.append(#""users/0001.json": "# + entry + "}")
            try workspace.write("dumps/.seeder-fetch.json", #"{"format": 1, "files": {"# + members.joined(separator: ", ") + "}}\n")
            let inside = try harness.snapshot()

            let run = try await harness.fetch()
            #expect(run.status == 0, "\(run.stderr)")
            let shown = "dumps/.seeder-fetch.json: warning: ignoring the manifest's entry "
            #expect(
                run.stderr.split(separator: "\n").map(String.init) == [
                    shown + #""../keep.yaml": a '..' leads out of DUMPS"#,
                    shown + #""./users/0001.json": a '.' or empty component; fetch names its files plainly"#,
                    shown + #""\#(workspace.path("abs.json"))": an absolute path; its files lie inside DUMPS"#,
                    shown + #""other/0001.json": its source "other/*.json" is no source of the mapping"#,
                    shown + #""users/\u001b[2J0003.json": a control character; fetch names its files plainly"#,
                    shown + #""users/../../x.json": a '..' leads out of DUMPS"#,
                    shown + #""users//0001.json": a '.' or empty component; fetch names its files plainly"#,
                    shown + #""users/notes.json": not a file fetch names for "users/*.json""#,
                    shown + #""users\\0002.json": a backslash; fetch names its files plainly"#,
                ])
            let outsideAfter = try FetchHarness.files(under: workspace.root).filter { !$0.key.hasPrefix("dumps") }
            #expect(outsideAfter == outside, "a file outside DUMPS changed")
            var after = try harness.snapshot()
            #expect(Set(after.keys) == Set(inside.keys), "a file of DUMPS was removed or added")
            after[".seeder-fetch.json"] = inside[".seeder-fetch.json"]
            #expect(after == inside, "a dump changed")
            #expect(try harness.text(".seeder-fetch.json") == manifest, "the ignored entries were not dropped")
            #expect(try harness.besideDumps() == ["abs.json", "dumps", "keep.yaml", "mapping.yaml", "x.json"])
        }
    }

    /// `text` as a JSON string.
    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// A folder of DUMPS that is a link to a folder outside it, and a dump that is a link to a
    /// file outside it: fetch would write and delete there, so it refuses, naming both, and
    /// neither DUMPS nor what the links lead to changes.
    @Test func neverThroughASymbolicLink() async throws {
        let handler: TestHTTPServer.Handler = { request in .json(request.path == "/pages" ? #"[{"id": 1}]"# : #"[{"id": 2}]"#) }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: Self.mapping(
                    server,
                    sources: [
                        "- { path: pages/*.json, entity: User, fetch: { url: pages, paginate: link } }",
                        "- { path: users.json, entity: User, fetch: { url: users } }",
                    ]))
            let workspace = harness.workspace
            try workspace.write("victim/0001.json", "old page\n")
            try workspace.write("victim/0002.json", "a page fetch would remove\n")
            try workspace.write("secret.json", "the user's file\n")
            try FileManager.default.createDirectory(atPath: harness.dumps, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: workspace.path("dumps/pages"), withDestinationPath: "../victim")
            try FileManager.default.createSymbolicLink(atPath: workspace.path("dumps/users.json"), withDestinationPath: "../secret.json")
            let everything = try FetchHarness.files(under: workspace.root)
            let before = try harness.snapshot()

            let run = try await harness.fetch()
            #expect(run.status == 2)
            #expect(
                run.stderr
                    == "error: dumps: dumps/pages and dumps/users.json are symbolic links; fetch never writes through one; "
                    + "the dumps were not updated\nfetch failed: 1 error; dumps was not changed\n")
            #expect(try FetchHarness.files(under: workspace.root) == everything)
            #expect(try harness.snapshot() == before)
            #expect(try harness.besideDumps() == ["dumps", "mapping.yaml", "secret.json", "victim"])

            // One link, the last component of a file fetch would replace.
            try FileManager.default.removeItem(atPath: workspace.path("dumps/pages"))
            let one = try await harness.fetch()
            #expect(one.status == 2)
            #expect(
                one.stderr
                    == "error: dumps: dumps/users.json is a symbolic link; fetch never writes through one; "
                    + "the dumps were not updated\nfetch failed: 1 error; dumps was not changed\n")
            #expect(try String(contentsOfFile: workspace.path("secret.json"), encoding: .utf8) == "the user's file\n")
            #expect(try harness.besideDumps() == ["dumps", "mapping.yaml", "secret.json", "victim"])

            // DUMPS itself may be a link: the user's choice, not a folder of DUMPS.
            try FileManager.default.removeItem(atPath: workspace.path("dumps/users.json"))
            try FileManager.default.moveItem(atPath: harness.dumps, toPath: workspace.path("store"))
            try FileManager.default.createSymbolicLink(atPath: harness.dumps, withDestinationPath: "store")
            let linked = try await harness.fetch()
            #expect(linked.status == 0, "\(linked.stderr)")
            #expect(try String(contentsOfFile: workspace.path("store/users.json"), encoding: .utf8) == #"[{"id": 2}]"#)
            #expect(try String(contentsOfFile: workspace.path("store/pages/0001.json"), encoding: .utf8) == #"[{"id": 1}]"#)
            #expect(try harness.besideDumps() == ["dumps", "mapping.yaml", "secret.json", "store", "victim"])
        }
    }

    /// SIGINT and SIGTERM while pages are being written, many in flight: never a folder left
    /// beside DUMPS, DUMPS as it was, the status of the signal. Ten runs, since the race it
    /// guards against is one of timing.
    @Test func aSignalAmidPagesLeavesNoFolder() async throws {
        // The server sends the signal itself, on its own thread, once the round's fetch has made
        // 40 requests (pages in flight, the handler installed): a test task may wait many seconds
        // for a thread of the pool under a full suite, and the fetch would end meanwhile.
        let round = Box((pid: pid_t(0), signal: Int32(0), requests: 0, sent: false))
        // A path of its own: a fetch of another test that reached this port by mistake gets a 404.
        let handler: TestHTTPServer.Handler = { request in
            guard request.path == "/signal-users" else { return .status(404) }
            round.update { state in
                state.requests += 1
                if state.requests >= 40, !state.sent, state.pid != 0 {
                    kill(state.pid, state.signal)
                    state.sent = true
                }
            }
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            return .json(#"{"total": 5000, "items": [{"id": \#(offset + 1)}]}"#).delayed(by: .milliseconds(5))
        }
        try await TestHTTPServer.with(handler) { server in
            let harness = try FetchHarness(
                mapping: Self.mapping(
                    server, fetch: "concurrency: 4",
                    sources: [
                        "- path: users/*.json",
                        "  entity: User",
                        "  keyPath: items",
                        "  fetch: { url: signal-users, paginate: { offset: offset, limit: limit, size: 1, total: total } }",
                    ]))
            try harness.workspace.write("dumps/notes.txt", "not fetch's\n")
            let before = try harness.snapshot()
            for number in 0..<10 {
                let signal = number % 2 == 0 ? SIGINT : SIGTERM
                round.value = (0, signal, 0, false)
                let fetch = try harness.startFetch()
                round.update { $0.pid = fetch.process.processIdentifier }
                let run = await fetch.finished()
                #expect(round.value.sent, "round \(number): the fetch ended before its 40th request")
                #expect(run.status == 128 + signal, "round \(number): \(run.stderr)")
                #expect(run.stderr.hasSuffix("fetch: interrupted; the dumps are as they were\n"), "round \(number): \(run.stderr)")
                #expect(try harness.besideDumps() == ["dumps", "mapping.yaml"], "round \(number): a folder was left")
                #expect(try harness.snapshot() == before, "round \(number)")
                for name in try harness.besideDumps() where name.hasPrefix(".") {
                    try FileManager.default.removeItem(atPath: harness.workspace.path(name))
                }
            }
        }
    }
}
