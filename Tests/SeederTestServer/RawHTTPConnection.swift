import Foundation
import SeederTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP connection that speaks HTTP/1.1 by hand, blocking: for tests that must see what went
/// over the wire (chunk sizes, a body cut short, a connection closed or kept) rather than what a
/// client library makes of it.
///
/// ```swift
/// let connection = try RawHTTPConnection(port: server.port)
/// let first = try await connection.request("GET", "/items?page=1")
/// let second = try await connection.request("GET", "/items?page=2")   // the same connection, kept alive
/// ```
///
/// What waits for the server (reading) runs on a thread of its own, not on the cooperative pool:
/// tests that wait side by side, each up to its timeout, must not queue for the pool's few
/// threads, nor hold up the tests of other suites. Use a connection from one task at a time.
public final class RawHTTPConnection: @unchecked Sendable {
    private let socket: Int32
    private let port: Int
    private let timeout: Duration
    /// Bytes read but not yet taken by a response.
    private var buffered: [UInt8] = []
    private var sawEnd = false

    /// Connects to `port` on 127.0.0.1; every read gives up after `timeout`.
    public init(port: Int, timeout: Duration = .seconds(10)) throws {
        self.port = port
        socket = try TestSocket.connected(port: port)
        self.timeout = timeout
        setReadTimeout(timeout)
    }

    deinit { close(socket) }

    /// Sends `bytes` as they are.
    public func send(_ bytes: [UInt8]) throws {
        try TestSocket.sendAll(socket, bytes)
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request (`Host` first, then `headers`, then `Content-Length` when there is a body)
    /// and reads its response.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) async throws -> RawHTTPResponse {
        try sendRequest(method, target, headers: headers, body: body)
        return try await readResponse(method: method)
    }

    /// Sends a request without reading anything: to pipeline several, or to half-close after it.
    public func sendRequest(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
    }

    /// Shuts down the sending side (a half-close): the server sees the end of the input.
    public func shutdownSending() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Reads one response, framed as RFC 9112 says: no body for `HEAD`, 1xx, 204 and 304; else by
    /// `Transfer-Encoding: chunked`, `Content-Length`, or the end of the connection.
    public func readResponse(method: String = "GET") async throws -> RawHTTPResponse {
        try await offThePool { try self.readResponseNow(method: method) }
    }

    private func readResponseNow(method: String) throws -> RawHTTPResponse {
        guard let headEnd = try readUntil([13, 10, 13, 10]) else {
            throw RawHTTPError.closedBeforeResponse(received: take(buffered.count))
        }
        let head = String(decoding: take(headEnd + 4).dropLast(4), as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError.malformed(head) }
        var response = RawHTTPResponse(
            version: String(statusLine[0]), status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "")
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPError.malformed(head) }
            response.headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        if method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 {
            response.isComplete = true
        } else if response.headers["Transfer-Encoding"].contains(where: { $0.lowercased().contains("chunked") }) {
            try readChunks(into: &response)
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            while buffered.count < length, try fill() {}
            response.body = take(min(length, buffered.count))
            response.isComplete = response.body.count == length
        } else {
            while try fill() {}
            response.body = take(buffered.count)
            response.isComplete = true
        }
        return response
    }

    /// Reads until the server closes the connection (true), or until bytes arrive or `timeout`
    /// (the connection's, unless given) passes (false): whether the server closed it with
    /// nothing more to say.
    public func serverCloses(within timeout: Duration? = nil) async throws -> Bool {
        try await offThePool {
            guard self.buffered.isEmpty else { return false }
            if let timeout { self.setReadTimeout(timeout) }
            defer { if timeout != nil { self.setReadTimeout(self.timeout) } }
            do {
                return try !self.fill()
            } catch RawHTTPError.timedOut {
                return false
            }
        }
    }

    private func setReadTimeout(_ timeout: Duration) {
        var limit = timeval(tv_sec: .init(timeout.components.seconds), tv_usec: .init(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    private func readChunks(into response: inout RawHTTPResponse) throws {
        response.chunkSizes = []
        while true {
            guard let lineEnd = try readUntil([13, 10]) else { return }
            let line = String(decoding: take(lineEnd + 2).dropLast(2), as: UTF8.self)
            guard let size = Int(line.prefix { $0 != ";" }, radix: 16) else { throw RawHTTPError.malformed("chunk size \(line)") }
            if size == 0 {
                // Trailers, if any, then the blank line.
                while let end = try readUntil([13, 10]) {
                    if take(end + 2).count == 2 {
                        response.isComplete = true
                        return
                    }
                }
                return
            }
            while buffered.count < size + 2, try fill() {}
            guard buffered.count >= size + 2 else {
                response.body += take(min(size, buffered.count))
                return
            }
            response.chunkSizes?.append(size)
            response.body += take(size)
            _ = take(2)
        }
    }

    /// The offset of `marker` in the bytes read, reading more until it comes; nil at the end.
    private func readUntil(_ marker: [UInt8]) throws -> Int? {
        var from = 0
        while true {
            if buffered.count >= marker.count {
                for offset in from...(buffered.count - marker.count) where buffered[offset..<offset + marker.count].elementsEqual(marker) {
                    return offset
                }
                from = buffered.count - marker.count + 1
            }
            guard try fill() else { return nil }
        }
    }

    /// Reads what has arrived into `buffered`; false at the end of the connection.
    private func fill() throws -> Bool {
        guard !sawEnd else { return false }
        do {
            let bytes = try TestSocket.receive(socket)
            buffered += bytes
            sawEnd = bytes.isEmpty
        } catch RawHTTPError.system(_, ECONNRESET) {
            sawEnd = true
        }
        return !sawEnd
    }

    private func take(_ count: Int) -> [UInt8] {
        defer { buffered.removeFirst(count) }
        return Array(buffered.prefix(count))
    }
}

/// A response as `RawHTTPConnection` read it off the wire.
public struct RawHTTPResponse: Sendable {
    /// `HTTP/1.1`.
    public var version: String
    public var status: Int
    public var reason: String
    public var headers: TestHTTPHeaders = [:]
    /// The body, without its chunk framing.
    public var body: [UInt8] = []
    /// The size of each chunk, when the body was chunked.
    public var chunkSizes: [Int]?
    /// Whether the body ended where its framing said: false when the connection closed first.
    public var isComplete = false

    public func header(_ name: String) -> String? { headers.first(name) }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why `RawHTTPConnection` got no response.
public enum RawHTTPError: Error, Equatable {
    /// The connection ended before a whole head (status line and fields) came; what did come.
    case closedBeforeResponse(received: [UInt8])
    /// Nothing came for the connection's timeout.
    case timedOut
    case malformed(String)
    case system(String, Int32)
}
