import Foundation
import SeederCore

/// One HTTP request as sent, and as every message and the manifest show it (secrets as
/// `${NAME}`).
public struct FetchRequest: Sendable {
    public var method: FetchMethod
    /// The URL with every value in it.
    public var url: String
    /// The URL with `${NAME}`s where values are.
    public var shownURL: String
    public var headers: [(name: String, value: String)]
    /// A POST's JSON body.
    public var body: [UInt8]?
    /// Where the request carries `${NAME}` values ("header Authorization: ${API_TOKEN}"), for a
    /// 401 or 403 to name.
    public var credentials: [String]
    /// Which headers are credentials, and the origin they may go to.
    public var scope: CredentialScope = .none
    /// Where a large body is written as it arrives, instead of memory (`HTTPAnswer.bodyFile`).
    public var bodyFile: String?

    /// The value of the header `name` (case-insensitive), if the request sends one.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What the server answered: the last answer of a redirect chain.
public struct HTTPAnswer: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The body with its `Content-Encoding` undone; empty when it is in `bodyFile`.
    public var body: [UInt8]
    /// The file that holds the body when it was too large to keep in memory (the request's
    /// `bodyFile`).
    public var bodyFile: String?
    /// The URL that answered (after redirects), with values in it.
    public var url: String

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The body's first `count` bytes, from memory or its file.
    public func bodyPrefix(_ count: Int) -> [UInt8] {
        guard let bodyFile else { return Array(body.prefix(count)) }
        return (try? FileByteSource(path: bodyFile)).map { Self.prefix(count, of: $0) } ?? []
    }

    /// The first `count` bytes `source` holds (fewer when it holds fewer), read until there are
    /// that many: a source may hand out fewer a read than asked for. A read that fails ends it.
    static func prefix(_ count: Int, of source: ByteSource) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count, let read = try? bytes[filled...].withUnsafeMutableBytes({ try source.read(into: $0) }), read > 0 {
            filled += read
        }
        return Array(bytes.prefix(filled))
    }

    /// The first value of the header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of the header `name`, in order.
    public func headers(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}

/// A request that got no answer to use.
public enum TransportFailure: Error, Sendable, Equatable {
    /// Nothing was sent: the host could not be found or refused the connection. Safe to retry
    /// whatever the method.
    case notConnected(String)
    /// The connection broke or closed after the request went out.
    case broken(String)
    /// The request took longer than `timeout`.
    case timedOut(seconds: Double)
    /// The body is larger than fetch keeps (1 GiB).
    case tooLarge(limit: Int)
    /// A redirect fetch does not follow (https to http, more than 5, no `Location`).
    case redirect(String)
    /// The URL cannot be requested.
    case badURL(String)
    /// What fetch never sends: a URL from https to http, a secret to another origin, a header
    /// with a line break (docs/guides/fetching.md, What fetch guarantees).
    case refused(String)

    /// Whether trying again may help.
    var isRetryable: Bool {
        switch self {
        case .notConnected, .broken, .timedOut: return true
        case .tooLarge, .redirect, .badURL, .refused: return false
        }
    }

    var description: String {
        switch self {
        case let .notConnected(reason): return "could not connect (\(reason))"
        case let .broken(reason): return "the connection broke (\(reason))"
        case let .timedOut(seconds): return "no complete answer within \(Self.seconds(seconds))"
        case let .tooLarge(limit):
            return limit >= 1 << 30 ? "the body is larger than \(limit >> 30) GiB" : "the body is larger than \(limit) bytes"
        case let .redirect(reason): return reason
        case let .badURL(reason): return reason
        case let .refused(reason): return reason
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Sends requests. The one in use is `CurlTransport`; tests may give their own.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with `extraHeaders` (the conditional ones), following redirects.
    func send(_ request: FetchRequest, extraHeaders: [(name: String, value: String)], timeout: Double) async throws(TransportFailure)
        -> HTTPAnswer
    /// Closes the connections.
    func shutdown() async
}
