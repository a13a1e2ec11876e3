import Foundation

/// One accepted connection, on two threads of its own: the reader, which queues each request
/// once all of it has arrived, and the responder, which answers them in order.
///
/// A handler runs as a task of its own (`handle`), cancelled when the connection closes first; a response's
/// delay or a chunk's pause ends as soon as the connection closes. The reader keeps
/// reading while a response waits, so it sees a client leave (a reset ends the connection; a
/// half-close is still answered) and queues pipelined requests.
final class TestHTTPConnection: @unchecked Sendable {
    /// What the reader queues for the responder.
    private enum Arrival {
        case request(TestHTTPRequest)
        /// Bytes that are not a request: answered 400, then the connection closes.
        case malformed
    }

    let number: Int
    private let socket: Int32
    private let connections: TestHTTPConnections
    private let handler: TestHTTPServer.Handler

    // Guarded by `condition`, which is signalled on every change.
    private let condition = NSCondition()
    private var arrivals: [Arrival] = []
    private var inputEnded = false
    private var closing = false
    private var readerEnded = false
    private var socketClosed = false
    private var responderEnded = false
    private var handled: Result<TestHTTPResponse, any Error>?
    private var endWaiters: [CheckedContinuation<Void, Never>] = []

    init(socket: Int32, number: Int, connections: TestHTTPConnections, handler: @escaping TestHTTPServer.Handler) {
        self.socket = socket
        self.number = number
        self.connections = connections
        self.handler = handler
    }

    /// Starts the reader and the responder.
    func start() {
        Thread { self.read() }.start()
        Thread { self.respond() }.start()
    }

    /// Ends the connection: the wait or write in progress stops, a running handler is cancelled,
    /// and the socket closes once both threads are done. Returns at once.
    func close() {
        condition.withLock {
            closing = true
            condition.broadcast()
            if !socketClosed { TestSocket.shutdownBoth(socket) }
        }
    }

    /// Returns once the connection has ended and its socket is closed.
    func ended() async {
        await withCheckedContinuation { continuation in
            condition.lock()
            if socketClosed {
                condition.unlock()
                continuation.resume()
            } else {
                endWaiters.append(continuation)
                condition.unlock()
            }
        }
    }

    // MARK: The reader

    private func read() {
        var parser = TestHTTPRequestParser()
        reading: while true {
            let bytes: [UInt8]
            do {
                bytes = try TestSocket.receive(socket)
            } catch {
                // A reset: nobody is left to answer.
                close()
                break
            }
            guard !bytes.isEmpty else { break }
            parser.append(bytes)
            do {
                while let request = try parser.next() {
                    arrive(.request(connections.record(request, connection: number)))
                }
            } catch {
                arrive(.malformed)
                break reading
            }
        }
        condition.withLock {
            inputEnded = true
            readerEnded = true
            condition.broadcast()
        }
    }

    private func arrive(_ arrival: Arrival) {
        condition.withLock {
            arrivals.append(arrival)
            condition.broadcast()
        }
    }

    // MARK: The responder

    private func respond() {
        while let arrival = nextArrival() {
            guard case let .request(request) = arrival else {
                try? TestSocket.sendAll(socket, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                break
            }
            guard let response = handle(request), wait(response.delay) else { break }
            do {
                guard try send(response, answering: request) else { break }
            } catch {
                break
            }
        }
        finish()
    }

    /// The next request to answer; nil once the connection is closing, or the client has sent
    /// its last byte and every request is answered.
    private func nextArrival() -> Arrival? {
        condition.lock()
        defer { condition.unlock() }
        while !closing, arrivals.isEmpty, !inputEnded { condition.wait() }
        guard !closing, !arrivals.isEmpty else { return nil }
        return arrivals.removeFirst()
    }

    /// The handler's response to `request`, run as a task of its own; nil when the connection
    /// closed first (the handler is cancelled) or the handler stopped for its cancellation.
    ///
    /// At high priority: a test run queues hundreds of tests' tasks on the cooperative pool at
    /// once, and a handler queued behind them waited past its client's timeout (19 s once).
    private func handle(_ request: TestHTTPRequest) -> TestHTTPResponse? {
        let handler = handler
        let task = Task(priority: .high) {
            let result: Result<TestHTTPResponse, any Error>
            do {
                result = .success(try await handler(request))
            } catch {
                result = .failure(error)
            }
            self.condition.withLock {
                self.handled = result
                self.condition.broadcast()
            }
        }
        condition.lock()
        defer {
            handled = nil
            condition.unlock()
        }
        while handled == nil, !closing { condition.wait() }
        if handled == nil {
            condition.unlock()
            task.cancel()
            condition.lock()
            while handled == nil { condition.wait() }
        }
        switch handled {
        case .success(let response) where !closing:
            return response
        case .failure(let error) where !closing && !(error is CancellationError):
            return .text("the test server's handler threw: \(error)\n", status: 500)
        default:
            return nil
        }
    }

    /// Waits `duration`, or less if the connection closes: whether it is still open.
    private func wait(_ duration: Duration) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if duration > .zero {
            let deadline = Date(timeIntervalSinceNow: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            while !closing, condition.wait(until: deadline) {}
        }
        return !closing
    }

    /// Writes `response` as its behaviour says; whether the connection stays open for another
    /// request.
    private func send(_ response: TestHTTPResponse, answering request: TestHTTPRequest) throws -> Bool {
        guard let wire = TestHTTPResponseWire(response, answering: request) else { return false }
        switch response.behaviour {
        case .normal, .closeWithoutAnswer:
            try TestSocket.sendAll(socket, wire.head + wire.body)
        case let .chunked(size, pause):
            try TestSocket.sendAll(socket, wire.head)
            guard wire.hasBody else { break }
            for start in stride(from: 0, to: wire.body.count, by: size) {
                if start > 0, pause > .zero { guard wait(pause) else { return false } }
                let chunk = wire.body[start..<min(start + size, wire.body.count)]
                try TestSocket.sendAll(socket, Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + [13, 10])
            }
            try TestSocket.sendAll(socket, Array("0\r\n\r\n".utf8))
        case let .cut(after):
            try TestSocket.sendAll(socket, wire.head + wire.body.prefix(max(0, after)))
            return false
        }
        return !wire.closesAfter
    }

    /// Closes the socket once the reader is done too (shutting it down ends the reader's read),
    /// and tells whoever waits for the end.
    private func finish() {
        condition.lock()
        responderEnded = true
        closing = true
        if !socketClosed { TestSocket.shutdownBoth(socket) }
        while !readerEnded { condition.wait() }
        TestSocket.close(socket)
        socketClosed = true
        let waiters = endWaiters
        endWaiters = []
        condition.unlock()
        connections.ended(self)
        for waiter in waiters { waiter.resume() }
    }
}
