import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// A server's connections and the requests they brought: what `TestHTTPServer` reads, what each
/// connection's task writes. Thread-safe: connections live on several event loops.
final class TestHTTPConnections: Sendable {
    private struct Open {
        let channel: any Channel
        let task: Task<Void, Never>
    }

    private struct State {
        var requests: [TestHTTPRequest] = []
        var received = 0
        var accepted = 0
        var open: [Int: Open] = [:]
        var closing = false
    }

    let handler: TestHTTPServer.Handler
    /// Whether `requests` keeps every request.
    let recording: Bool
    private let state = NIOLockedValueBox(State())

    init(recording: Bool, handler: @escaping TestHTTPServer.Handler) {
        self.recording = recording
        self.handler = handler
    }

    var requests: [TestHTTPRequest] { state.withLockedValue { $0.requests } }
    var acceptedCount: Int { state.withLockedValue { $0.accepted } }

    /// Sets up a new connection, on its event loop: the HTTP codec, the reader that hands whole
    /// requests to a task, and the task that answers them one by one.
    func accept(_ channel: any Channel) throws {
        let number: Int? = state.withLockedValue { state in
            guard !state.closing else { return nil }
            defer { state.accepted += 1 }
            return state.accepted
        }
        guard let number else { return channel.close(promise: nil) }
        // The handler decides every framing header (a cut body's Content-Length is a lie), and
        // requests are queued by the reader, so NIO's pipelining helper is not needed; without
        // it the connection keeps reading while a response waits, and sees the client leave.
        var encoder = HTTPResponseEncoder.Configuration()
        encoder.automaticallySetFramingHeaders = false
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withPipeliningAssistance: false, withEncoderConfiguration: encoder)
        let (requests, continuation) = AsyncStream.makeStream(of: TestHTTPRequest.self)
        try channel.pipeline.syncOperations.addHandler(TestHTTPRequestReader(connection: number, connections: self, requests: continuation))
        let responder = TestHTTPResponder(handler: handler, channel: channel)
        let task = Task.onEventLoop(channel.eventLoop) { await responder.answer(requests) }
        state.withLockedValue { $0.open[number] = Open(channel: channel, task: task) }
        channel.closeFuture.whenComplete { _ in
            continuation.finish()
            task.cancel()
            self.state.withLockedValue { _ = $0.open.removeValue(forKey: number) }
        }
    }

    /// Records a request that has arrived whole, giving it its index.
    func record(_ head: HTTPRequestHead, body: [UInt8], connection: Int) -> TestHTTPRequest {
        state.withLockedValue { state in
            let request = TestHTTPRequest(
                index: state.received, connection: connection, method: head.method.rawValue, uri: head.uri,
                version: "HTTP/\(head.version.major).\(head.version.minor)",
                headers: TestHTTPHeaders(head.headers.map { ($0.name, $0.value) }),
                body: body, keepsAlive: head.isKeepAlive)
            state.received += 1
            if recording { state.requests.append(request) }
            return request
        }
    }

    /// Refuses new connections, closes the open ones and waits for their tasks.
    func closeAll() async {
        let open = state.withLockedValue { state in
            state.closing = true
            return Array(state.open.values)
        }
        for connection in open {
            connection.task.cancel()
            try? await connection.channel.close()
        }
        for connection in open { await connection.task.value }
    }

    /// Closes the open connections, and keeps accepting new ones.
    func closeOpen() async {
        let open = state.withLockedValue { Array($0.open.values) }
        for connection in open { try? await connection.channel.close() }
    }

    /// Refuses new connections and closes the open ones, without waiting: for a server dropped
    /// without `shutdown()`.
    func closeAllNow() {
        let open = state.withLockedValue { state in
            state.closing = true
            return Array(state.open.values)
        }
        for connection in open {
            connection.task.cancel()
            connection.channel.close(promise: nil)
        }
    }
}

/// Reads a connection's requests and queues each, once whole, for its responder.
final class TestHTTPRequestReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let connection: Int
    private let connections: TestHTTPConnections
    private let requests: AsyncStream<TestHTTPRequest>.Continuation
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(connection: Int, connections: TestHTTPConnections, requests: AsyncStream<TestHTTPRequest>.Continuation) {
        self.connection = connection
        self.connections = connections
        self.requests = requests
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            self.head = head
            body = []
        case let .body(buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return }
            self.head = nil
            requests.yield(connections.record(head, body: body, connection: connection))
            body = []
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client sent its last byte: what it asked is answered, then the connection closes.
        if let event = event as? ChannelEvent, event == .inputClosed { requests.finish() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the client, or a request NIO could not parse (answered 400 by NIO's
        // HTTPServerProtocolErrorHandler before this).
        context.close(promise: nil)
    }
}

extension Task where Success == Void, Failure == Never {
    /// A task whose nonisolated code, a handler's included, runs on `loop` rather than on the
    /// cooperative pool (where it runs before macOS 15, which lacks task executors).
    static func onEventLoop(_ loop: any EventLoop, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            return Task(executorPreference: EventLoopTaskExecutor.of(loop)) { await body() }
        }
        return Task { await body() }
    }
}

/// Runs jobs on one event loop. One per loop for the process, kept for its life (a task refers to
/// its executor without owning it).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class EventLoopTaskExecutor: TaskExecutor, Sendable {
    private let loop: any EventLoop
    private static let all = NIOLockedValueBox([ObjectIdentifier: EventLoopTaskExecutor]())

    private init(loop: any EventLoop) {
        self.loop = loop
    }

    static func of(_ loop: any EventLoop) -> EventLoopTaskExecutor {
        all.withLockedValue { all in
            if let executor = all[ObjectIdentifier(loop)] { return executor }
            let executor = EventLoopTaskExecutor(loop: loop)
            all[ObjectIdentifier(loop)] = executor
            return executor
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
