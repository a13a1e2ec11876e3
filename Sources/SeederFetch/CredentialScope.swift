import Foundation

/// A URL's origin as browsers and curl compare them: scheme, host and port, the port made
/// explicit (`https://api.example.com` and `https://API.example.com:443/x` are one origin).
struct Origin: Equatable, Sendable, CustomStringConvertible {
    var scheme: String
    var host: String
    var port: Int

    /// `nil` for a text that is not an http or https URL with a host.
    init?(_ url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    var description: String { "\(scheme)://\(host):\(port)" }
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
    /// another origin with a secret in it.
    func refusal(of url: String, from previous: String?) -> String? {
        guard let target = Origin(url) else { return "\(url) is not an http or https URL fetch can request" }
        if target.scheme == "http", origin?.scheme == "https" || previous.flatMap(Origin.init)?.scheme == "https" {
            return "\(url) leads from https to http, which fetch never follows"
        }
        if let origin, target != origin, holdsSecret(url) {
            // The URL itself is not shown: it holds the secret.
            return "a URL of another origin (\(target)) than the mapping's (\(origin)) holds a secret; fetch never sends one there"
        }
        return nil
    }

    /// `headers` as they may be sent to `url`: all of them on the mapping's origin, none of the
    /// credentials elsewhere.
    func headers(_ headers: [(name: String, value: String)], for url: String) -> [(name: String, value: String)] {
        guard let origin, Origin(url) == origin else {
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
