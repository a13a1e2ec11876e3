import Foundation
import SeederTestSupport
import Testing

@testable import SeederCore
@testable import SeederFetch

/// The parts of what fetch guarantees that hold without a server (docs/guides/fetching.md, What
/// fetch guarantees): a secret's forms, numbers from the service, a parent's values as data.
struct TrustPartsTests {
    static let location = SourceLocation(file: "mapping.yaml", line: 3, column: 5)

    static func variables(_ secret: String) throws -> FetchVariables {
        let template = try FetchTemplate.parse("${SECRET}", parentFields: false, location: location)
        return FetchVariables(reading: [template], from: ["SECRET": secret], diagnostics: DiagnosticSink())
    }

    /// Every form a service may echo a secret in is hidden, the mixed ones too.
    @Test func aSecretIsHiddenInEveryForm() throws {
        let variables = try Self.variables("q+Secret/x y\"z")
        let echoes = [
            "q+Secret/x y\"z", "q%2BSecret%2Fx%20y%22z", "q%2bSecret%2fx%20y%22z", "q%2BSecret%2Fx+y%22z", "q+Secret\\/x y\\\"z",
            "\\u0071\\u002BSecret/x\\u0020y\\u0022z", "q%252BSecret%252Fx%2520y%2522z",
            // Mixed: a JSON escape and percent-encoding in one value, which no list holds.
            "q%2BSecret\\/x+y\\u0022z",
        ]
        for echo in echoes {
            let text = "links.self = https://api.example.com/?api_key=\(echo)&page=2"
            let redacted = variables.redact(text)
            #expect(!redacted.contains("Secret"), "\(echo) -> \(redacted)")
            #expect(redacted.hasPrefix("links.self = "), "\(redacted)")
            #expect(variables.secret(in: Array("{\"self\": \"\(echo)\"}".utf8))?.name == "${SECRET}", "\(echo)")
        }
        #expect(
            variables.redact("key q%2BSecret%2Fx%20y%22z here") == "key ${SECRET} here",
            "a listed form is replaced by the name")
        // Where in the body, for the message: the offset of the echo's first byte.
        let body = Array(#"{"a": 1, "self": "x\/q%2BSecret\/x+y\u0022z"}"#.utf8)
        #expect(variables.secret(in: body)?.offset == 21)
        #expect(variables.secret(in: Array(#"{"self": "q+Secre"}"#.utf8)) == nil)
    }

    /// An excerpt is cut after the secret is hidden: no part of it shows.
    @Test func anExcerptIsCutAfterTheSecretIsHidden() throws {
        let variables = try Self.variables("Secr3tTokenValue")
        for padding in 180...200 {
            let body = Array((String(repeating: "a", count: padding) + " token=Secr3tTokenValue end").utf8)
            let excerpt = RequestSender.excerpt(body, redact: variables.redact)
            #expect(!excerpt.contains("Secr"), "\(padding): \(excerpt)")
        }
        // Past the 64 KiB looked at, the cut drops a secret's beginning with it.
        let long = Array((String(repeating: " ", count: 65536 - 1030) + "Secr3tTokenValue" + String(repeating: "b", count: 10)).utf8)
        #expect(!RequestSender.excerpt(long, redact: variables.redact).contains("Secr"))
    }

    /// A number the service sends is range-checked: never a trap, at worst "a year or more".
    @Test func numbersFromTheServiceAreRangeChecked() {
        #expect(RequestSender.seconds("120", fraction: false) == 120)
        #expect(RequestSender.seconds("007", fraction: false) == 7)
        for text in ["1e300", "1e400", "nan", "inf", "-5", "", " ", "1.5", "0x10", "１２"] {
            #expect(RequestSender.seconds(text, fraction: false) == nil, "\(text)")
        }
        #expect(RequestSender.seconds("1.5", fraction: true) == 1.5)
        #expect(RequestSender.seconds("99999999999999999999999999999999999", fraction: false)! > RequestSender.longestNumber)
        #expect(RequestSender.duration(1e300) == "365 days or more")
        #expect(RequestSender.duration(.infinity) == "ever")
        #expect(RequestSender.duration(3 * 86400) == "3 days")
        #expect(RequestSender.duration(3600) == "60 min")
        #expect(RequestSender.duration(1.2) == "1.2 s")
        #expect(RequestSender.duration(0.47) == "0.5 s")
        #expect(RequestSender.duration(45.2) == "46 s")
    }

    /// A parent's value is data: a line break never reaches a header, `..` never climbs the path.
    @Test func aParentsValuesAreData() throws {
        func parse(_ text: String) throws -> FetchTemplate { try FetchTemplate.parse(text, parentFields: true, location: Self.location) }
        let spec = FetchSpec(
            url: try parse("https://api.example.com/kids/{id}/items"), method: .get,
            headers: [FetchParameter(name: "X-Kid", value: try parse("{name}"))], query: [], body: nil, paginate: nil, each: nil,
            retries: nil, timeout: nil, maxPages: nil, location: Self.location)
        let variables = FetchVariables(reading: [], from: [:], diagnostics: DiagnosticSink())
        let plan = RequestPlan(spec: spec, defaults: FetchDefaults(), variables: variables)
        func request(id: String, name: String) throws(FetchFailure) -> FetchRequest {
            try plan.request(
                .request(query: [], bodyCursor: nil),
                parent: ParentRecord(fields: ["id": id, "name": name], folderName: id, file: "kids/0001.json", pointer: "/3"),
                location: Self.location)
        }
        #expect(try request(id: "...", name: "ok").url == "https://api.example.com/kids/.../items")
        #expect(try request(id: "a/..", name: "ok").url == "https://api.example.com/kids/a%2F../items")
        for (id, name, message) in [
            (
                "..", "ok",
                "the record at /3 of kids/0001.json gives '{id}' the value '..', which would climb the URL's path; fetch never sends it"
            ),
            (
                ".", "ok",
                "the record at /3 of kids/0001.json gives '{id}' the value '.', which would climb the URL's path; fetch never sends it"
            ),
            (
                "1", "x\r\nAuthorization: Bearer injected",
                "the record at /3 of kids/0001.json gives '{name}' a value with a line break or NUL, which fetch never puts in a header"
            ),
            (
                "1", "x\u{0}y",
                "the record at /3 of kids/0001.json gives '{name}' a value with a line break or NUL, which fetch never puts in a header"
            ),
        ] {
            #expect {
                _ = try request(id: id, name: name)
            } throws: { error in
                (error as? FetchFailure)?.diagnostic.message == message
            }
        }
    }
}

extension TrustPartsTests {
    /// What the `fetch` fuzz target showed (fuzz/README.md): a JSON Lines error on a last line
    /// without a line feed is placed on that line, and a next link's scheme is read in any case.
    @Test func whatTheFuzzerShowed() throws {
        let location = SourceLocation(file: "m.yaml")
        let source = Source(path: "p/*.jsonl", entity: 0, keyPath: [], location: location)
        #expect {
            _ = try PageBody(Array("{}\nx".utf8), source: source, described: "GET x", contentType: nil, location: location)
        } throws: { error in
            (error as? FetchFailure)?.diagnostic.message.contains("at line 2, column 1;") == true
        }
        #expect(PageWalker.resolve("HTTPS://x.example/p2", against: "https://x.example/p1") == "HTTPS://x.example/p2")
    }
}

extension TrustPartsTests {
    /// `Glob.isPage`, matched by hand, names the files the regular expression it replaced named.
    @Test func pagesAreNamedAsBefore() {
        func byExpression(_ path: String, _ pattern: String, each: Bool) -> Bool {
            var expression = "^"
            var star = 0
            for character in pattern {
                if character == "*" {
                    star += 1
                    expression += each && star == 1 ? "[^/]+" : "[0-9]{4,}"
                } else {
                    expression += NSRegularExpression.escapedPattern(for: String(character))
                }
            }
            return path.range(of: expression + "$", options: .regularExpression) != nil
        }
        let patterns = ["users/*.json", "comics/*/*.json", "c/*/*.json.gz", "*.json", "a/*/b/*", "x*y/*.jsonl"]
        let paths = [
            "users/0001.json", "users/001.json", "users/00012.json", "users/0001.json.gz", "users/a/0001.json", "comics/12/0003.json",
            "comics/12/notes.json", "comics//0003.json", "comics/1/2/0003.json", "c/x/0001.json.gz", "0001.json", "a/q/b/0001",
            "a/q/b/12345", "a//b/0001", "x12y/0001.jsonl", "xy/0001.jsonl", "x/y/0001.jsonl", "users/0001.jsonx",
        ]
        for pattern in patterns {
            for path in paths {
                for each in [false, true] {
                    #expect(
                        Glob.isPage(path, of: pattern, each: each, paged: true) == byExpression(path, pattern, each: each),
                        "\(path) \(pattern) each \(each)")
                }
            }
        }
    }
}

extension TrustPartsTests {
    /// A manifest entry that recorded a control character (a tampered ETag that would be a header
    /// line) is ignored with a warning, and one fetch cannot read is named, not dropped silently.
    @Test func aManifestsOddEntriesAreNamed() throws {
        let location = SourceLocation(file: "m.yaml")
        var entry = FetchManifest.Entry(
            source: "users/*.json", url: "https://h/users", etag: "\"1\"\r\nX-Injected: 1", lastModified: nil, sha256: "00", size: 1,
            next: nil)
        var manifest = FetchManifest()
        manifest.files["users/0001.json"] = entry
        entry.etag = "\"2\""
        manifest.files["users/0002.json"] = entry
        var source = Source(path: "users/*.json", entity: 0, keyPath: [], location: location)
        source.fetch = FetchSpec(
            url: try FetchTemplate.parse("users", parentFields: false, location: location), method: .get, headers: [], query: [], body: nil,
            paginate: .link, each: nil, retries: nil, timeout: nil, maxPages: nil, location: location)
        let (kept, ignored) = manifest.keepingFiles(of: [source], shown: "dumps/.seeder-fetch.json")
        #expect(kept.files.keys.sorted() == ["users/0002.json"])
        #expect(
            ignored.map(\.description) == [
                "dumps/.seeder-fetch.json: warning: ignoring the manifest's entry \"users/0001.json\": a control character in its ETag, "
                    + "Last-Modified or next page; fetch sends no such header"
            ])
        let workspace = try Workspace(directories: ["dumps"])
        try workspace.write(
            "dumps/.seeder-fetch.json",
            #"{"format": 1, "files": {"users/0001.json": {"source": "users/*.json", "url": "u", "sha256": 12, "size": 1}}}"#)
        let read = FetchManifest.read(dumps: workspace.path("dumps"))
        #expect(read.manifest.files.isEmpty)
        #expect(
            read.problem
                == workspace.path("dumps") + "/.seeder-fetch.json: ignoring an entry fetch cannot read (\"users/0001.json\"); "
                + "its pages are fetched whole")
    }
}
