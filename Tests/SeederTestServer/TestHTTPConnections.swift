import Foundation

/// A server's connections and the requests they brought: what `TestHTTPServer` reads, what the
/// connections' threads write.
final class TestHTTPConnections: @unchecked Sendable {
    private struct State {
        var requests: [TestHTTPRequest] = []
        var received = 0
        var accepted = 0
        var open: [Int: TestHTTPConnection] = [:]
        var closing = false
    }

    let handler: TestHTTPServer.Handler
    /// Whether `requests` keeps every request.
    let recording: Bool
    private let lock = NSLock()
    private var state = State()

    init(recording: Bool, handler: @escaping TestHTTPServer.Handler) {
        self.recording = recording
        self.handler = handler
    }

    var requests: [TestHTTPRequest] { lock.withLock { state.requests } }
    var acceptedCount: Int { lock.withLock { state.accepted } }

    /// Serves a socket the listener accepted, or closes it when the server is shutting down.
    func accept(_ socket: Int32) {
        let connection: TestHTTPConnection? = lock.withLock {
            guard !state.closing else { return nil }
            let connection = TestHTTPConnection(socket: socket, number: state.accepted, connections: self, handler: handler)
            state.accepted += 1
            state.open[connection.number] = connection
            return connection
        }
        guard let connection else {
            TestSocket.close(socket)
            return
        }
        connection.start()
    }

    /// Records a request that has arrived whole, giving it its index.
    func record(_ request: TestHTTPRequestParser.Request, connection: Int) -> TestHTTPRequest {
        lock.withLock {
            let recorded = TestHTTPRequest(
                index: state.received, connection: connection, method: request.method, uri: request.uri, version: request.version,
                headers: request.headers, body: request.body, keepsAlive: request.keepsAlive)
            state.received += 1
            if recording { state.requests.append(recorded) }
            return recorded
        }
    }

    /// A connection has closed its socket.
    func ended(_ connection: TestHTTPConnection) {
        lock.withLock { _ = state.open.removeValue(forKey: connection.number) }
    }

    /// Refuses new connections, closes the open ones and waits for them to end.
    func closeAll() async {
        let open = lock.withLock {
            state.closing = true
            return Array(state.open.values)
        }
        for connection in open { connection.close() }
        for connection in open { await connection.ended() }
    }

    /// Closes the open connections and waits for them to end; new ones are still accepted.
    func closeOpen() async {
        let open = lock.withLock { Array(state.open.values) }
        for connection in open { connection.close() }
        for connection in open { await connection.ended() }
    }

    /// Refuses new connections and closes the open ones, without waiting: for a server dropped
    /// without `shutdown()`.
    func closeAllNow() {
        let open = lock.withLock {
            state.closing = true
            return Array(state.open.values)
        }
        for connection in open { connection.close() }
    }
}
