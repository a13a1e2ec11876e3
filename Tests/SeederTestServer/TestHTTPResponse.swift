/// What a handler answers: a status, header fields, a body, and how the server delivers them,
/// which is where faults are injected.
///
/// ```swift
/// .json(#"[{"id":1}]"#, headers: ["ETag": "\"v1\""])
/// .status(304)
/// .status(503).delayed(by: .seconds(2))             // a slow failure
/// .json(page).chunked(size: 512, pause: .milliseconds(50))
/// .json(page).cut(after: 100)                       // Content-Length says more than comes
/// .closeWithoutAnswer                               // the connection closes, no status line
/// ```
///
/// The server adds `Content-Length` (the body's length) unless the handler set `Content-Length`
/// or `Transfer-Encoding`, and `Connection: close` when it is going to close the connection; it
/// adds nothing else: no `Content-Encoding`, no `Date`, no `Server`. A response to `HEAD`, and
/// one with status 1xx, 204 or 304, goes without its body.
public struct TestHTTPResponse: Sendable {
    /// How the server sends the response.
    public enum Behaviour: Sendable, Equatable {
        /// The head, then the whole body framed by `Content-Length`.
        case normal
        /// The body with `Transfer-Encoding: chunked`, in chunks of `size` bytes (the last may be
        /// shorter), each flushed on its own, `pause` between two; a long pause tests a read
        /// timeout in the middle of a body.
        case chunked(size: Int, pause: Duration)
        /// The head, with a `Content-Length` of the whole body, and only its first `after`
        /// bytes; then the connection closes.
        case cut(after: Int)
        /// The connection closes once the request is read: no status line at all.
        case closeWithoutAnswer
    }

    public var status: Int
    public var headers: TestHTTPHeaders
    public var body: [UInt8]
    /// How long the server waits after the handler returns, before it sends anything (or closes,
    /// for `closeWithoutAnswer`). `shutdown()` and `closeConnections()` end the wait, and so does
    /// a reset; a client that closes its socket does not, since its FIN reads as a half-close,
    /// which is still answered.
    public var delay: Duration
    public var behaviour: Behaviour

    public init(
        status: Int = 200, headers: TestHTTPHeaders = [:], body: [UInt8] = [], delay: Duration = .zero, behaviour: Behaviour = .normal
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.behaviour = behaviour
    }

    /// `text` as `application/json`. Headers given here come after `Content-Type`; give
    /// `Content-Type` to replace it.
    public static func json(_ text: String, status: Int = 200, headers: TestHTTPHeaders = [:]) -> Self {
        .bytes(Array(text.utf8), contentType: "application/json", status: status, headers: headers)
    }

    /// `text` as `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200, headers: TestHTTPHeaders = [:]) -> Self {
        .bytes(Array(text.utf8), contentType: "text/plain; charset=utf-8", status: status, headers: headers)
    }

    /// `body` as it is, for bytes a test made itself: a gzipped body, say, with
    /// `headers: ["Content-Encoding": "gzip"]`.
    public static func bytes(_ body: [UInt8], contentType: String, status: Int = 200, headers: TestHTTPHeaders = [:]) -> Self {
        var all: TestHTTPHeaders = ["Content-Type": contentType]
        for field in headers {
            if TestHTTPHeaders.same(field.name, "Content-Type") { all.remove("Content-Type") }
        }
        for field in headers { all.add(field.name, field.value) }
        return Self(status: status, headers: all, body: body)
    }

    /// A status and no body (`.status(304)`, `.status(503)`).
    public static func status(_ status: Int, headers: TestHTTPHeaders = [:]) -> Self {
        Self(status: status, headers: headers)
    }

    /// A redirect to `location` (a path or a URL), 302 unless told.
    public static func redirect(to location: String, status: Int = 302, headers: TestHTTPHeaders = [:]) -> Self {
        var all = headers
        all.set("Location", location)
        return Self(status: status, headers: all)
    }

    /// No answer: the connection closes once the request is read.
    public static var closeWithoutAnswer: Self { Self(status: 0, behaviour: .closeWithoutAnswer) }

    /// This response, sent `delay` later.
    public func delayed(by delay: Duration) -> Self {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// This response with a chunked body (`Behaviour.chunked`).
    public func chunked(size: Int, pause: Duration = .zero) -> Self {
        precondition(size > 0, "a chunk has at least one byte")
        var copy = self
        copy.behaviour = .chunked(size: size, pause: pause)
        return copy
    }

    /// This response cut after `bytes` bytes of its body (`Behaviour.cut`).
    public func cut(after bytes: Int) -> Self {
        var copy = self
        copy.behaviour = .cut(after: bytes)
        return copy
    }
}
