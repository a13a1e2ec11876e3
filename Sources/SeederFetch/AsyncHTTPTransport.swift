import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SeederCore

/// Requests through swift-server's async-http-client: TLS, HTTP/2, connection reuse and
/// `Content-Encoding` undone (gzip, deflate). Redirects are followed here, not by the client, so
/// that an https-to-http one is refused and a credential never follows a request to another host
/// (docs/mapping.md, Fetching the dumps: Redirects).
public final class AsyncHTTPTransport: HTTPTransport {
    private let client: HTTPClient

    /// The most redirects one request follows.
    static let maxRedirects = 5
    /// The largest body kept (docs/commands.md, fetch): 1 GiB.
    public static let largestBody = 1 << 30
    private let maxBody: Int

    /// `maxBody` is for tests, which cannot send a GiB.
    public init(maxBody: Int = largestBody) {
        self.maxBody = maxBody
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)), decompression: .enabled(limit: .none))
        configuration.connectionPool.idleTimeout = .seconds(30)
        // A refused connection fails at once; the sender's retries and backoff apply, not the
        // client's own for the connect timeout's whole 10 s.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: configuration)
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    public func send(_ request: FetchRequest, extraHeaders: [(name: String, value: String)], timeout: Double) async throws(TransportFailure)
        -> HTTPAnswer
    {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        var url = request.url
        var method = request.method
        var body = request.body
        var headers = request.headers + extraHeaders
        if request.header("Accept-Encoding") == nil { headers.append(("Accept-Encoding", "gzip, deflate")) }
        // Services refuse requests without one (GitHub does); the mapping's own replaces it.
        if request.header("User-Agent") == nil { headers.append(("User-Agent", "seeder-fetch")) }
        var redirects = 0
        while true {
            let answer = try await sendOnce(url: url, method: method, headers: headers, body: body, deadline: deadline, timeout: timeout)
            guard [301, 302, 303, 307, 308].contains(answer.status) else { return answer }
            guard let location = answer.header("Location"), let next = URL(string: location, relativeTo: URL(string: url))?.absoluteURL
            else {
                throw .redirect("a \(answer.status) redirect without a usable Location header")
            }
            redirects += 1
            guard redirects <= Self.maxRedirects else { throw .redirect("more than \(Self.maxRedirects) redirects") }
            let from = URL(string: url)
            if let refusal = Self.refusal(from: from, to: next) { throw .redirect(refusal) }
            if from?.host?.lowercased() != next.host?.lowercased() || from?.port != next.port {
                // A credential is for the host it was written for (as curl does).
                headers.removeAll {
                    $0.name.caseInsensitiveCompare("Authorization") == .orderedSame
                        || $0.name.caseInsensitiveCompare("Cookie") == .orderedSame
                }
            }
            if answer.status == 303 || (method == .post && [301, 302].contains(answer.status)) {
                method = .get
                body = nil
            }
            url = next.absoluteString
        }
    }

    /// Why a redirect from `from` to `to` is not followed, if it is not: https never leads to
    /// http, and fetch speaks only http and https.
    static func refusal(from: URL?, to: URL) -> String? {
        let scheme = to.scheme?.lowercased()
        guard scheme == "https" || scheme == "http" else { return "a redirect to \(to.absoluteString), which is not http or https" }
        if from?.scheme?.lowercased() == "https", scheme != "https" {
            return "a redirect from https to http, which fetch never follows: \(to.absoluteString)"
        }
        return nil
    }

    private func sendOnce(
        url: String, method: FetchMethod, headers: [(name: String, value: String)], body: [UInt8]?, deadline: NIODeadline, timeout: Double
    ) async throws(TransportFailure) -> HTTPAnswer {
        var request = HTTPClientRequest(url: url)
        request.method = method == .post ? .POST : .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            if request.headers["Content-Type"].isEmpty { request.headers.add(name: "Content-Type", value: "application/json") }
            request.body = .bytes(body)
        }
        var answered = false
        do {
            let response = try await client.execute(request, deadline: deadline)
            answered = true
            // The client's deadline ends with the head; the body must also come by it (a server
            // that stops in the middle of a body would otherwise be waited for forever).
            let limit = maxBody
            let buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await response.body.collect(upTo: limit) }
                group.addTask {
                    let left = deadline.uptimeNanoseconds &- NIODeadline.now().uptimeNanoseconds
                    if left > 0, left < UInt64(Int64.max) { try await Task.sleep(nanoseconds: left) }
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let buffer = first else { throw HTTPClientError.deadlineExceeded }
                return buffer
            }
            return HTTPAnswer(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                body: Array(buffer.readableBytesView), url: url)
        } catch {
            throw Self.failure(error, answered: answered, timeout: timeout, maxBody: maxBody)
        }
    }

    static func failure(_ error: Error, answered: Bool, timeout: Double, maxBody: Int) -> TransportFailure {
        if error is NIOTooManyBytesError { return .tooLarge(limit: maxBody) }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timedOut(seconds: timeout)
            case .connectTimeout: return .notConnected("connect timed out")
            case .invalidURL, .emptyHost, .emptyScheme: return .badURL("not a URL fetch can request (\(error))")
            case .remoteConnectionClosed:
                return answered ? .broken("the server closed the connection") : .broken("the server closed the connection before answering")
            default: break
            }
        }
        // A kept-alive connection the server had closed: the request never went out.
        if !answered, let channelError = error as? ChannelError, channelError == .ioOnClosedChannel {
            return .notConnected("a kept-alive connection had closed")
        }
        let text = String(describing: error)
        if text.contains("handshakeFailed") || text.contains("BoringSSL") {
            return .notConnected("the TLS handshake failed: is the port an https one?")
        }
        if error is NIOConnectionError || text.contains("connectionRefused") || text.contains("Connection refused") {
            return .notConnected(Self.reason(text))
        }
        return answered ? .broken(Self.reason(text)) : .broken(Self.reason(text))
    }

    /// A short reason from NIO's description of an error.
    static func reason(_ text: String) -> String {
        if text.contains("Connection refused") || text.contains("connectionRefused") { return "connection refused" }
        if text.contains("Connection reset") { return "connection reset by peer" }
        if text.contains("NXDOMAIN") || text.contains("nodename nor servname") || text.contains("Name or service not known") {
            return "the host name could not be resolved"
        }
        return text.count > 200 ? String(text.prefix(200)) + "..." : text
    }
}
