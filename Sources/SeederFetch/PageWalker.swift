import Foundation
import SeederCore

/// One source's paginator as it goes: which request comes next, and when to stop
/// (docs/mapping.md, Paginators).
struct PageWalker {
    let paginator: Paginator?
    let maxPages: Int
    private var seen: Set<String> = []
    /// The key path whose absence ended the source, when one did (`next`, a cursor's `value`):
    /// on the first page that may be a typo, which the fetch warns of.
    private(set) var endedOnMissing: KeyPath?
    /// Offset or page number of the page last asked for.
    private var position = 0

    init(paginator: Paginator?, maxPages: Int) {
        self.paginator = paginator
        self.maxPages = maxPages
        if case let .page(_, _, _, start, _) = paginator { position = start }
    }

    /// How a page's request differs from the source's own.
    enum Step: Equatable {
        /// Query parameters set (replacing any of the same name) and, for a cursor in the body,
        /// the cursor's JSON text.
        case request(query: [QueryValue], bodyCursor: String?)
        /// A URL the previous page gave (`link`, `next`), with values in it.
        case url(String)

        var url: String? {
            if case let .url(url) = self { return url }
            return nil
        }
    }

    struct QueryValue: Equatable {
        var name: String
        var value: String
    }

    /// The first page's request.
    func first() -> Step {
        switch paginator {
        case let .offset(param, limit, size, _)?:
            return .request(
                query: [QueryValue(name: param, value: "0")] + (limit.map { [QueryValue(name: $0, value: String(size))] } ?? []),
                bodyCursor: nil)
        case let .page(param, size, sizeParam, start, _)?:
            return .request(query: pageQuery(param: param, page: start, size: size, sizeParam: sizeParam), bodyCursor: nil)
        default:
            return .request(query: [], bodyCursor: nil)
        }
    }

    private func pageQuery(param: String, page: Int, size: Int?, sizeParam: String?) -> [QueryValue] {
        [QueryValue(name: param, value: String(page))] + (sizeParam.map { [QueryValue(name: $0, value: String(size!))] } ?? [])
    }

    /// What a page said about the pages after it.
    struct Answer {
        var body: PageBody
        /// The `Link` headers' values.
        var links: [String]
        /// The URL that answered, for relative links.
        var url: String
        /// How many pages were fetched so far, this one included.
        var pages: Int
        /// What the manifest recorded as this page's next, for a 304 of a `link` source, whose
        /// headers may not come again.
        var recordedNext: String?
    }

    /// The next page's request, or `nil` after the last page. `next` is what the manifest records.
    mutating func next(after answer: Answer, described: String, location: SourceLocation) throws(FetchFailure) -> (
        step: Step, record: String
    )? {
        let step: Step
        let record: String
        switch paginator {
        case nil:
            return nil
        case .link?:
            // A 304 may repeat the page's `Link` header; else the next the manifest recorded.
            let link = LinkHeader.target(rel: "next", in: answer.links) ?? answer.recordedNext
            guard let link, let url = Self.resolve(link, against: answer.url) else { return nil }
            step = .url(url)
            record = url
        case let .next(path)?:
            if case .absent = answer.body.value(at: path) { endedOnMissing = path }
            guard let text = try stringValue(answer.body, path, what: "'next'", described: described, location: location), !text.isEmpty,
                let url = Self.resolve(text, against: answer.url)
            else { return nil }
            step = .url(url)
            record = url
        case let .cursor(target, valuePath, morePath)?:
            if let morePath {
                switch answer.body.value(at: morePath) {
                case let .value(value) where value.kind == .false: return nil
                case let .value(value) where value.kind == .true: break
                case .absent, .null, .value, .failure:
                    throw FetchFailure.data(
                        .shape, "\(described): 'more' (\(morePath)) is not true or false in this page", at: location)
                }
            }
            guard case let .value(value) = answer.body.value(at: valuePath), let text = value.scalarText, !text.isEmpty else {
                // `more` said there are more pages: a cursor that reaches nothing is a mistake.
                if let morePath {
                    throw FetchFailure.data(
                        .pagination,
                        "\(described): 'more' (\(morePath)) is true, but 'value' (\(valuePath)) reaches no cursor in this page",
                        at: location)
                }
                if case .absent = answer.body.value(at: valuePath) { endedOnMissing = valuePath }
                return nil
            }
            switch target {
            case let .query(name): step = .request(query: [QueryValue(name: name, value: text)], bodyCursor: nil)
            case .body:
                let json = value.kind == .string ? JSONWriter.stringLiteral(text) : text
                step = .request(query: [], bodyCursor: json)
            }
            record = text
        case let .offset(param, limit, size, totalPath)?:
            let total = try totalPath.map { path throws(FetchFailure) in
                try integer(answer.body, path, what: "'total'", described: described, location: location)
            }
            position += size
            if let total {
                if position >= total { return nil }
            } else if answer.body.records < size {
                return nil
            }
            step = .request(
                query: [QueryValue(name: param, value: String(position))]
                    + (limit.map { [QueryValue(name: $0, value: String(size))] } ?? []), bodyCursor: nil)
            record = String(position)
        case let .page(param, size, sizeParam, start, pagesPath)?:
            let pages = try pagesPath.map { path throws(FetchFailure) in
                try integer(answer.body, path, what: "'pages'", described: described, location: location)
            }
            position += 1
            if let pages {
                if position - start >= pages { return nil }
            } else if let size {
                if answer.body.records < size { return nil }
            } else if answer.body.records == 0 {
                return nil
            }
            step = .request(query: pageQuery(param: param, page: position, size: size, sizeParam: sizeParam), bodyCursor: nil)
            record = String(position)
        }
        if case .url = step, !seen.insert(record).inserted || record == answer.url {
            throw FetchFailure.data(
                .pagination, "\(described) gives a next page it gave before (\(record)): the paginator would go round forever", at: location
            )
        }
        if case .cursor? = paginator, !seen.insert(record).inserted {
            throw FetchFailure.data(
                .pagination, "\(described) gives a cursor it gave before (\(record)): the paginator would go round forever", at: location)
        }
        guard answer.pages < maxPages else {
            throw FetchFailure.data(
                .pagination,
                "more than \(maxPages) pages ('maxPages'): \(described) has a next page; raise 'maxPages' if the source is that long",
                at: location)
        }
        return (step, record)
    }

    /// With the total known from the first page (`offset` with `total`, `page` with `pages`),
    /// every other page's request at once, for parallel fetching; `nil` when it is not known.
    func remaining(after body: PageBody, described: String, location: SourceLocation) throws(FetchFailure) -> [Step]? {
        switch paginator {
        case let .offset(param, limit, size, totalPath?)?:
            let total = try integer(body, totalPath, what: "'total'", described: described, location: location)
            let count = total <= size ? 0 : (total - 1) / size
            try check(pages: count + 1, described: described, location: location)
            return (0..<count).map { index in
                .request(
                    query: [QueryValue(name: param, value: String((index + 1) * size))]
                        + (limit.map { [QueryValue(name: $0, value: String(size))] } ?? []), bodyCursor: nil)
            }
        case let .page(param, size, sizeParam, start, pagesPath?)?:
            let pages = try integer(body, pagesPath, what: "'pages'", described: described, location: location)
            try check(pages: pages, described: described, location: location)
            return pages <= 1
                ? []
                : (1..<pages).map {
                    .request(query: pageQuery(param: param, page: start + $0, size: size, sizeParam: sizeParam), bodyCursor: nil)
                }
        default:
            return nil
        }
    }

    private func check(pages: Int, described: String, location: SourceLocation) throws(FetchFailure) {
        guard pages <= maxPages else {
            throw FetchFailure.data(
                .pagination,
                "\(described) says there are \(pages) pages, more than 'maxPages' (\(maxPages)); raise 'maxPages' if the source is that long",
                at: location)
        }
    }

    private func integer(_ body: PageBody, _ path: KeyPath, what: String, described: String, location: SourceLocation) throws(FetchFailure)
        -> Int
    {
        guard case let .value(value) = body.value(at: path), let text = value.numberText, let number = Int(text), number >= 0 else {
            throw FetchFailure.data(
                .shape, "\(described): \(what) (\(path)) is not a whole number in this page", at: location)
        }
        return number
    }

    private func stringValue(_ body: PageBody, _ path: KeyPath, what: String, described: String, location: SourceLocation)
        throws(FetchFailure) -> String?
    {
        switch body.value(at: path) {
        case .absent, .null: return nil
        case let .failure(message, _):
            throw FetchFailure.data(.shape, "\(described): \(what) (\(path)): \(message)", at: location)
        case let .value(value):
            guard let text = value.string else {
                throw FetchFailure.data(.shape, "\(described): \(what) (\(path)) is \(describeKind(value.kind)), not a URL", at: location)
            }
            return text
        }
    }

    /// `link` resolved against the page's URL (RFC 3986); `nil` when it is not a URL.
    static func resolve(_ link: String, against base: String) -> String? {
        guard let url = URL(string: link.trimmingCharacters(in: .whitespaces), relativeTo: URL(string: base))?.absoluteURL,
            url.scheme?.lowercased() == "http" || url.scheme?.lowercased() == "https"
        else { return nil }
        return url.absoluteString
    }
}
