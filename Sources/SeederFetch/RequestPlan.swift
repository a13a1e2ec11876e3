import Foundation
import SeederCore

/// A source's request before a page or a parent fills it in: the URL resolved against `base`,
/// the defaults' headers and query with the source's over them (docs/mapping.md, Fetching the
/// dumps).
struct RequestPlan: Sendable {
    let spec: FetchSpec
    let defaults: FetchDefaults
    let variables: FetchVariables
    let headers: [FetchParameter]
    let query: [FetchParameter]

    init(spec: FetchSpec, defaults: FetchDefaults, variables: FetchVariables) {
        self.spec = spec
        self.defaults = defaults
        self.variables = variables
        headers = Self.merge(defaults.headers, spec.headers, caseInsensitive: true)
        query = Self.merge(defaults.query, spec.query, caseInsensitive: false)
    }

    /// `over`'s parameters replace `base`'s of the same name, in place; new ones go last.
    static func merge(_ base: [FetchParameter], _ over: [FetchParameter], caseInsensitive: Bool) -> [FetchParameter] {
        var result = base
        for parameter in over {
            let same = { (other: FetchParameter) in
                caseInsensitive ? other.name.lowercased() == parameter.name.lowercased() : other.name == parameter.name
            }
            if let index = result.firstIndex(where: same) { result[index] = parameter } else { result.append(parameter) }
        }
        return result
    }

    /// The request for a page. A parent's value that would act as syntax (a line break in a
    /// header, `.` or `..` as a path segment) is a failure at `location`.
    func request(_ step: PageWalker.Step, parent: ParentRecord?, location: SourceLocation) throws(FetchFailure) -> FetchRequest {
        try check(parent, location: location)
        var credentials: [String] = []
        var headerValues: [(name: String, value: String)] = []
        var secretHeaders: Set<String> = []
        for header in headers {
            headerValues.append((header.name, variables.expand(header.value, parent: parent)))
            if !header.value.variables.isEmpty {
                credentials.append("header \(header.name): \(variables.render(header.value, parent: parent))")
                secretHeaders.insert(header.name.lowercased())
            }
        }
        for parameter in query where !parameter.value.variables.isEmpty {
            credentials.append("query \(parameter.name)=\(variables.render(parameter.value, parent: parent))")
        }
        let urlVariables = spec.url.variables + (defaults.base?.variables ?? [])
        if !urlVariables.isEmpty { credentials.append("the URL's " + urlVariables.map { "${\($0)}" }.joined(separator: ", ")) }
        let url: String
        let shown: String
        var body = spec.body.map { Self.json($0, variables: variables, parent: parent) }
        let base = defaults.base.map { variables.expand($0) }
        // The credentials' origin: the URL the mapping wrote, whatever URL this page is at. A
        // detail URL is the record's, not the mapping's: its credentials are `base`'s, and go
        // nowhere without one (docs/mapping.md, A detail URL from the record).
        let detail = parent?.detail
        let resolved = detail?.url ?? Self.resolve(expandURL(spec.url, parent: parent, shown: false), against: base)
        let origin = detail == nil ? Origin(resolved) : base.flatMap(Origin.init)
        // A query parameter that carries a `${NAME}` is a credential too: never added for
        // another origin.
        let elsewhere = detail.map { Origin($0.url) == origin } == false
        let sentQuery = elsewhere ? query.filter { $0.value.variables.isEmpty } : query
        // What a 401 names to check: nothing, where none was sent.
        if elsewhere { credentials = [] }
        switch step {
        case let .url(next):
            url = next
            shown = variables.redact(next)
        case let .request(overrides, bodyCursor):
            // Sent: every value percent-encoded. Shown: the same, but `${NAME}` as written.
            var values: [(name: String, sent: String, shown: String)] = sentQuery.map {
                (
                    $0.name, Self.encode(variables.expand($0.value, parent: parent)),
                    variables.render($0.value, parent: parent, encode: Self.encode)
                )
            }
            for override in overrides {
                let value = (override.name, Self.encode(override.value), Self.encode(override.value))
                if let index = values.firstIndex(where: { $0.name == override.name }) {
                    values[index] = value
                } else {
                    values.append(value)
                }
            }
            let shownBase = defaults.base.map { variables.render($0) }
            url = Self.join(resolved, values.map { ($0.name, $0.sent) })
            // `${NAME}` is no URL: resolve with the values, then put the shown base back in front.
            var shownResolved =
                detail.map { variables.redact($0.url) }
                ?? Self.resolve(expandURL(spec.url, parent: parent, shown: true), against: shownBase)
            if detail == nil, let base, let shownBase, shownBase.contains("${"), resolved.hasPrefix(base) {
                shownResolved = shownBase + variables.redact(String(resolved.dropFirst(base.count)))
            }
            shown = Self.join(shownResolved, values.map { ($0.name, $0.shown) })
            if let bodyCursor, case let .cursor(.body(keys), _, _)? = spec.paginate, let current = body {
                body = Self.setting(keys, to: bodyCursor, in: current)
            }
        }
        return FetchRequest(
            method: spec.method, url: url, shownURL: shown, headers: headerValues, body: body.map { Array($0.utf8) },
            credentials: credentials,
            scope: CredentialScope(origin: origin, headers: secretHeaders, holdsSecret: variables.holdsSecret))
    }

    /// A parent's values are data: one with CR, LF or NUL never reaches a header, and `.` or
    /// `..` never acts as a path segment (docs/guides/fetching.md, What fetch guarantees).
    private func check(_ parent: ParentRecord?, location: SourceLocation) throws(FetchFailure) {
        guard let parent else { return }
        let inHeaders = Set(headers.flatMap { $0.value.parentFields.map(\.description) })
        let inURL = Set(spec.url.parentFields.map(\.description))
        for (field, value) in parent.fields.sorted(by: { $0.key < $1.key }) {
            let record = "the record at \(parent.pointer.isEmpty ? "the root" : parent.pointer) of \(parent.file)"
            if inHeaders.contains(field), value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
                throw FetchFailure.data(
                    .shape, "\(record) gives '{\(field)}' a value with a line break or NUL, which fetch never puts in a header",
                    at: location, jsonPath: parent.pointer)
            }
            if inURL.contains(field), value == "." || value == ".." {
                throw FetchFailure.data(
                    .shape, "\(record) gives '{\(field)}' the value '\(value)', which would climb the URL's path; fetch never sends it",
                    at: location, jsonPath: parent.pointer)
            }
        }
    }

    /// The URL template with values (or `${NAME}`s), a parent's values percent-encoded as path
    /// segments.
    private func expandURL(_ template: FetchTemplate, parent: ParentRecord?, shown: Bool) -> String {
        var encoded = parent
        encoded?.fields = parent?.fields.mapValues(Self.encode) ?? [:]
        return shown ? variables.render(template, parent: encoded) : variables.expand(template, parent: encoded)
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `url` resolved against `base` (RFC 3986): `characters` against `https://host/v1/` is
    /// `https://host/v1/characters`.
    static func resolve(_ url: String, against base: String?) -> String {
        guard let base, !url.lowercased().hasPrefix("http://"), !url.lowercased().hasPrefix("https://") else { return url }
        guard let resolved = URL(string: url, relativeTo: URL(string: base))?.absoluteString else { return base + url }
        return resolved
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `url` with the query parameters added; their values are encoded already.
    static func join(_ url: String, _ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return url }
        let encoded = parameters.map { name, value in encode(name) + "=" + value }
        return url + (url.contains("?") ? "&" : "?") + encoded.joined(separator: "&")
    }

    /// The body as JSON text.
    static func json(_ body: FetchBody, variables: FetchVariables, parent: ParentRecord?) -> String {
        switch body {
        case let .object(members):
            return "{"
                + members.map { JSONWriter.stringLiteral($0.key) + ":" + json($0.value, variables: variables, parent: parent) }.joined(
                    separator: ",") + "}"
        case let .array(items):
            return "[" + items.map { json($0, variables: variables, parent: parent) }.joined(separator: ",") + "]"
        case let .string(template):
            return JSONWriter.stringLiteral(variables.expand(template, parent: parent))
        case let .literal(text):
            return text
        }
    }

    /// `body` (JSON text) with the value at `keys` set to `value` (JSON text), objects made on
    /// the way as needed.
    static func setting(_ keys: [String], to value: String, in body: String) -> String {
        guard let document = try? JSONDocument(parsing: body) else { return body }
        return set(keys[...], value, in: document.root)
    }

    private static func set(_ keys: ArraySlice<String>, _ value: String, in node: JSONValue?) -> String {
        guard let key = keys.first else { return value }
        var members: [(String, String)] = []
        var found = false
        if let node, node.kind == .object {
            for member in node.members {
                let name = member.key.string ?? ""
                if name == key {
                    members.append((name, set(keys.dropFirst(), value, in: member.value)))
                    found = true
                } else {
                    members.append((name, member.value.rawText))
                }
            }
        }
        if !found { members.append((key, set(keys.dropFirst(), value, in: nil))) }
        return "{" + members.map { JSONWriter.stringLiteral($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}

extension JSONValue {
    /// The value's JSON text as written.
    var rawText: String {
        if kind == .string { return withBytes { "\"" + String(decoding: $0, as: UTF8.self) + "\"" } }
        return withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
