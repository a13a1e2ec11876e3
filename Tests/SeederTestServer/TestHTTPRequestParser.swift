/// Cuts the bytes a connection receives into requests, as RFC 9112 frames them: a head (request
/// line and fields), then a body framed by `Transfer-Encoding: chunked` or `Content-Length`, or
/// none.
///
/// ```swift
/// var parser = TestHTTPRequestParser()
/// parser.append(bytes)
/// while let request = try parser.next() { ... }
/// ```
struct TestHTTPRequestParser {
    /// One request, whole.
    struct Request {
        var method: String
        var uri: String
        var version: String
        var headers: TestHTTPHeaders
        var body: [UInt8]
        /// Whether the client asked to keep the connection after the answer (HTTP/1.1 unless
        /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
        var keepsAlive: Bool
    }

    /// Bytes that are not a request; the server answers 400 and closes the connection.
    struct Malformed: Error {}

    /// A head this long without its blank line is not a request.
    static let headLimit = 64 * 1024

    private var buffer: [UInt8] = []
    /// Where the next request starts in `buffer`.
    private var start = 0

    mutating func append(_ bytes: [UInt8]) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer += bytes
    }

    /// The next request, once all of it has arrived.
    mutating func next() throws(Malformed) -> Request? {
        guard let headEnd = find([13, 10, 13, 10], from: start) else {
            if buffer.count - start > Self.headLimit { throw Malformed() }
            return nil
        }
        let head = String(decoding: buffer[start..<headEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, !requestLine[1].isEmpty,
            requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0"
        else { throw Malformed() }
        var headers = TestHTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else { throw Malformed() }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces)
        }
        let bodyStart = headEnd + 4
        let body: [UInt8]
        let end: Int
        if headers["Transfer-Encoding"].contains(where: { Self.tokens($0).contains("chunked") }) {
            guard let (decoded, chunkedEnd) = try chunks(from: bodyStart) else { return nil }
            (body, end) = (decoded, chunkedEnd)
        } else if let length = headers.first("Content-Length") {
            guard let count = Int(length), count >= 0 else { throw Malformed() }
            guard buffer.count - bodyStart >= count else { return nil }
            (body, end) = (Array(buffer[bodyStart..<bodyStart + count]), bodyStart + count)
        } else {
            (body, end) = ([], bodyStart)
        }
        start = end
        let version = String(requestLine[2])
        let connection = headers["Connection"].flatMap(Self.tokens)
        return Request(
            method: String(requestLine[0]), uri: String(requestLine[1]), version: version, headers: headers, body: body,
            keepsAlive: version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive"))
    }

    /// A chunked body from `offset`: its bytes and where it ends (after the trailers' blank line),
    /// or nil while it has not all arrived.
    private func chunks(from offset: Int) throws(Malformed) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var position = offset
        while true {
            guard let lineEnd = find([13, 10], from: position) else { return nil }
            let line = String(decoding: buffer[position..<lineEnd], as: UTF8.self)
            guard let size = Int(line.prefix { $0 != ";" }.trimmingSpaces, radix: 16), size >= 0 else { throw Malformed() }
            position = lineEnd + 2
            if size == 0 {
                // Trailers, ignored, up to the blank line.
                while let end = find([13, 10], from: position) {
                    if end == position { return (body, end + 2) }
                    position = end + 2
                }
                return nil
            }
            guard buffer.count - position >= size + 2 else { return nil }
            body += buffer[position..<position + size]
            position += size + 2
        }
    }

    /// Where `marker` next occurs in `buffer`, from `offset`.
    private func find(_ marker: [UInt8], from offset: Int) -> Int? {
        guard buffer.count - offset >= marker.count else { return nil }
        for index in offset...(buffer.count - marker.count)
        where buffer[index] == marker[0] && buffer[index..<index + marker.count].elementsEqual(marker) {
            return index
        }
        return nil
    }

    /// The comma-separated tokens of a field value, lowercased.
    static func tokens(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
