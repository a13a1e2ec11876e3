/// How `seeder fetch` gets a source's files from the web service (docs/mapping.md, Fetching
/// the dumps). `build` and `validate` never read it.
public struct FetchSpec: Sendable {
    /// The URL: absolute, or relative to the defaults' `base`.
    public var url: FetchTemplate
    /// `GET`, or `POST` with a JSON `body`.
    public var method: FetchMethod
    /// Headers merged over the defaults' (a name given here replaces the default's).
    public var headers: [FetchParameter]
    /// Query parameters merged over the defaults'.
    public var query: [FetchParameter]
    /// The JSON body of a `POST`.
    public var body: FetchBody?
    /// How the next page is found; `nil` for a source fetched with one request.
    public var paginate: Paginator?
    /// One fetch per record of another source.
    public var each: FetchEach?
    /// What a child of `each` that answers 404 or 410 is: an error, or skipped.
    public var missing: MissingChild = .error
    /// Per-source limits, over the defaults'.
    public var retries: Int?
    public var timeout: Double?
    public var maxPages: Int?
    /// Where the `fetch:` block is.
    public var location: SourceLocation

    public init(
        url: FetchTemplate, method: FetchMethod = .get, headers: [FetchParameter] = [], query: [FetchParameter] = [],
        body: FetchBody? = nil,
        paginate: Paginator? = nil, each: FetchEach? = nil, retries: Int? = nil, timeout: Double? = nil, maxPages: Int? = nil,
        location: SourceLocation
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.query = query
        self.body = body
        self.paginate = paginate
        self.each = each
        self.retries = retries
        self.timeout = timeout
        self.maxPages = maxPages
        self.location = location
    }
}

/// The `fetch:` block at the top of a mapping: what every source's fetch starts from.
public struct FetchDefaults: Sendable {
    /// What a relative `url` resolves against.
    public var base: FetchTemplate?
    public var headers: [FetchParameter] = []
    public var query: [FetchParameter] = []
    /// Requests in flight at once, over all sources.
    public var concurrency = 4
    /// At most this many requests a second; `nil` for no limit.
    public var rate: Double?
    /// Attempts after the first, per request.
    public var retries = 5
    /// Seconds a request may take, its body included.
    public var timeout: Double = 30
    /// The most pages a source may have.
    public var maxPages = 10000

    public init() {}
}

public enum FetchMethod: String, Sendable, CaseIterable {
    case get = "GET"
    case post = "POST"
}

/// A header or query parameter.
public struct FetchParameter: Sendable {
    public var name: String
    public var value: FetchTemplate

    public init(name: String, value: FetchTemplate) {
        self.name = name
        self.value = value
    }
}

/// A `POST` body as YAML wrote it; its strings may hold `${NAME}` and `{K}`.
public indirect enum FetchBody: Sendable {
    case object([(key: String, value: FetchBody)])
    case array([FetchBody])
    case string(FetchTemplate)
    /// A number, boolean or null, as JSON text.
    case literal(String)
}

/// `each:`: the parent source whose records each get a fetch of their own.
public struct FetchEach: Sendable {
    /// The parent's index in `Mapping.sources`.
    public var source: Int
    public var location: SourceLocation
}

/// `missing:`: what fetch does with a child of `each` whose first request answers 404 or 410
/// (docs/mapping.md, One fetch per record of another source).
public enum MissingChild: String, Sendable, CaseIterable {
    /// The fetch fails, as for any other 4xx.
    case error
    /// No file, counted as missing in the summary, named in a note.
    case skip
}

/// The five ways a paged source finds its next page (docs/mapping.md, Paginators).
public enum Paginator: Sendable {
    /// The `Link` header's `rel="next"` URL.
    case link
    /// The next page's URL at a key path of the body.
    case next(KeyPath)
    /// A query parameter (or a key of the body) set to the value at `value` of the previous body.
    case cursor(target: CursorTarget, value: KeyPath, more: KeyPath?)
    /// Offset 0, size, 2 size, ...
    case offset(param: String, limit: String?, size: Int, total: KeyPath?)
    /// Page start, start + 1, ...
    case page(param: String, size: Int?, sizeParam: String?, start: Int, pages: KeyPath?)

    /// The form's name, as the mapping writes it.
    public var name: String {
        switch self {
        case .link: return "link"
        case .next: return "next"
        case .cursor: return "cursor"
        case .offset: return "offset"
        case .page: return "page"
        }
    }

    /// Where a cursor goes.
    public enum CursorTarget: Sendable {
        case query(String)
        case body([String])
    }
}

/// A text of a `fetch:` block: literal text, `${NAME}` (an environment variable), `${md5:...}`,
/// and in a source with `each`, `{K}` (the key path K of the parent record).
public struct FetchTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Part: Sendable, Hashable {
        case text(String)
        case variable(String)
        case md5([Part])
        case parentField(KeyPath)
    }

    public var parts: [Part]
    /// Where the text is written in the mapping.
    public var location: SourceLocation

    public init(parts: [Part], location: SourceLocation) {
        self.parts = parts
        self.location = location
    }

    /// A plain text, with nothing to expand.
    public init(text: String, location: SourceLocation) {
        self.init(parts: text.isEmpty ? [] : [.text(text)], location: location)
    }

    /// The environment variables the text reads, in order of first use.
    public var variables: [String] {
        var names: [String] = []
        func walk(_ parts: [Part]) {
            for part in parts {
                switch part {
                case let .variable(name) where !names.contains(name): names.append(name)
                case let .md5(inner): walk(inner)
                default: break
                }
            }
        }
        walk(parts)
        return names
    }

    /// K, when the text is exactly one `{K}` and nothing else: with `each`, K's value is the
    /// whole URL to fetch, a detail URL (docs/mapping.md, A detail URL from the record).
    public var soleParentField: KeyPath? {
        guard parts.count == 1, case let .parentField(path) = parts[0] else { return nil }
        return path
    }

    /// The parent's key paths the text reads.
    public var parentFields: [KeyPath] {
        func walk(_ parts: [Part]) -> [KeyPath] {
            parts.flatMap { part -> [KeyPath] in
                switch part {
                case let .parentField(path): return [path]
                case let .md5(inner): return walk(inner)
                default: return []
                }
            }
        }
        return walk(parts)
    }

    /// The text as the mapping wrote it: what messages and the manifest show, never a value.
    public var description: String { Self.render(parts) }

    static func render(_ parts: [Part]) -> String {
        parts.map { part -> String in
            switch part {
            case let .text(text): return text.replacingOccurrences(of: "${", with: "$${")
            case let .variable(name): return "${\(name)}"
            case let .md5(inner): return "${md5:\(render(inner))}"
            case let .parentField(path): return "{\(path)}"
            }
        }.joined()
    }

    /// Parses `text`; `parentFields` says whether `{K}` is read (a source with `each`).
    /// `$${` is a literal `${`, `{{` a literal `{` where `{K}` is read.
    public static func parse(_ text: String, parentFields: Bool, location: SourceLocation) throws(FetchTemplateError) -> FetchTemplate {
        var scalars = Substring(text).unicodeScalars[...]
        let parts = try parseParts(&scalars, parentFields: parentFields, closing: false)
        return FetchTemplate(parts: parts, location: location)
    }

    private static func parseParts(
        _ input: inout Substring.UnicodeScalarView.SubSequence, parentFields: Bool, closing: Bool
    ) throws(FetchTemplateError) -> [Part] {
        var parts: [Part] = []
        var literal = String.UnicodeScalarView()
        func flush() {
            if !literal.isEmpty { parts.append(.text(String(literal))) }
            literal = String.UnicodeScalarView()
        }
        while let scalar = input.first {
            if closing, scalar == "}" {
                input.removeFirst()
                flush()
                return parts
            }
            if scalar == "$", input.dropFirst().starts(with: "${".unicodeScalars) {
                input.removeFirst(3)
                literal.append(contentsOf: "${".unicodeScalars)
                continue
            }
            if scalar == "$", input.dropFirst().first == "{" {
                input.removeFirst(2)
                flush()
                if input.starts(with: "md5:".unicodeScalars) {
                    input.removeFirst(4)
                    parts.append(.md5(try parseParts(&input, parentFields: parentFields, closing: true)))
                    continue
                }
                var name = ""
                while let next = input.first, next != "}" {
                    name.unicodeScalars.append(next)
                    input.removeFirst()
                }
                guard input.first == "}" else { throw FetchTemplateError(message: "'${\(name)' has no closing '}'") }
                input.removeFirst()
                guard Naming.isIdentifier(name) else {
                    throw FetchTemplateError(
                        message: "'${\(name)}' is not an environment variable's name (a letter or '_', then letters, digits or '_')")
                }
                parts.append(.variable(name))
                continue
            }
            if parentFields, scalar == "{" {
                if input.dropFirst().first == "{" {
                    input.removeFirst(2)
                    literal.append("{")
                    continue
                }
                // `{K}` only where K is a key path right up to a `}`: a GraphQL query's
                // `{ viewer { login } }` stays text.
                var path = ""
                var rest = input.dropFirst()
                while let next = rest.first,
                    next.properties.isAlphabetic || ("0"..."9").contains(next) || "_.@".unicodeScalars.contains(next)
                {
                    path.unicodeScalars.append(next)
                    rest.removeFirst()
                }
                if !path.isEmpty, rest.first == "}" {
                    let keyPath: KeyPath
                    do { keyPath = try KeyPath(parsing: path) } catch { throw FetchTemplateError(message: error.message) }
                    input = rest.dropFirst()
                    flush()
                    parts.append(.parentField(keyPath))
                    continue
                }
            }
            literal.append(scalar)
            input.removeFirst()
        }
        if closing { throw FetchTemplateError(message: "'${md5:' has no closing '}'") }
        flush()
        return parts
    }
}

/// A `fetch:` text that cannot be parsed.
public struct FetchTemplateError: Error, Sendable {
    public var message: String
}
