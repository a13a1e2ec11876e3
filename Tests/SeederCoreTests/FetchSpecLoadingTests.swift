import Testing

@testable import SeederCore

/// The `fetch:` blocks (docs/mapping.md, Fetching the dumps): what the loader reads, and every
/// mistake at its node.
struct FetchSpecLoadingTests {
    static func mapping(fetch: String = "", sources: String) -> String {
        """
        seeder: 1
        \(fetch)
        entities:
          Character:
            attributes:
              id: integer
          Comic:
            attributes:
              id: integer
        sources:
        \(sources)
        """
    }

    @Test func readsDefaultsAndEveryPaginator() throws {
        let yaml = Self.mapping(
            fetch: """
                fetch:
                  base: https://api.example.com/v1/
                  headers: { Authorization: "Bearer ${API_TOKEN}" }
                  query: { locale: en, count: 3 }
                  concurrency: 2
                  rate: 2.5
                  retries: 1
                  timeout: 7
                  maxPages: 20
                """,
            sources: """
                  - path: characters/*.json
                    entity: Character
                    keyPath: data.results
                    fetch: { url: characters, paginate: { offset: offset, limit: limit, size: 100, total: data.total } }
                  - path: comics/*/*.json
                    entity: Comic
                    fetch:
                      url: "characters/{id}/comics"
                      each: characters/*.json
                      paginate: link
                  - path: a/*.json
                    entity: Comic
                    fetch: { url: a, paginate: { next: links.next } }
                  - path: b/*.json
                    entity: Comic
                    fetch: { url: b, paginate: { cursor: starting_after, value: data.@last.id, more: has_more } }
                  - path: c/*.json
                    entity: Comic
                    fetch: { url: c, retries: 0, paginate: { page: page, size: 50, sizeParam: per_page, start: 0, pages: meta.pages } }
                  - path: d.json
                    entity: Comic
                    fetch: { url: d, method: POST, body: { query: "{ viewer { login } }", first: 10, after: null } }
                """)
        let (loaded, messages) = loadMapping(yaml)
        #expect(messages == [])
        let mapping = try #require(loaded)
        #expect(mapping.fetch.base?.description == "https://api.example.com/v1/")
        #expect(mapping.fetch.headers.map(\.name) == ["Authorization"])
        #expect(mapping.fetch.headers.first?.value.variables == ["API_TOKEN"])
        #expect(mapping.fetch.query.map(\.value.description) == ["en", "3"])
        #expect(mapping.fetch.concurrency == 2 && mapping.fetch.rate == 2.5 && mapping.fetch.retries == 1)
        #expect(mapping.fetch.timeout == 7 && mapping.fetch.maxPages == 20)
        let sources = try #require(mapping.sources)
        guard case let .offset(param, limit, size, total)? = sources[0].fetch?.paginate else {
            Issue.record("offset")
            return
        }
        #expect(param == "offset" && limit == "limit" && size == 100 && total?.description == "data.total")
        #expect(sources[1].fetch?.each?.source == 0)
        #expect(sources[1].fetch?.url.parentFields.map(\.description) == ["id"])
        guard case .link? = sources[1].fetch?.paginate, case let .next(next)? = sources[2].fetch?.paginate,
            case let .cursor(.query(cursor), value, more)? = sources[3].fetch?.paginate,
            case let .page(page, pageSize, sizeParam, start, pages)? = sources[4].fetch?.paginate
        else {
            Issue.record("paginators")
            return
        }
        #expect(next.description == "links.next")
        #expect(cursor == "starting_after" && value.description == "data.@last.id" && more?.description == "has_more")
        #expect(page == "page" && pageSize == 50 && sizeParam == "per_page" && start == 0 && pages?.description == "meta.pages")
        #expect(sources[4].fetch?.retries == 0)
        #expect(sources[5].fetch?.method == .post)
        guard case let .object(members)? = sources[5].fetch?.body else {
            Issue.record("body")
            return
        }
        #expect(members.map(\.key) == ["query", "first", "after"])
        if case let .string(query) = members[0].value { #expect(query.description == "{ viewer { login } }") }
        if case let .literal(first) = members[1].value { #expect(first == "10") }
        if case let .literal(after) = members[2].value { #expect(after == "null") }
    }

    @Test func templates() throws {
        let location = SourceLocation(file: "m.yaml", line: 1, column: 1)
        let template = try FetchTemplate.parse(
            "a${md5:1${PRIV}${PUB}}/{owner.login}/$${x}{{y}/{ z }", parentFields: true, location: location)
        #expect(template.variables == ["PRIV", "PUB"])
        #expect(template.parentFields.map(\.description) == ["owner.login"])
        #expect(template.description == "a${md5:1${PRIV}${PUB}}/{owner.login}/$${x}{y}/{ z }")
        let plain = try FetchTemplate.parse("{id}", parentFields: false, location: location)
        #expect(plain.parentFields.isEmpty && plain.description == "{id}")
        #expect(throws: FetchTemplateError.self) { try FetchTemplate.parse("${TOKEN", parentFields: false, location: location) }
        #expect(throws: FetchTemplateError.self) { try FetchTemplate.parse("${md5:abc", parentFields: false, location: location) }
        #expect(throws: FetchTemplateError.self) { try FetchTemplate.parse("${A-B}", parentFields: false, location: location) }
    }

    @Test(arguments: [
        (
            "fetch: { bse: https://x/ }", "  - { path: c.json, entity: Comic, fetch: { url: c } }",
            "mapping.yaml:2:10: error: unknown key 'bse' in 'fetch'; did you mean 'base'?"
        ),
        (
            "", "  - { path: c.json, entity: Comic, fetch: { url: c, paginat: link } }",
            "mapping.yaml:11:53: error: unknown key 'paginat' in a source's 'fetch'; did you mean 'paginate'?"
        ),
        (
            "", "  - { path: c.json, entity: Comic, fetch: { query: { a: 1 } } }",
            "mapping.yaml:11:43: error: a source's 'fetch' needs 'url' (absolute, or relative to the 'fetch' defaults' 'base')"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c, paginate: lnk } }",
            "mapping.yaml:11:65: error: unknown paginator 'lnk' (did you mean 'link'?); 'paginate' is 'link' or a mapping with one of 'next', 'cursor', 'offset' or 'page'"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c, paginate: { offset: o, next: n, size: 2 } } }",
            "mapping.yaml:11:65: error: 'paginate' takes one form, found 'next' or 'offset'"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c, paginate: { offset: o } } }",
            "mapping.yaml:11:65: error: 'offset' needs 'size' (the records a page holds, sent as 'limit')"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c, paginate: { page: p, total: t } } }",
            "mapping.yaml:11:76: error: 'total' does not go with 'page' in 'paginate' (it takes 'page', 'size', 'sizeParam', 'start' or 'pages')"
        ),
        (
            "", "  - { path: c.json, entity: Comic, fetch: { url: c, paginate: link } }",
            "mapping.yaml:11:43: error: source path 'c.json' has 0 '*' but this fetch needs one '*', the page number ('users/*.json')"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c } }",
            "mapping.yaml:11:45: error: source path 'c/*.json' has 1 '*' but this fetch needs no '*': one request, one file ('users.json'); page with 'paginate'"
        ),
        (
            "", "  - { path: c.json, entity: Comic, fetch: { url: 'characters/{id}/comics' } }",
            "mapping.yaml:11:50: error: '{id}' takes a value from each record of a parent source: add 'each: PARENT_PATH', or write '{{' for a '{'"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: 'c/{id}', each: chars/*.json } }",
            "mapping.yaml:11:68: error: 'each' names no source's path: 'chars/*.json'"
        ),
        (
            "", "  - { path: c.json, entity: Comic, fetch: { url: 'x', body: { a: 1 } } }",
            "mapping.yaml:11:55: error: 'body' is sent only with 'method: POST'"
        ),
        (
            "", "  - { path: c.json, entity: Comic, fetch: { url: '${TOKEN' } }",
            "mapping.yaml:11:50: error: in 'url': '${TOKEN' has no closing '}'"
        ),
        (
            "fetch: { concurrency: 0 }", "  - { path: c.json, entity: Comic, fetch: { url: c } }",
            "mapping.yaml:2:23: error: 'concurrency' must be from 1 to 64, found 0"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c, paginate: { cursor: a, value: data.@sum.id } } }",
            "mapping.yaml:11:85: error: 'value' may use '@first' or '@last', not '@sum'"
        ),
        (
            "", "  - { path: c/*.json, entity: Comic, fetch: { url: c, paginate: { next: 'links.@where(rel = next).@first.href' } } }",
            "mapping.yaml:11:73: error: 'next' may use '@first' or '@last', not '@where(rel = next)'"
        ),
    ])
    func mistakes(fetch: String, sources: String, expected: String) {
        let (mapping, messages) = loadMapping(Self.mapping(fetch: fetch, sources: sources))
        #expect(mapping == nil)
        #expect(messages == [expected])
    }

    /// `each` may not go round: a source that is its own ancestor has no first source to fetch.
    @Test func eachCycle() {
        let (_, messages) = loadMapping(
            Self.mapping(
                sources: """
                      - { path: a/*.json, entity: Comic, fetch: { url: 'a/{id}', each: b/*.json } }
                      - { path: b/*.json, entity: Comic, fetch: { url: 'b/{id}', each: a/*.json } }
                    """))
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { $0.contains("'each' goes round in a circle back to") })
    }

    /// `build` needs no variable: a mapping whose `fetch:` reads unset ones loads.
    @Test func variablesAreNotReadByTheLoader() {
        let (mapping, messages) = loadMapping(
            Self.mapping(
                fetch: "fetch: { headers: { Authorization: \"Bearer ${SEEDER_TEST_SURELY_UNSET}\" } }",
                sources: "  - { path: c.json, entity: Comic, fetch: { url: https://x/c } }"))
        #expect(mapping != nil && messages.isEmpty)
    }
}
