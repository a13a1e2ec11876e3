/// A response as it goes on the wire in answer to one request: the head's bytes, with the
/// framing fields the server adds, and the body it may carry.
///
/// The server adds `Content-Length` (the body's length) unless the handler set `Content-Length`
/// or `Transfer-Encoding`, `Transfer-Encoding: chunked` for a chunked response, and
/// `Connection: close` when it is going to close the connection (`keep-alive` to an HTTP/1.0
/// client it keeps); nothing else. A response to `HEAD`, and one with status 1xx, 204 or 304,
/// goes without its body.
struct TestHTTPResponseWire {
    var head: [UInt8]
    var body: [UInt8]
    /// Whether the status and the method allow a body (even an empty one).
    var hasBody: Bool
    /// Whether the connection closes after this response.
    var closesAfter: Bool

    /// Nil for `closeWithoutAnswer`, which sends nothing.
    init?(_ response: TestHTTPResponse, answering request: TestHTTPRequest) {
        guard response.behaviour != .closeWithoutAnswer else { return nil }
        let status = response.status
        let statusHasBody = !(100..<200).contains(status) && status != 204 && status != 304
        hasBody = statusHasBody && request.method != "HEAD"
        body = hasBody ? response.body : []
        var headers = response.headers
        closesAfter = !request.keepsAlive || headers["Connection"].flatMap(TestHTTPRequestParser.tokens).contains("close")
        switch response.behaviour {
        case .normal, .cut, .closeWithoutAnswer:
            if statusHasBody, !headers.contains("Content-Length"), !headers.contains("Transfer-Encoding") {
                headers.add("Content-Length", String(response.body.count))
            }
        case .chunked:
            headers.remove("Content-Length")
            headers.set("Transfer-Encoding", "chunked")
        }
        let version = request.version == "HTTP/1.0" ? "HTTP/1.0" : "HTTP/1.1"
        if closesAfter, !headers.contains("Connection") {
            headers.add("Connection", "close")
        } else if !closesAfter, version == "HTTP/1.0", !headers.contains("Connection") {
            headers.add("Connection", "keep-alive")
        }
        var text = "\(version) \(status) \(Self.reasons[status] ?? "")\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        head = Array((text + "\r\n").utf8)
    }

    /// The reason phrases of RFC 9110 and RFC 6585 (429), for the statuses tests answer.
    static let reasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 426: "Upgrade Required", 428: "Precondition Required",
        429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
