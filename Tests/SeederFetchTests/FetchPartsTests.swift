import Foundation
import SeederTestSupport
import Testing

@testable import SeederCore
@testable import SeederFetch

/// The parts of `seeder fetch` that need no server: links, templates and secrets, requests,
/// paginators, the page names (docs/mapping.md, Fetching the dumps).
struct FetchPartsTests {
    static let location = SourceLocation(file: "mapping.yaml", line: 3, column: 5)

    @Test func linkHeaders() {
        let github =
            #"<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=9>; rel="last""#
        #expect(LinkHeader.target(rel: "next", in: [github]) == "https://api.github.com/repositories/1/issues?page=2")
        #expect(LinkHeader.target(rel: "last", in: [github]) == "https://api.github.com/repositories/1/issues?page=9")
        #expect(LinkHeader.target(rel: "prev", in: [github]) == nil)
        // Several headers, several relation types, a quoted comma, parameters in any order and case.
        let odd = [#"</a>; title="x, y"; REL="prev"#, #"</b?c=1,2>; foo=bar; rel="Next last""#]
        #expect(LinkHeader.target(rel: "next", in: odd) == "/b?c=1,2")
        #expect(LinkHeader.target(rel: "next", in: ["<x>; rel=next"]) == "x")
        #expect(LinkHeader.target(rel: "next", in: ["garbage", ""]) == nil)
    }

    @Test func variablesAreExpandedAndHidden() async throws {
        let sink = DiagnosticSink()
        let template = try FetchTemplate.parse("k=${KEY}&h=${md5:1${PRIV}${KEY}}&l=${LOCALE}", parentFields: false, location: Self.location)
        let variables = FetchVariables(
            reading: [template], from: ["KEY": "public-key", "PRIV": "private-key", "LOCALE": "en"], diagnostics: sink)
        #expect(!sink.hasErrors)
        let md5 = try await md5sum("1private-keypublic-key")
        #expect(variables.expand(template) == "k=public-key&h=\(md5)&l=en")
        #expect(variables.render(template) == "k=${KEY}&h=${md5:1${PRIV}${KEY}}&l=${LOCALE}")
        // What the server sends back is searched for every value of 4 characters or more, and
        // for the digests made from them; a two-letter value is left alone.
        #expect(variables.redact("next=?k=public-key&h=\(md5)&l=en") == "next=?k=${KEY}&h=${md5:1${PRIV}${KEY}}&l=en")
        #expect(variables.secret(in: Array("{\"url\": \"x?apikey=private-key\"}".utf8))?.name == "${PRIV}")
        #expect(variables.secret(in: Array("{\"locale\": \"en\"}".utf8)) == nil)
    }

    @Test func unsetVariablesAreErrorsAtTheirText() throws {
        let sink = DiagnosticSink()
        let template = try FetchTemplate.parse("Bearer ${SEEDER_UNSET_TOKEN}", parentFields: false, location: Self.location)
        _ = FetchVariables(reading: [template, template], from: [:], diagnostics: sink)
        #expect(
            sink.diagnostics.map(\.description) == [
                "mapping.yaml:3:5: error: environment variable 'SEEDER_UNSET_TOKEN' is not set (read by '${SEEDER_UNSET_TOKEN}')"
            ])
        #expect(sink.diagnostics.first?.code == .unsetVariable)
    }

    @Test func requestsResolveMergeAndEncode() throws {
        func parse(_ text: String) throws -> FetchTemplate { try FetchTemplate.parse(text, parentFields: true, location: Self.location) }
        var defaults = FetchDefaults()
        defaults.base = try parse("https://api.example.com/v1/")
        defaults.headers = [FetchParameter(name: "authorization", value: try parse("Bearer ${TOKEN}"))]
        defaults.query = [FetchParameter(name: "locale", value: try parse("en")), FetchParameter(name: "limit", value: try parse("5"))]
        let spec = FetchSpec(
            url: try parse("characters/{id}/comics"), method: .get,
            headers: [FetchParameter(name: "Authorization", value: try parse("token ${TOKEN}"))],
            query: [FetchParameter(name: "q", value: try parse("a b&c"))], body: nil, paginate: nil, each: nil, retries: nil, timeout: nil,
            maxPages: nil, location: Self.location)
        let sink = DiagnosticSink()
        let variables = FetchVariables(
            reading: [defaults.headers[0].value, spec.headers[0].value], from: ["TOKEN": "t0ken-value"], diagnostics: sink)
        let plan = RequestPlan(spec: spec, defaults: defaults, variables: variables)
        let parent = ParentRecord(fields: ["id": "a/b"], folderName: "a%2Fb", file: "c.json", pointer: "/0")
        let request = try plan.request(
            .request(query: [.init(name: "limit", value: "100"), .init(name: "offset", value: "200")], bodyCursor: nil), parent: parent,
            location: Self.location)
        #expect(request.url == "https://api.example.com/v1/characters/a%2Fb/comics?locale=en&limit=100&q=a%20b%26c&offset=200")
        #expect(request.shownURL == request.url)
        // The source's header replaces the default's of the same name, ignoring case.
        #expect(request.headers.map(\.name) == ["Authorization"])
        #expect(request.headers.map(\.value) == ["token t0ken-value"])
        #expect(request.credentials == ["header Authorization: token ${TOKEN}"])
        let next = try plan.request(.url("https://api.example.com/v1/x?page=2"), parent: nil, location: Self.location)
        #expect(next.url == "https://api.example.com/v1/x?page=2")
    }

    @Test func cursorInTheBody() {
        #expect(
            RequestPlan.setting(["variables", "after"], to: "\"abc\"", in: #"{"query":"q","variables":{"after":null,"n":1}}"#)
                == #"{"query":"q","variables":{"after":"abc","n":1}}"#)
        #expect(RequestPlan.setting(["variables", "after"], to: "7", in: #"{"query":"q"}"#) == #"{"query":"q","variables":{"after":7}}"#)
    }

    @Test func pagePaths() {
        #expect(FetchRun.pagePath("users/*.json", folder: nil, page: 1) == "users/0001.json")
        #expect(FetchRun.pagePath("users/*.json", folder: nil, page: 12345) == "users/12345.json")
        #expect(FetchRun.pagePath("comics/*/*.json.gz", folder: "1011334", page: 2) == "comics/1011334/0002.json.gz")
        #expect(FetchRun.pagePath("details/*.json", folder: "x", page: nil) == "details/x.json")
        #expect(FetchRun.folderName("a/b%c") == "a%2Fb%25c")
        #expect(FetchRun.folderName("..") == "%2E.")
        #expect(FetchRun.folderName("caf\u{E9}") == "caf\u{E9}")
        // C1's CSI and NEL, a line separator and a right-to-left override: no raw one in a name.
        #expect(FetchRun.folderName("\u{9B}31m\u{85}x\u{2028}a\u{202E}b") == "%C2%9B31m%C2%85x%E2%80%A8a%E2%80%AEb")
        #expect(Glob.isPage("comics/12/0003.json", of: "comics/*/*.json", each: true, paged: true))
        #expect(!Glob.isPage("comics/12/notes.json", of: "comics/*/*.json", each: true, paged: true))
        #expect(!Glob.isPage("users/001.json", of: "users/*.json", each: false, paged: true))
    }

    static func body(_ json: String, keyPath: [String] = []) throws -> PageBody {
        let source = Source(path: "p/*.json", entity: 0, keyPath: keyPath, location: location)
        return try PageBody(Array(json.utf8), source: source, described: "GET x", contentType: nil, location: location)
    }

    @Test func pageBodies() throws {
        #expect(try Self.body(#"{"data": {"results": [1, 2, 3]}}"#, keyPath: ["data", "results"]).records == 3)
        #expect(try Self.body(#"[]"#).records == 0)
        #expect(try Self.body(#"{"id": 1}"#).records == 1)
        do {
            _ = try Self.body("<html>\n<body>Sign in</body></html>")
            Issue.record("HTML read as JSON")
        } catch let error as FetchFailure {
            #expect(error.outcome == .invalid)
            #expect(error.diagnostic.code == .syntax)
            #expect(error.diagnostic.message.hasPrefix("GET x: the body is not JSON: "))
            #expect(error.diagnostic.message.contains("at line 1, column 1; it begins \"<html> <body>Sign in</body></html>\""))
        }
        do {
            _ = try Self.body(#"{"data": {"count": 0}}"#, keyPath: ["data", "results"])
            Issue.record("a missing keyPath")
        } catch let error as FetchFailure {
            #expect(
                error.diagnostic.message
                    == "GET x: 'keyPath' data.results reaches nothing: 'data' is an object with no 'results'; the body begins \"{\"data\": {\"count\": 0}}\""
            )
            #expect(error.diagnostic.jsonPath == "/data")
        }
    }

    @Test func paginatorsStopAndGo() throws {
        func answer(_ json: String, links: [String] = [], url: String = "https://x/p", pages: Int = 1) throws -> PageWalker.Answer {
            PageWalker.Answer(body: try Self.body(json, keyPath: ["items"]), links: links, url: url, pages: pages, recordedNext: nil)
        }
        var link = PageWalker(paginator: .link, maxPages: 3)
        let first = try link.next(
            after: try answer(#"{"items": [1]}"#, links: [#"</p?page=2>; rel="next""#]), described: "GET x", location: Self.location)
        #expect(first?.step == .url("https://x/p?page=2"))
        #expect(try link.next(after: try answer(#"{"items": [1]}"#), described: "GET x", location: Self.location) == nil)
        // The same next link twice goes round forever.
        #expect(throws: FetchFailure.self) {
            _ = try link.next(
                after: try answer(#"{"items": []}"#, links: [#"</p?page=2>; rel="next""#], pages: 2), described: "GET x",
                location: Self.location)
        }
        // maxPages: a next page past it is an error, never a silent cut.
        var capped = PageWalker(paginator: .link, maxPages: 1)
        #expect(throws: FetchFailure.self) {
            _ = try capped.next(
                after: try answer(#"{"items": []}"#, links: [#"</p?page=2>; rel="next""#]), described: "GET x", location: Self.location)
        }
        let offsetForm = Paginator.offset(param: "offset", limit: "limit", size: 2, total: nil)
        var offset = PageWalker(paginator: offsetForm, maxPages: 10)
        #expect(offset.first() == .request(query: [.init(name: "offset", value: "0"), .init(name: "limit", value: "2")], bodyCursor: nil))
        #expect(
            try offset.next(after: try answer(#"{"items": [1, 2]}"#), described: "", location: Self.location)?.step
                == .request(query: [.init(name: "offset", value: "2"), .init(name: "limit", value: "2")], bodyCursor: nil))
        #expect(try offset.next(after: try answer(#"{"items": [3]}"#), described: "", location: Self.location) == nil)
        let total = try KeyPath(parsing: "total")
        let withTotal = PageWalker(paginator: .offset(param: "offset", limit: nil, size: 2, total: total), maxPages: 10)
        #expect(
            try withTotal.remaining(
                after: try Self.body(#"{"items": [1, 2], "total": 5}"#, keyPath: ["items"]), described: "", location: Self.location)
                == [
                    .request(query: [.init(name: "offset", value: "2")], bodyCursor: nil),
                    .request(query: [.init(name: "offset", value: "4")], bodyCursor: nil),
                ])
        #expect(throws: FetchFailure.self) {
            _ = try PageWalker(paginator: .offset(param: "offset", limit: nil, size: 2, total: total), maxPages: 2)
                .remaining(
                    after: try Self.body(#"{"items": [1, 2], "total": 5}"#, keyPath: ["items"]), described: "", location: Self.location)
        }
        var page = PageWalker(paginator: .page(param: "page", size: nil, sizeParam: nil, start: 1, pages: nil), maxPages: 10)
        #expect(
            try page.next(after: try answer(#"{"items": [1]}"#), described: "", location: Self.location)?.step
                == .request(query: [.init(name: "page", value: "2")], bodyCursor: nil))
        #expect(try page.next(after: try answer(#"{"items": []}"#), described: "", location: Self.location) == nil)
        let cursorForm = Paginator.cursor(target: .query("after"), value: try KeyPath(parsing: "next"), more: try KeyPath(parsing: "more"))
        var cursor = PageWalker(paginator: cursorForm, maxPages: 10)
        #expect(
            try cursor.next(after: try answer(#"{"items": [1], "next": "c1", "more": true}"#), described: "", location: Self.location)?.step
                == .request(query: [.init(name: "after", value: "c1")], bodyCursor: nil))
        #expect(
            try cursor.next(after: try answer(#"{"items": [1], "next": "c2", "more": false}"#), described: "", location: Self.location)
                == nil)
        #expect(throws: FetchFailure.self) {
            _ = try cursor.next(after: try answer(#"{"items": [1], "next": "c1", "more": true}"#), described: "", location: Self.location)
        }
        let nextForm = Paginator.next(try KeyPath(parsing: "links.next"))
        var next = PageWalker(paginator: nextForm, maxPages: 10)
        #expect(
            try next.next(after: try answer(#"{"items": [], "links": {"next": "/p?page=2"}}"#), described: "", location: Self.location)?
                .step
                == .url("https://x/p?page=2"))
        #expect(try next.next(after: try answer(#"{"items": [], "links": {"next": null}}"#), described: "", location: Self.location) == nil)
        #expect(try next.next(after: try answer(#"{"items": [], "links": {"next": ""}}"#), described: "", location: Self.location) == nil)
    }
}

/// The hex MD5 of `text`, by the system's `md5sum`: a digest the code under test did not make.
func md5sum(_ text: String) async throws -> String {
    String(try await runProgram("/usr/bin/env", ["md5sum"], input: Array(text.utf8)).stdout.prefix(32))
}
