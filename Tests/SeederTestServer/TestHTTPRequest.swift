/// A request as the server received it: whole, body included, before the handler saw it.
public struct TestHTTPRequest: Sendable {
    /// Its place among every request the server received, from 0: a handler that answers the
    /// first two with 503 tests `index < 2`.
    public var index: Int
    /// Which connection it came on, from 0 in the order they were accepted: two requests with
    /// the same number came over one kept-alive connection.
    public var connection: Int
    /// `GET`, `HEAD`, `POST`, ...
    public var method: String
    /// The request target as sent: path and query, still percent-encoded (`/v1/users?page=2`).
    public var uri: String
    /// `HTTP/1.1`, `HTTP/1.0`.
    public var version: String
    public var headers: TestHTTPHeaders
    public var body: [UInt8]

    /// A request as a handler would receive it: for testing a handler without a server.
    public init(
        _ method: String = "GET", _ uri: String, headers: TestHTTPHeaders = [:], body: [UInt8] = [], version: String = "HTTP/1.1",
        index: Int = 0, connection: Int = 0
    ) {
        self.init(
            index: index, connection: connection, method: method, uri: uri, version: version, headers: headers, body: body,
            keepsAlive: version != "HTTP/1.0" && !headers["Connection"].contains { $0.lowercased() == "close" })
    }

    init(
        index: Int, connection: Int, method: String, uri: String, version: String, headers: TestHTTPHeaders, body: [UInt8],
        keepsAlive: Bool
    ) {
        self.index = index
        self.connection = connection
        self.method = method
        self.uri = uri
        self.version = version
        self.headers = headers
        self.body = body
        self.keepsAlive = keepsAlive
    }

    /// The path of `uri`, still percent-encoded (`/v1/users`).
    public var path: String {
        String(uri.prefix { $0 != "?" && $0 != "#" })
    }

    /// The query's items in order, names and values percent-decoded (`+` is a space): a name may
    /// come more than once.
    public var queryItems: [(name: String, value: String)] {
        guard let start = uri.firstIndex(of: "?") else { return [] }
        let query = uri[uri.index(after: start)...].prefix { $0 != "#" }
        return query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// The query, decoded; a name given more than once keeps its first value (`queryItems` has
    /// them all).
    public var query: [String: String] {
        Dictionary(queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value of the first header field named `name`, ignoring case.
    public func header(_ name: String) -> String? { headers.first(name) }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Whether the client asked to keep the connection after the answer (HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    var keepsAlive: Bool

    /// `%XX` and `+` decoded; a `%` not followed by two hex digits is kept as it is.
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2, let high = hexValue(input[input.startIndex]),
                let low = hexValue(input[input.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
