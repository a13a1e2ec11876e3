#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few socket calls the server and `RawHTTPConnection` make, the same on Linux and macOS:
/// IPv4 stream sockets on the loopback network (127.0.0.1, or 127.0.0.2 for a second host), blocking.
enum TestSocket {
    /// A new TCP socket.
    static func make() throws -> Int32 {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RawHTTPError.system("socket", errno) }
        return socket
    }

    /// 127.0.0.`host`:`port`, as the socket calls take it.
    static func withLoopback<T>(port: Int, host: UInt8 = 1, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0000 | UInt32(host)).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// A socket connected to 127.0.0.1:`port`.
    static func connected(port: Int) throws -> Int32 {
        let socket = try make()
        let connected = withLoopback(port: port) { connect(socket, $0, $1) }
        guard connected == 0 else {
            let error = errno
            close(socket)
            throw RawHTTPError.system("connect to 127.0.0.1:\(port)", error)
        }
        return socket
    }

    /// A socket listening on 127.0.0.`host`:`port` (0: one the system picks), and the port.
    static func listening(port: Int, host: UInt8 = 1, backlog: Int32) throws -> (socket: Int32, port: Int) {
        let socket = try make()
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withLoopback(port: port, host: host) { bind(socket, $0, $1) }
        guard bound == 0, listen(socket, backlog) == 0 else {
            let error = errno
            close(socket)
            throw RawHTTPError.system("listen on 127.0.0.\(host):\(port)", error)
        }
        return (socket, Self.port(of: socket))
    }

    /// The port `socket` is bound to.
    static func port(of socket: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Writes all of `bytes`; throws when the connection is gone.
    static func sendAll(_ socket: Int32, _ bytes: some Collection<UInt8>) throws {
        try Array(bytes).withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                #if canImport(Glibc)
                    let count = Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                #else
                    let count = Darwin.send(socket, buffer.baseAddress! + sent, buffer.count - sent, 0)
                #endif
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw RawHTTPError.system("send", errno) }
                sent += count
            }
        }
    }

    /// Reads what has arrived, up to 64 KiB: empty at the end of the input; throws on a reset or
    /// another failure (a read timeout throws `RawHTTPError.timedOut`).
    static func receive(_ socket: Int32) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(chunk[..<count]) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: throw RawHTTPError.timedOut
            case let error: throw RawHTTPError.system("recv", error)
            }
        }
    }

    /// Ends both directions: a thread blocked reading or writing the socket returns.
    static func shutdownBoth(_ socket: Int32) {
        #if canImport(Glibc)
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
        #else
            _ = Darwin.shutdown(socket, SHUT_RDWR)
        #endif
    }

    /// Closes the descriptor.
    static func close(_ socket: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(socket)
        #else
            _ = Darwin.close(socket)
        #endif
    }
}
