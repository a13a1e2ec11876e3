/// An HTTP/1.1 server on 127.0.0.1, in the test's own process, that answers each request with
/// what a handler returns: for the tests of `seeder fetch` and for `seeder-bench serve`.
///
/// ```swift
/// try await TestHTTPServer.with { request in
///     request.query["page"] == "2" ? .json("[]") : .json(#"[{"id":1}]"#, headers: ["Link": "</v1/users?page=2>; rel=\"next\""])
/// } run: { server in
///     // fetch server.url("v1/users?page=1") ...
///     #expect(server.requests.map(\.uri) == ["/v1/users?page=1", "/v1/users?page=2"])
/// }
/// ```
///
/// Connections are kept alive (HTTP/1.1) and served concurrently, each answering its requests in
/// order. A handler may keep state of its own behind a lock, or count with `request.index`. It
/// runs as a task of its own, at high priority, on Swift's cooperative pool, so it must not
/// block: `Task.sleep`, or the response's `delay`, waits without holding a thread. Nor may a
/// test hold one for seconds: a program is awaited with `runProgram`, and long work runs
/// `offThePool` or yields between its parts. A handler that throws is answered with 500 and
/// the error's text.
///
/// The server is plain sockets and threads: a thread accepts, and each connection has a reader
/// and a responder. `shutdown()` (or the end of `with`) closes the listening socket and every
/// connection, and cancels the handlers still running.
public final class TestHTTPServer: Sendable {
    /// Turns a request into a response; called once per request, concurrently for requests on
    /// different connections.
    public typealias Handler = @Sendable (TestHTTPRequest) async throws -> TestHTTPResponse

    /// The port the server listens on, on 127.0.0.1 (or the host it was started on).
    public let port: Int
    /// The loopback address it listens on: `127.0.0.1`, or `127.0.0.2` for a second origin.
    public let host: String
    private let listener: TestHTTPListener
    private let connections: TestHTTPConnections

    private init(listener: TestHTTPListener, connections: TestHTTPConnections, host: String) {
        self.listener = listener
        self.connections = connections
        self.host = host
        port = listener.port
    }

    /// Starts a server on 127.0.0.`loopbackHost` (1, or 2 for a second origin: another host to
    /// a client, on the same machine), on `port` (0: a free port the system picks). A server
    /// that answers many requests, like `seeder-bench serve`, passes `recording: false`:
    /// `requests` then stays empty instead of growing.
    public static func start(port: Int = 0, loopbackHost: UInt8 = 1, recording: Bool = true, _ handler: @escaping Handler) async throws
        -> TestHTTPServer
    {
        let connections = TestHTTPConnections(recording: recording, handler: handler)
        return TestHTTPServer(
            listener: try TestHTTPListener(port: port, host: loopbackHost, connections: connections), connections: connections,
            host: "127.0.0.\(loopbackHost)")
    }

    /// Starts a server, runs `body` with it, and shuts it down, whether `body` returns or throws.
    public static func with<Result>(
        port: Int = 0,
        isolation: isolated (any Actor)? = #isolation,
        _ handler: @escaping Handler,
        run body: (TestHTTPServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(port: port, handler)
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// `http://127.0.0.1:PORT/` (or the server's host).
    public var baseURL: String { "http://\(host):\(port)/" }

    /// The URL of `pathAndQuery` on this server: `url("v1/users?page=2")`, with or without the
    /// leading slash.
    public func url(_ pathAndQuery: String) -> String {
        baseURL + (pathAndQuery.hasPrefix("/") ? String(pathAndQuery.dropFirst()) : pathAndQuery)
    }

    /// Every request received so far, in the order their last byte arrived.
    public var requests: [TestHTTPRequest] { connections.requests }

    /// How many connections the server has accepted so far.
    public var connectionCount: Int { connections.acceptedCount }

    /// Closes every open connection, idle or answering, as a server that restarts or times out
    /// its kept-alive connections does; new connections are still accepted. A client's next
    /// request on a pooled connection then meets a closed socket.
    public func closeConnections() async {
        await connections.closeOpen()
    }

    /// Stops listening, closes every connection, cancels the handlers still running and waits
    /// for them to return. Calling it again does nothing.
    public func shutdown() async {
        listener.stop()
        await connections.closeAll()
    }

    deinit {
        // A server dropped without `shutdown()` still gives its port back and ends its connections.
        listener.stop()
        connections.closeAllNow()
    }
}
