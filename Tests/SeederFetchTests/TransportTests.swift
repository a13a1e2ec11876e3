import Foundation
import SeederCore
import SeederTestServer
import SeederTestSupport
import Testing

@testable import SeederFetch

/// The transport and the sender on their own, against the test server: the body limit, the
/// redirect rules, `X-RateLimit-Reset` (docs/commands.md, `seeder fetch`: Failures).
struct TransportTests {
    static func request(_ url: String) -> FetchRequest {
        FetchRequest(
            method: .get, url: url, shownURL: url, headers: [("Authorization", "Bearer x")], body: nil, credentials: [],
            scope: CredentialScope(origin: Origin(url), headers: [], holdsSecret: { _ in false }))
    }

    /// A body over the limit is an error, never a silent cut; it is not retried.
    @Test func aBodyOverTheLimit() async throws {
        try await TestHTTPServer.with { _ in
            .text(String(repeating: "x", count: 5000))
        } run: { server in
            let transport = try CurlTransport(maxBody: 4096)
            defer { Task { await transport.shutdown() } }
            // Long timeouts: the handler runs on the cooperative pool, which the suite's other tests
            // keep busy; what is checked is the limit, not the time.
            await #expect(throws: TransportFailure.tooLarge(limit: 4096)) {
                _ = try await transport.send(Self.request(server.url("big")), extraHeaders: [], timeout: 600)
            }
            let small = try CurlTransport(maxBody: 5000)
            let answer = try await small.send(Self.request(server.url("big")), extraHeaders: [], timeout: 600)
            #expect(answer.body.count == 5000)
            await small.shutdown()
        }
    }

    @Test func originRules() throws {
        let scope = CredentialScope(
            origin: Origin("https://api.example.com/v1/"), headers: ["x-api-key"], holdsSecret: { $0.contains("s3cr%2Bt") })
        #expect(scope.refusal(of: "https://cdn.example.com/b", from: "https://api.example.com/a") == nil)
        #expect(scope.refusal(of: "https://API.example.com:443/b?k=s3cr%2Bt", from: nil) == nil)
        #expect(
            scope.refusal(of: "http://api.example.com/b", from: nil)
                == "http://api.example.com/b leads from https to http, which fetch never follows")
        #expect(scope.refusal(of: "file:///etc/passwd", from: nil) == "file:///etc/passwd is not an http or https URL fetch can request")
        #expect(
            scope.refusal(of: "https://evil.example.com/?k=s3cr%2Bt", from: nil)
                == "a URL of another origin (https://evil.example.com:443) than the mapping's (https://api.example.com:443) holds a secret; "
                + "fetch never sends one there")
        let headers: [(name: String, value: String)] = [("Authorization", "a"), ("X-Api-Key", "k"), ("Cookie", "c"), ("Accept", "j")]
        #expect(
            scope.headers(headers, for: Origin("https://api.example.com/x")!).map(\.name) == [
                "Authorization", "X-Api-Key", "Cookie", "Accept",
            ])
        #expect(scope.headers(headers, for: Origin("https://api.example.com:8443/x")!).map(\.name) == ["Accept"])
        #expect(scope.headers(headers, for: Origin("http://api.example.com/x")!).map(\.name) == ["Accept"])
        // A user named in a URL of another origin would go there as `Authorization: Basic`.
        #expect(
            scope.refusal(of: "https://api.example.com:443@evil.example.com/ui", from: nil)
                == "a URL of another origin (https://evil.example.com:443) than the mapping's (https://api.example.com:443) names a user, "
                + "which would be sent as a credential")
        #expect(scope.refusal(of: "https://me@api.example.com/x", from: nil) == nil, "the mapping's own origin")
        // Read strictly, as libcurl would not read it otherwise.
        #expect(Origin("https://user:pw@API.example.com:443/a?b#c") == Origin("https://api.example.com"))
        #expect(Origin("http://[::1]:8080/x")?.description == "http://[::1]:8080")
        for odd in [
            "https://api.example.com\\@evil.com/", "https://a b/", "https://:80/", "https://h:99999/", "https://h:8x/", "ftp://h/", "h/x",
        ] {
            #expect(Origin(odd) == nil, "\(odd)")
        }
    }

    /// More than 5 redirects; the credential is not sent on to another host. The timeout is
    /// long: between two redirects the task waits for the cooperative pool, which the whole
    /// suite's tests queue on at once, and a timeout covers every redirect.
    @Test func redirectLimitAndCredentials() async throws {
        try await TestHTTPServer.with { request in
            let step = Int(request.path.dropFirst()) ?? 0
            return .redirect(to: "/\(step + 1)")
        } run: { server in
            let transport = try CurlTransport()
            await #expect(throws: TransportFailure.redirect("more than 5 redirects")) {
                _ = try await transport.send(Self.request(server.url("0")), extraHeaders: [], timeout: 600)
            }
            #expect(server.requests.count == 6)
            await transport.shutdown()
        }
        try await TestHTTPServer.with { _ in
            .json("[]")
        } run: { target in
            let location = target.url("x").replacingOccurrences(of: "127.0.0.1", with: "localhost")
            try await TestHTTPServer.with { _ in
                .redirect(to: location)
            } run: { server in
                let transport = try CurlTransport()
                let answer = try await transport.send(Self.request(server.url("a")), extraHeaders: [], timeout: 600)
                #expect(answer.status == 200)
                #expect(server.requests.first?.header("Authorization") == "Bearer x")
                #expect(target.requests.first?.header("Authorization") == nil, "no credential to another host")
                await transport.shutdown()
            }
        }
    }

    /// Below the URL check, libcurl itself requests only http and https (`CURLOPT_PROTOCOLS_STR`,
    /// or the older mask where libcurl predates it): a file:// URL does not read the file, and
    /// ftp:// and gopher:// connect nowhere.
    @Test func libcurlItselfRequestsOnlyHTTP() async throws {
        let workspace = try Workspace()
        let secret = workspace.path("secret.txt")
        try Data("not for fetch".utf8).write(to: URL(fileURLWithPath: secret))
        let transport = try CurlTransport()
        for (scheme, url) in [("file", "file://" + secret), ("ftp", "ftp://127.0.0.1:9/x"), ("gopher", "gopher://127.0.0.1:9/x")] {
            do {
                let answer = try await transport.sendOnce(
                    url: url, method: .get, headers: [], body: nil, deadline: .now + .seconds(60), timeout: 60, bodyFile: nil)
                Issue.record("\(url) was requested: \(String(decoding: answer.body, as: UTF8.self))")
            } catch {
                guard case let .badURL(message) = error else {
                    Issue.record("\(url): \(error)")
                    continue
                }
                #expect(message.hasPrefix("not a URL fetch can request (Protocol \"\(scheme)\""), "\(message)")
            }
        }
        await transport.shutdown()
    }

    /// A redirect to a file:// or ftp:// URL is refused before anything is requested there.
    @Test func aRedirectToAnotherSchemeIsRefused() async throws {
        for location in ["file:///etc/passwd", "ftp://127.0.0.1:9/x"] {
            try await TestHTTPServer.with { _ in
                .redirect(to: location)
            } run: { server in
                let transport = try CurlTransport()
                await #expect(throws: TransportFailure.refused("\(location) is not an http or https URL fetch can request")) {
                    _ = try await transport.send(Self.request(server.url("a")), extraHeaders: [], timeout: 600)
                }
                #expect(server.requests.count == 1)
                await transport.shutdown()
            }
        }
    }

    /// `X-RateLimit-Remaining: 0` with a reset a second away: the next request waits for it.
    @Test func rateLimitResetHoldsTheNextRequest() async throws {
        // Checked at the server, not by the test's clock: under load the second request may
        // start late on its own. The reset is a whole second, as GitHub sends it.
        let calls = ManagedCounter()
        let reset = Int(Date().timeIntervalSince1970) + 3
        let secondAt = ManagedCounter()
        try await TestHTTPServer.with { _ in
            let call = calls.next()
            if call == 2 { secondAt.set(Int(Date().timeIntervalSince1970 * 1000)) }
            return call == 1
                ? .json("[]", headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset)])
                : .json("[]", headers: ["X-RateLimit-Remaining": "59"])
        } run: { server in
            let sink = DiagnosticSink()
            let variables = FetchVariables(reading: [], from: [:], diagnostics: sink)
            let transport = try CurlTransport()
            let sender = RequestSender(
                transport: transport, gate: RequestGate(concurrency: 2, rate: nil), variables: variables, counters: FetchCounters())
            let location = SourceLocation(file: "m.yaml")
            _ = try await sender.send(
                Self.request(server.url("1")), conditional: [], limits: .init(retries: 0, timeout: 60), location: location)
            _ = try await sender.send(
                Self.request(server.url("2")), conditional: [], limits: .init(retries: 0, timeout: 60), location: location)
            #expect(secondAt.value >= reset * 1000 - 50, "the second request was held back until the reset")
            await transport.shutdown()
        }
    }
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ newValue: Int) {
        lock.lock()
        stored = newValue
        lock.unlock()
    }

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        stored += 1
        return stored
    }
}
