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
            let server = try await TestHTTPServer.start(port: port) { request in api.answer(request) }
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
/// `{"items":[...M records...],"total":T}`, with an `ETag` that names the page (304 when
/// `If-None-Match` has it) and `Link: <...page=N+1...>; rel="next"` while records remain, on the
/// 304 too. Past the last record a page is `{"items":[],"total":T}`.
struct PagedAPI: Sendable {
    let pages: Int
    let perPage: Int
    var total: Int { pages * perPage }

    func answer(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else { return .status(405, headers: ["Allow": "GET, HEAD"]) }
        guard request.path == "/items" else { return .json(#"{"error":"no such path; try /items?page=1"}"#, status: 404) }
        let query = request.query
        guard let page = Int(query["page"] ?? "1"), page >= 1, let size = Int(query["per_page"] ?? String(perPage)),
            (1...1000).contains(size)
        else {
            return .json(#"{"error":"page is from 1, per_page from 1 to 1000"}"#, status: 400)
        }
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
        var body: [UInt8] = []
        body.reserveCapacity(20 + max(0, last - first + 1) * 220)
        body += #"{"items":["#.utf8
        if first <= last {
            for id in first...last {
                if id > first { body.append(UInt8(ascii: ",")) }
                Self.append(record: id, to: &body)
            }
        }
        body += #"],"total":\#(total)}"#.utf8
        return .bytes(body, contentType: "application/json", headers: headers)
    }

    /// Whether an `If-None-Match` list names `etag` (weakly, as RFC 9110 compares for it), or is `*`.
    static func matches(_ tags: String, _ etag: String) -> Bool {
        tags.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }

    /// Record `id`, ~200 bytes, the same for the same id (its own SplitMix64 stream).
    static func append(record id: Int, to body: inout [UInt8]) {
        var random = SplitMix64(state: 0x5EED &+ UInt64(id) &* 0x9E37_79B9)
        let first = random.word().initialCapital, second = random.word().initialCapital
        let score = random.below(100_000), fraction = score % 1000
        let decimals = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        body +=
            """
            {"id":\(id),"name":"\(first) \(second) \(id)","email":"\(first.lowercased()).\(id)@example.com",\
            "bio":"\(random.phrase(4 + random.below(5)))","created_at":"\(random.timestamp())",\
            "score":\(score / 1000).\(decimals),"active":\(random.below(10) != 0),"tags":["\(random.word())","\(random.word())"]}
            """.utf8
    }
}
