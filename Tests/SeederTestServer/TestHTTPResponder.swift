import NIOCore
import NIOHTTP1

/// Answers one connection's requests in the order they came: calls the handler, waits the
/// response's delay, writes it as its behaviour says, and closes the connection when the answer
/// or the client asks for it.
struct TestHTTPResponder: Sendable {
    let handler: TestHTTPServer.Handler
    let channel: any Channel

    func answer(_ requests: AsyncStream<TestHTTPRequest>) async {
        for await request in requests {
            let response: TestHTTPResponse
            do {
                response = try await handler(request)
            } catch {
                if Task.isCancelled { break }
                response = .text("the test server's handler threw: \(error)\n", status: 500)
            }
            do {
                if response.delay > .zero { try await Task.sleep(for: response.delay) }
                guard try await send(response, answering: request) else { return }
            } catch {
                break
            }
        }
        // The client closed its side, or the server is shutting down.
        try? await channel.close()
    }

    /// Writes `response`; whether the connection stays open for another request.
    private func send(_ response: TestHTTPResponse, answering request: TestHTTPRequest) async throws -> Bool {
        if response.behaviour == .closeWithoutAnswer {
            try? await channel.close()
            return false
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        let body = request.method != "HEAD" && status.mayHaveResponseBody ? response.body : []
        var headers = HTTPHeaders(response.headers.fields.map { ($0.name, $0.value) })
        let version: HTTPVersion = request.version == "HTTP/1.0" ? .http1_0 : .http1_1
        let closesAfter = !request.keepsAlive || headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
        switch response.behaviour {
        case .normal, .cut:
            if status.mayHaveResponseBody, !headers.contains(name: "content-length"), !headers.contains(name: "transfer-encoding") {
                headers.add(name: "Content-Length", value: String(response.body.count))
            }
        case .chunked:
            headers.remove(name: "content-length")
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        case .closeWithoutAnswer:
            break
        }
        if closesAfter, !headers.contains(name: "connection") {
            headers.add(name: "Connection", value: "close")
        } else if !closesAfter, version == .http1_0, !headers.contains(name: "connection") {
            headers.add(name: "Connection", value: "keep-alive")
        }
        let head = HTTPServerResponsePart.head(HTTPResponseHead(version: version, status: status, headers: headers))

        switch response.behaviour {
        case .normal, .closeWithoutAnswer:
            channel.write(head, promise: nil)
            if !body.isEmpty { channel.write(part(body[...]), promise: nil) }
            try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        case let .chunked(size, pause):
            try await channel.writeAndFlush(head)
            for start in stride(from: 0, to: body.count, by: size) {
                if start > 0, pause > .zero { try await Task.sleep(for: pause) }
                try await channel.writeAndFlush(part(body[start..<min(start + size, body.count)]))
            }
            try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        case let .cut(after):
            // The bytes are awaited onto the socket before the close, which would drop any still
            // queued in NIO.
            channel.write(head, promise: nil)
            try await channel.writeAndFlush(part(body.prefix(max(0, after))))
            try? await channel.close()
            return false
        }
        if closesAfter { try? await channel.close() }
        return !closesAfter
    }

    private func part(_ bytes: ArraySlice<UInt8>) -> HTTPServerResponsePart {
        .body(.byteBuffer(channel.allocator.buffer(bytes: bytes)))
    }
}
