import Foundation

/// A URL's origin as browsers and curl compare them: scheme, host and port, the port made
/// explicit (`https://api.example.com` and `https://API.example.com:443/x` are one origin).
struct Origin: Equatable, Sendable, CustomStringConvertible {
    var scheme: String
    var host: String
    var port: Int
    /// Whether the URL names a user (`user:password@`), which libcurl sends as `Authorization`.
    var hasUserinfo = false

    /// `nil` for a text that is not an http or https URL with a host. Strict (RFC 3986's
    /// characters only in the authority, no empty host, a port of digits): a URL read one way
    /// here and another by libcurl could send a credential where this check did not look.
    init?(_ url: String) {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: Array("://".utf8)) else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let start = colon + 3
        let end =
            bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        var authority = bytes[start..<end]
        let allowed = Self.authorityBytes
        guard authority.allSatisfy({ allowed.contains($0) }) else { return nil }
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[(at + 1)...]
            hasUserinfo = true
        }
        var host = authority
        var port: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[...close]
            let rest = authority[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<portColon]
            port = authority[(portColon + 1)...]
        }
        guard !host.isEmpty, !host.contains(UInt8(ascii: ":")) || host.first == UInt8(ascii: "[") else { return nil }
        self.scheme = scheme
        self.host = String(decoding: host, as: UTF8.self).lowercased()
        if port.isEmpty {
            self.port = scheme == "https" ? 443 : 80
        } else {
            guard port.count <= 5, port.allSatisfy({ (48...57).contains($0) }), let number = Int(String(decoding: port, as: UTF8.self)),
                number <= 65535
            else { return nil }
            self.port = number
        }
    }

    /// What RFC 3986 allows in an authority: unreserved, percent signs, sub-delims, `:`, `@`,
    /// and the brackets of an IPv6 address.
    private static let authorityBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%!$&'()*+,;=:@[]".utf8)

    var description: String { "\(scheme)://\(host):\(port)" }

    /// Origins are equal by scheme, host and port; a user named in the URL is no part of one.
    static func == (a: Origin, b: Origin) -> Bool { a.scheme == b.scheme && a.host == b.host && a.port == b.port }
}

/// Where a request's credentials may go (docs/guides/fetching.md, What fetch guarantees): the
/// headers that carry a `${NAME}` value, and `Authorization`, `Cookie` and
/// `Proxy-Authorization` whatever their value, go only to the origin of the URL the mapping
/// wrote for them. Any other URL (a redirect's, a `Link` or body next page's, one recorded in the
/// manifest) is requested without them; one that would carry a secret there, or go from https to
/// http, is refused.
public struct CredentialScope: Sendable {
    /// The origin of the mapping's URL (`base`, or the source's own absolute `url`).
    let origin: Origin?
    /// Lowercased names of the headers that are credentials.
    let headers: Set<String>
    /// Whether a text holds a secret in any form (`FetchVariables.holdsSecret`): a URL of
    /// another origin that does is refused.
    let holdsSecret: @Sendable (String) -> Bool

    /// Names that are credentials whatever their value.
    static let alwaysCredentials: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    init(origin: Origin?, headers: Set<String>, holdsSecret: @escaping @Sendable (String) -> Bool) {
        self.origin = origin
        self.headers = headers.union(Self.alwaysCredentials)
        self.holdsSecret = holdsSecret
    }

    /// No origin: a request built by hand sends no credential anywhere.
    public static let none = CredentialScope(origin: nil, headers: [], holdsSecret: { _ in false })

    /// Why `url` is not requested at all, if it is not: it is not http or https, goes from https
    /// to http (from the mapping's origin, or from the URL it was reached from), or leads to
    /// another origin with a secret or a user in it.
    func refusal(of url: String, from previous: String?) -> String? {
        switch admit(url, from: previous) {
        case .success: return nil
        case let .failure(refused): return refused.description
        }
    }

    /// The origin of `url` when fetch may request it; else why not (`refusal(of:from:)`).
    func admit(_ url: String, from previous: String?) -> Result<Origin, TransportFailure> {
        guard let target = Origin(url) else { return .failure(.refused("\(url) is not an http or https URL fetch can request")) }
        return refusal(of: url, at: target, from: previous).map { .failure(.refused($0)) } ?? .success(target)
    }

    private func refusal(of url: String, at target: Origin, from previous: String?) -> String? {
        if target.scheme == "http", origin?.scheme == "https" || previous.flatMap(Origin.init)?.scheme == "https" {
            return "\(url) leads from https to http, which fetch never follows"
        }
        if let origin, target != origin, target.hasUserinfo {
            return "a URL of another origin (\(target)) than the mapping's (\(origin)) names a user, which would be sent as a credential"
        }
        if let origin, target != origin, holdsSecret(url) {
            // The URL itself is not shown: it holds the secret.
            return "a URL of another origin (\(target)) than the mapping's (\(origin)) holds a secret; fetch never sends one there"
        }
        return nil
    }

    /// `headers` as they may be sent to a URL of `target`: all of them on the mapping's origin,
    /// none of the credentials elsewhere.
    func headers(_ headers: [(name: String, value: String)], for target: Origin) -> [(name: String, value: String)] {
        guard let origin, target == origin else {
            return headers.filter { !self.headers.contains($0.name.lowercased()) }
        }
        return headers
    }

    /// Whether `url` is of the mapping's origin.
    func isSameOrigin(_ url: String) -> Bool {
        guard let origin else { return false }
        return Origin(url) == origin
    }
}
