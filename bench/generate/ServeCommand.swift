import Dispatch
import Foundation
import SeederTestServer

/// `seeder-bench serve [--pages P] [--records R] [--port N]`: a paged JSON API on 127.0.0.1 for
/// timing `seeder fetch`. Prints `http://127.0.0.1:PORT/` as its first line once it listens, then
/// serves until SIGINT or SIGTERM, after which it closes its connections and exits 0.
func runServe(_ arguments: [String]) -> Never {
    var options = ["--pages": 1000, "--records": 100, "--port": 0]
    var index = 1
    while index < arguments.count {
        guard options[arguments[index]] != nil, index + 1 < arguments.count, let value = Int(arguments[index + 1]), value >= 0 else {
            print("usage: seeder-bench serve [--pages P] [--records R] [--port N]")
            exit(64)
        }
        options[arguments[index]] = value
        index += 2
    }
    guard let pages = options["--pages"], let records = options["--records"], let port = options["--port"], records > 0 else {
        print("serve: --records must be at least 1")
        exit(64)
    }
    let api = PagedAPI(pages: pages, perPage: records)
    // Ignored by the process, seen by dispatch sources instead, set up before the URL is printed:
    // a signal sent as soon as it is read must not be lost.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let stop = signalArrivals([SIGINT, SIGTERM])
    Task {
        do {
            let server = try await TestHTTPServer.start(port: port, recording: false) { request in api.answer(request) }
            FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
            for await _ in stop { break }
            await server.shutdown()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("seeder-bench serve: \(error)\n".utf8))
            exit(1)
        }
    }
    dispatchMain()
}

/// Each arrival of one of `signals`, which must be ignored (`SIG_IGN`) beforehand.
func signalArrivals(_ signals: [Int32]) -> AsyncStream<Int32> {
    AsyncStream { continuation in
        let sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        nonisolated(unsafe) let kept = sources
        continuation.onTermination = { _ in
            for source in kept { source.cancel() }
        }
    }
}

/// The API `serve` answers: `pages * perPage` records, `GET /items?page=N&per_page=M` (pages from
/// 1; `per_page` 1 to 1,000, `perPage` unless given) answering
/// `{"items":[...M records...],"total":T,"pages":P}`, with an `ETag` that names the page (304 when
/// `If-None-Match` has it) and `Link: <...page=N+1...>; rel="next"` while records remain, on the
/// 304 too. Past the last record a page is `{"items":[],"total":T,"pages":P}`.
///
/// Every record is made once, at the start, into one buffer, each followed by a comma: a page is
/// then one copy of a slice of it, whatever its `per_page`, and the server's time goes to HTTP,
/// not to making JSON (bench/README.md, `serve`).
struct PagedAPI: Sendable {
    let pages: Int
    let perPage: Int
    var total: Int { pages * perPage }
    /// Record 1, a comma, record 2, a comma, ...
    private let records: [UInt8]
    /// Where each record starts in `records`, and one more: where the next would.
    private let starts: [Int]

    init(pages: Int, perPage: Int) {
        self.pages = pages
        self.perPage = perPage
        var records: [UInt8] = []
        var starts: [Int] = []
        records.reserveCapacity(pages * perPage * 200)
        starts.reserveCapacity(pages * perPage + 1)
        for id in stride(from: 1, through: pages * perPage, by: 1) {
            starts.append(records.count)
            Self.append(record: id, to: &records)
            records.append(UInt8(ascii: ","))
        }
        starts.append(records.count)
        self.records = records
        self.starts = starts
    }

    func answer(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { return .status(405, headers: ["Allow": "GET, HEAD"]) }
        guard request.path == "/items" else { return .json(#"{"error":"no such path; try /items?page=1"}"#, status: 404) }
        let query = request.query
        guard let page = Int(query["page"] ?? "1"), page >= 1, let size = Int(query["per_page"] ?? String(perPage)),
            (1...1000).contains(size)
        else {
            return .json(#"{"error":"page is from 1, per_page from 1 to 1000"}"#, status: 400)
        }
        // Records first...last, from 1; none when first > last.
        let first = (page - 1) * size + 1
        let last = min(total, page * size)
        let etag = "\"items-\(total)-\(size)-\(page)\""
        var headers: TestHTTPHeaders = ["ETag": etag]
        if last < total {
            let base = request.header("Host").map { "http://\($0)" } ?? ""
            headers.add("Link", "<\(base)/items?page=\(page + 1)&per_page=\(size)>; rel=\"next\"")
        }
        if let tags = request.header("If-None-Match"), Self.matches(tags, etag) {
            return .status(304, headers: headers)
        }
        let items = first <= last ? records[starts[first - 1]..<(starts[last] - 1)] : []
        var body: [UInt8] = []
        body.reserveCapacity(items.count + 40)
        body += #"{"items":["#.utf8
        body += items
        body += #"],"total":\#(total),"pages":\#((total + size - 1) / size)}"#.utf8
        return .bytes(body, contentType: "application/json", headers: headers)
    }

    /// Whether an `If-None-Match` list names `etag` (weakly, as RFC 9110 compares for it), or is `*`.
    static func matches(_ tags: String, _ etag: String) -> Bool {
        tags.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }

    /// Record `id`, ~195 bytes, the same for the same id (its own SplitMix64 stream), written byte
    /// by byte: three times as fast as with string interpolation (bench/README.md, `serve`).
    static func append(record id: Int, to body: inout [UInt8]) {
        var random = SplitMix64(state: 0x5EED &+ UInt64(id) &* 0x9E37_79B9)
        let first = random.below(words.count), second = random.below(words.count)
        body += #"{"id":"#.utf8
        appendDecimal(id, to: &body)
        body += #","name":""#.utf8
        body += capitalizedWords[first]
        body.append(UInt8(ascii: " "))
        body += capitalizedWords[second]
        body.append(UInt8(ascii: " "))
        appendDecimal(id, to: &body)
        body += #"","email":""#.utf8
        body += wordBytes[first]
        body.append(UInt8(ascii: "."))
        appendDecimal(id, to: &body)
        body += #"@example.com","bio":""#.utf8
        for index in 0..<(4 + random.below(5)) {
            if index > 0 { body.append(UInt8(ascii: " ")) }
            body += wordBytes[random.below(words.count)]
        }
        body += #"","created_at":"20"#.utf8
        appendDigits(10 + random.below(15), 2, to: &body)
        body.append(UInt8(ascii: "-"))
        appendDigits(1 + random.below(12), 2, to: &body)
        body.append(UInt8(ascii: "-"))
        appendDigits(1 + random.below(28), 2, to: &body)
        body.append(UInt8(ascii: "T"))
        appendDigits(random.below(24), 2, to: &body)
        body.append(UInt8(ascii: ":"))
        appendDigits(random.below(60), 2, to: &body)
        body.append(UInt8(ascii: ":"))
        appendDigits(random.below(60), 2, to: &body)
        body += #"Z","score":"#.utf8
        let score = random.below(100_000)
        appendDecimal(score / 1000, to: &body)
        body.append(UInt8(ascii: "."))
        appendDigits(score % 1000, 3, to: &body)
        body += random.below(10) != 0 ? #","active":true,"tags":[""#.utf8 : #","active":false,"tags":[""#.utf8
        body += wordBytes[random.below(words.count)]
        body += #"",""#.utf8
        body += wordBytes[random.below(words.count)]
        body += #""]}"#.utf8
    }

    static let wordBytes = words.map { Array($0.utf8) }
    static let capitalizedWords = words.map { Array($0.initialCapital.utf8) }

    static func appendDecimal(_ value: Int, to body: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &body) }
        body.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `value` in exactly `count` digits, zeros first.
    static func appendDigits(_ value: Int, _ count: Int, to body: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            body.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
