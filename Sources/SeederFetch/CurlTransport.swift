import CCurl
import Foundation
import SeederCore

/// Requests through the system's libcurl: TLS, HTTP/2, proxies (`https_proxy` and the other
/// variables curl reads), connection reuse and `Content-Encoding` undone. Redirects are followed
/// here, not by libcurl, so that an https-to-http one is refused and a credential never follows a
/// request to another origin (docs/guides/fetching.md, What fetch guarantees).
public final class CurlTransport: HTTPTransport {
    private let driver: CurlDriver

    /// The most redirects one request follows.
    static let maxRedirects = 5
    /// The largest body kept (docs/commands.md, fetch): 1 GiB.
    public static let largestBody = 1 << 30
    /// How long a connection may take to open, within the request's own timeout.
    static let connectTimeout = 10.0
    private let maxBody: Int
    /// A body larger than this goes to the request's `bodyFile` as it arrives.
    public static let largestInMemory = 8 << 20
    private let spillAfter: Int

    /// Opens libcurl: `library` is a file name or path (`SEEDER_LIBCURL`, docs/install.md), or
    /// `nil` for the system's. `maxBody` is for tests, which cannot send a GiB.
    public init(library: String? = nil, maxBody: Int = largestBody, spillAfter: Int = largestInMemory) throws(CurlUnavailable) {
        var error = [CChar](repeating: 0, count: 512)
        guard ccurl_load(library, &error, error.count) == 0 else {
            throw CurlUnavailable(
                library: library, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let driver = CurlDriver() else { throw CurlUnavailable(library: library, reason: "curl_multi_init failed") }
        self.driver = driver
        self.maxBody = maxBody
        self.spillAfter = spillAfter
    }

    public func shutdown() async {
        await driver.shutdown()
    }

    public func send(_ request: FetchRequest, extraHeaders: [(name: String, value: String)], timeout: Double) async throws(TransportFailure)
        -> HTTPAnswer
    {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        var url = request.url
        var method = request.method
        var body = request.body
        var headers = request.headers + extraHeaders
        // Services refuse requests without one (GitHub does); the mapping's own replaces it.
        if request.header("User-Agent") == nil { headers.append(("User-Agent", "seeder-fetch")) }
        var redirects = 0
        var previous: String?
        while true {
            // Every URL, the first too (a next page's, one the manifest recorded), is checked
            // before it is requested, and gets the credentials only on the mapping's origin.
            let target = try request.scope.admit(url, from: previous).get()
            let answer = try await sendOnce(
                url: url, method: method, headers: request.scope.headers(headers, for: target), body: body, deadline: deadline,
                timeout: timeout, bodyFile: request.bodyFile)
            guard [301, 302, 303, 307, 308].contains(answer.status) else { return answer }
            guard let location = answer.header("Location"), let next = URL(string: location, relativeTo: URL(string: url))?.absoluteURL
            else {
                throw .redirect("a \(answer.status) redirect without a usable Location header")
            }
            redirects += 1
            guard redirects <= Self.maxRedirects else { throw .redirect("more than \(Self.maxRedirects) redirects") }
            if answer.status == 303 || (method == .post && [301, 302].contains(answer.status)) {
                method = .get
                body = nil
            }
            previous = url
            url = next.absoluteString
        }
    }

    /// One request as it is, with no check of its URL: `send` checks each first; the tests call
    /// this alone to see libcurl itself refuse what the check would have.
    func sendOnce(
        url: String, method: FetchMethod, headers: [(name: String, value: String)], body: [UInt8]?, deadline: ContinuousClock.Instant,
        timeout: Double, bodyFile: String?
    ) async throws(TransportFailure) -> HTTPAnswer {
        let remaining = ContinuousClock.now.duration(to: deadline).components
        let left = Double(remaining.seconds) + Double(remaining.attoseconds) / 1e18
        guard left > 0 else { throw .timedOut(seconds: timeout) }
        // What the request asks for is what libcurl decodes; by default, whatever it can.
        let acceptEncoding = headers.first { $0.name.caseInsensitiveCompare("Accept-Encoding") == .orderedSame }?.value ?? ""
        guard
            let transfer = ccurl_transfer_new(
                url, method == .post ? 1 : 0, acceptEncoding, Int(left * 1000) + 1, Int(min(left, Self.connectTimeout) * 1000) + 1,
                maxBody)
        else { throw .badURL("not a URL fetch can request: \(url)") }
        defer { ccurl_transfer_free(transfer) }
        var lines = headers.filter { $0.name.caseInsensitiveCompare("Accept-Encoding") != .orderedSame }.map { header in
            // "Name;" is how libcurl sends a header with an empty value ("Name:" would remove it).
            header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
        }
        // libcurl's own `Expect: 100-continue` before a large POST body costs a round trip.
        lines.append("Expect:")
        if let body {
            if !headers.contains(where: { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
                lines.append("Content-Type: application/json")
            }
            guard body.withUnsafeBytes({ ccurl_transfer_set_body(transfer, $0.baseAddress, $0.count) }) == 0 else {
                throw .broken("the request body could not be set")
            }
        }
        for line in lines {
            // On bytes: "\r\n" is one Character, which a Character test would not see.
            guard !line.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw .refused("the header '\(line.prefix { $0 != ":" })' has a line break or NUL in its value; fetch never sends one")
            }
            guard ccurl_transfer_add_header(transfer, line) == 0 else { throw .broken("the header could not be set") }
        }
        // Each attempt and each redirect starts the file anew, if its body is that large.
        if let bodyFile, ccurl_transfer_spill(transfer, bodyFile, spillAfter) != 0 { throw .broken("out of memory") }
        await driver.perform(CurlTransfer(pointer: transfer))
        let message = String(cString: ccurl_transfer_message(transfer))
        switch ccurl_transfer_outcome(transfer) {
        case CCURL_DONE:
            var count = 0
            let head =
                ccurl_transfer_head(transfer, &count).map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self)
                } ?? ""
            var answer = HTTPAnswer(status: ccurl_transfer_status(transfer), headers: Self.headers(head), body: [], url: url)
            if ccurl_transfer_spilled(transfer) > 0 {
                answer.bodyFile = bodyFile
            } else {
                answer.body = ccurl_transfer_body(transfer, &count).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            }
            return answer
        case CCURL_NOT_CONNECTED: throw .notConnected(message)
        case CCURL_NOT_RESOLVED: throw .notConnected("the host name could not be resolved")
        case CCURL_TLS: throw .notConnected("the TLS handshake failed: \(message)")
        case CCURL_TIMED_OUT: throw .timedOut(seconds: timeout)
        case CCURL_TOO_LARGE: throw .tooLarge(limit: maxBody)
        case CCURL_NOTHING: throw .broken("the server closed the connection before answering")
        case CCURL_BAD_URL: throw .badURL("not a URL fetch can request (\(message))")
        default: throw .broken(message)
        }
    }

    /// The header lines of an answer's head, past its status line; folded lines are joined.
    static func headers(_ head: String) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for line in head.split(separator: "\r\n", omittingEmptySubsequences: true).dropFirst() {
            if line.first == " " || line.first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return headers
    }
}

/// libcurl could not be opened: `seeder fetch` cannot run (docs/install.md).
public struct CurlUnavailable: Error, Sendable {
    public var library: String?
    public var reason: String

    public var description: String {
        let named = library.map { "SEEDER_LIBCURL=\($0): " } ?? ""
        return "seeder fetch needs libcurl 7.68 or later: \(named)\(reason) (Debian and Ubuntu: apt install libcurl4; "
            + "SEEDER_LIBCURL names the library file if it has another name)"
    }
}
