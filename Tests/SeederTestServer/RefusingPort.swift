#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on 127.0.0.1 that refuses connections and stays so while the value lives: a socket
/// bound to it that never listens. A server started and stopped to free a port does not do: a
/// test running beside it may be given the same port a moment later, and answer.
public final class RefusingPort: Sendable {
    public let port: Int
    private let socket: Int32

    public init() throws {
        let socket = try TestSocket.make()
        let bound = TestSocket.withLoopback(port: 0) { bind(socket, $0, $1) }
        guard bound == 0 else {
            let error = errno
            close(socket)
            throw RawHTTPError.system("bind 127.0.0.1:0", error)
        }
        self.socket = socket
        port = TestSocket.port(of: socket)
    }

    /// `http://127.0.0.1:PORT/` and `pathAndQuery`.
    public func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)/" + pathAndQuery }

    deinit { close(socket) }
}
