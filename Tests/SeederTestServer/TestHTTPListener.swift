import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listening socket and the thread that accepts its connections, until `stop()`.
final class TestHTTPListener: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    /// A byte written here wakes the accepting thread to stop.
    private let wake: (read: Int32, write: Int32)
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false

    /// Listens on 127.0.0.`host`:`port` (0: a free port the system picks) and hands each
    /// accepted socket to `connections`.
    init(port: Int, host: UInt8 = 1, connections: TestHTTPConnections) throws {
        (socket, self.port) = try TestSocket.listening(port: port, host: host, backlog: 256)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let error = errno
            close(socket)
            throw RawHTTPError.system("pipe", error)
        }
        wake = (pipeEnds[0], pipeEnds[1])
        Thread { self.acceptUntilStopped(connections) }.start()
    }

    /// Stops accepting and closes the listening socket; returns once it is closed, so the port
    /// refuses connections. Calling it again does nothing.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        if !stopping {
            stopping = true
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
        while !stopped { condition.wait() }
    }

    private func acceptUntilStopped(_ connections: TestHTTPConnections) {
        var ready = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            ready[0].revents = 0
            ready[1].revents = 0
            guard poll(&ready, 2, -1) >= 0 || errno == EINTR else { break }
            if ready[1].revents != 0 { break }
            guard ready[0].revents != 0 else { continue }
            let accepted = accept(socket, nil, nil)
            guard accepted >= 0 else {
                // Out of descriptors: a pause, rather than a loop that spins until one is freed.
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                continue
            }
            var on: Int32 = 1
            setsockopt(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            connections.accept(accepted)
        }
        close(socket)
        close(wake.read)
        close(wake.write)
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
}
