/// A URL a parent record gives with `url: "{K}"` (docs/mapping.md, A detail URL from the record):
/// resolved against `base` by RFC 3986 (section 5.2), its dot segments removed, then used as it
/// is, never encoded again. Its file's `*` is the path's last non-empty segment.
struct DetailURL: Equatable, Sendable {
    /// The URL to request: scheme, authority, path and query; a fragment is never sent.
    var url: String
    /// The path's last non-empty segment, percent-decoded, made a safe file name as `each`'s
    /// values are.
    var fileName: String

    /// Why a record's value is no URL fetch requests.
    enum Problem: Error, Equatable {
        /// A space, a control character or DEL: a URL that could be read as two, or as a header.
        case controlCharacter
        /// A relative reference, and no `base` to resolve it against.
        case relativeWithoutBase
        /// A scheme other than http and https (`ftp:`, `file:`, `javascript:`).
        case scheme(String)
        /// No host, or an authority fetch cannot read as one origin.
        case noHost
        /// A user name or password before the host (`https://user:pass@host/`): a credential
        /// that comes from data, which fetch never sends.
        case userInfo
        /// A path with no non-empty segment (`https://host/`): nothing to name the file.
        case noSegment
    }

    /// `value` resolved against `base` (the expanded `fetch:` `base`, if any).
    init(_ value: String, base: String?) throws(Problem) {
        guard !value.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw .controlCharacter }
        let reference = Parts(value)
        var target: Parts
        if reference.scheme != nil {
            target = reference
            target.path = Self.removingDotSegments(reference.path)
        } else {
            guard let base else { throw .relativeWithoutBase }
            target = Self.resolve(reference, against: Parts(base))
        }
        guard let scheme = target.scheme, scheme == "http" || scheme == "https" else {
            throw .scheme(target.scheme ?? "")
        }
        guard let authority = target.authority, !authority.isEmpty else { throw .noHost }
        guard !authority.contains("@") else { throw .userInfo }
        // A host of RFC 3986's unreserved characters (or an IP literal) and a port: what every
        // client reads as one origin (`%3a` in a host is one that curl refuses, another reads).
        guard authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~:[]".contains($0)) }) else { throw .noHost }
        let path = target.path.isEmpty ? "/" : target.path
        url = scheme + "://" + authority + path + (target.query.map { "?" + $0 } ?? "")
        guard Origin(url) != nil else { throw .noHost }
        guard let last = path.split(separator: "/").last else { throw .noSegment }
        fileName = FetchRun.folderName(Self.percentDecoded(String(last)))
    }

    /// A URI reference split as RFC 3986 (appendix B) splits it; the fragment is dropped.
    struct Parts {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?

        init(scheme: String?, authority: String?, path: String, query: String?) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.query = query
        }

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
            if let mark = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: mark)...])
                rest = rest[..<mark]
            }
            if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isASCII, first.isLetter,
                rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            {
                scheme = rest[..<colon].lowercased()
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex { $0 == "/" } ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }
    }

    /// RFC 3986, 5.2.2 (strict): the target of `reference` against `base`.
    static func resolve(_ reference: Parts, against base: Parts) -> Parts {
        if reference.authority != nil {
            return Parts(
                scheme: base.scheme, authority: reference.authority, path: removingDotSegments(reference.path), query: reference.query)
        }
        if reference.path.isEmpty {
            return Parts(scheme: base.scheme, authority: base.authority, path: base.path, query: reference.query ?? base.query)
        }
        let path: String
        if reference.path.hasPrefix("/") {
            path = reference.path
        } else if base.authority != nil, base.path.isEmpty {
            path = "/" + reference.path
        } else {
            path =
                String(base.path[..<(base.path.lastIndex(of: "/").map { base.path.index(after: $0) } ?? base.path.startIndex)])
                + reference.path
        }
        return Parts(scheme: base.scheme, authority: base.authority, path: removingDotSegments(path), query: reference.query)
    }

    /// RFC 3986, 5.2.4, after `%2E` is read as the `.` it stands for (6.2.2.2): a service that
    /// decodes it would climb the path where this check did not.
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path.replacingOccurrences(of: "%2E", with: ".").replacingOccurrences(of: "%2e", with: "."))
        var output = ""
        func dropLastSegment() {
            output = String(output[..<(output.lastIndex(of: "/") ?? output.startIndex)])
        }
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = "/" + input.dropFirst(3)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = "/" + input.dropFirst(4)
                dropLastSegment()
            } else if input == "/.." {
                input = "/"
                dropLastSegment()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// `%XX` sequences decoded when they make UTF-8; the text as it is otherwise.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var noOrigins: [Int]? = nil
        let bytes = Array(text.utf8).withUnsafeBufferPointer { SecretForms.percentDecoded($0, origins: &noOrigins) }
        return String(validating: bytes, as: UTF8.self) ?? text
    }
}
