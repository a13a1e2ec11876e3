/// The `fetch:` blocks (docs/mapping.md, Fetching the dumps): the document's defaults and each
/// source's request, checked at their nodes like every other key. No variable is read here:
/// `build` needs none.
extension LoadContext {
    func fetchDefaults(_ node: YAMLNode) -> FetchDefaults {
        var defaults = FetchDefaults()
        guard let fields = fields(of: node, allowed: MappingLoader.Keys.fetchDefaults, in: "'fetch'") else { return defaults }
        if let base = fields["base"] { defaults.base = template(base.value, key: "base", parentFields: false) }
        defaults.headers = fields["headers"].map { parameters($0.value, key: "headers", parentFields: false) } ?? []
        defaults.query = fields["query"].map { parameters($0.value, key: "query", parentFields: false) } ?? []
        if let node = fields["concurrency"], let value = count(node.value, key: "concurrency", in: 1...64) { defaults.concurrency = value }
        if let node = fields["rate"], let value = positiveNumber(node.value, key: "rate") { defaults.rate = value }
        if let node = fields["retries"], let value = count(node.value, key: "retries", in: 0...100) { defaults.retries = value }
        if let node = fields["timeout"], let value = positiveNumber(node.value, key: "timeout") { defaults.timeout = value }
        if let node = fields["maxPages"], let value = count(node.value, key: "maxPages", in: 1...10_000_000) { defaults.maxPages = value }
        return defaults
    }

    /// A source's `fetch:`, with `each` left as the parent's path for `resolveEach` to find.
    func fetchSpec(_ node: YAMLNode, path: String) -> (spec: FetchSpec, each: (path: String, node: YAMLNode)?)? {
        guard let fields = fields(of: node, allowed: MappingLoader.Keys.fetchSource, in: "a source's 'fetch'") else { return nil }
        let errorsBefore = diagnostics.errorCount
        let eachNode = fields["each"]
        let each = eachNode.flatMap { string($0.value, key: "each") }.map { (path: $0, node: eachNode!.value) }
        let hasEach = eachNode != nil
        guard let urlNode = fields["url"] else {
            error(.mappingInvalid, "a source's 'fetch' needs 'url' (absolute, or relative to the 'fetch' defaults' 'base')", at: node)
            return nil
        }
        let url = template(urlNode.value, key: "url", parentFields: true)
        let method = fields["method"].flatMap { choice($0.value, key: "method", FetchMethod.self, all: FetchMethod.allCases) } ?? .get
        let headers = fields["headers"].map { parameters($0.value, key: "headers", parentFields: true) } ?? []
        let query = fields["query"].map { parameters($0.value, key: "query", parentFields: true) } ?? []
        var body: FetchBody?
        if let bodyNode = fields["body"] {
            if method != .post {
                error(.mappingInvalid, "'body' is sent only with 'method: POST'", at: bodyNode.key)
            }
            body = self.body(bodyNode.value, parentFields: hasEach)
        }
        let paginate = fields["paginate"].flatMap { paginator($0.value, method: method) }
        if case .cursor(.body, _, _)? = paginate, body == nil {
            error(
                .mappingInvalid, "a cursor sent in the body ('cursor: { body: ... }') needs a 'body' to set it in",
                at: fields["paginate"]!.value)
        }
        if !hasEach {
            for template in [url].compactMap({ $0 }) + headers.map(\.value) + query.map(\.value) {
                if let field = template.parentFields.first {
                    error(
                        .mappingInvalid,
                        "'{\(field)}' takes a value from each record of a parent source: add 'each: PARENT_PATH', or write '{{' for a '{'",
                        at: YAMLNodeLocation(template.location))
                }
            }
        }
        checkStars(path: path, paginated: fields["paginate"] != nil, each: hasEach, at: node)
        let retries = fields["retries"].flatMap { count($0.value, key: "retries", in: 0...100) }
        let timeout = fields["timeout"].flatMap { positiveNumber($0.value, key: "timeout") }
        let maxPages = fields["maxPages"].flatMap { count($0.value, key: "maxPages", in: 1...10_000_000) }
        var missing = MissingChild.error
        if let missingNode = fields["missing"] {
            missing = choice(missingNode.value, key: "missing", MissingChild.self, all: MissingChild.allCases) ?? .error
            if !hasEach, missing == .skip {
                error(
                    .mappingInvalid, "'missing: skip' skips a child of 'each' that is gone; this source has no 'each'",
                    at: missingNode.key)
            }
        }
        guard diagnostics.errorCount == errorsBefore, let url else { return nil }
        var spec = FetchSpec(
            url: url, method: method, headers: headers, query: query, body: body, paginate: paginate, each: nil, retries: retries,
            timeout: timeout, maxPages: maxPages, location: node.location)
        spec.missing = missing
        return (spec, each)
    }

    /// A fetched source's `*`s are what fetch fills: the parent's value first (with `each`), then
    /// the page number (with `paginate`).
    private func checkStars(path: String, paginated: Bool, each: Bool, at node: YAMLNode) {
        let stars = path.count(where: { $0 == "*" })
        let wanted = (each ? 1 : 0) + (paginated ? 1 : 0)
        if path.contains(where: { "?[".contains($0) }) || path.contains("**") {
            error(.mappingInvalid, "a fetched source's path may hold only '*' (fetch names its files), not '?', '[' or '**'", at: node)
            return
        }
        guard stars != wanted else { return }
        let what: String
        switch (each, paginated) {
        case (true, true): what = "two '*': the parent's value, then the page number ('comics/*/*.json')"
        case (true, false): what = "one '*', the parent's value ('details/*.json')"
        case (false, true): what = "one '*', the page number ('users/*.json')"
        case (false, false): what = "no '*': one request, one file ('users.json'); page with 'paginate'"
        }
        error(.mappingInvalid, "source path '\(path)' has \(stars) '*' but this fetch needs \(what)", at: node)
    }

    func template(_ node: YAMLNode, key: String, parentFields: Bool) -> FetchTemplate? {
        guard let text = node.scalar, node.resolvedTag != .null else {
            error(.mappingInvalid, "'\(key)' must be a string, found \(node.kindDescription)", at: node)
            return nil
        }
        do {
            return try FetchTemplate.parse(text, parentFields: parentFields, location: node.location)
        } catch {
            self.error(.mappingInvalid, "in '\(key)': \(error.message)", at: node)
            return nil
        }
    }

    /// `headers:` or `query:`: names to texts (numbers and booleans as YAML writes them).
    private func parameters(_ node: YAMLNode, key: String, parentFields: Bool) -> [FetchParameter] {
        guard let pairs = node.pairs else {
            error(.mappingInvalid, "'\(key)' must be a mapping of names to values, found \(node.kindDescription)", at: node)
            return []
        }
        var result: [FetchParameter] = []
        for (nameNode, valueNode) in pairs {
            guard let name = nameNode.scalar, !name.isEmpty else {
                error(.mappingInvalid, "a name in '\(key)' must be a plain name, found \(nameNode.kindDescription)", at: nameNode)
                continue
            }
            if key == "headers", !name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != ":" && $0.value < 127 }) {
                error(.mappingInvalid, "'\(name)' is not a header name (ASCII letters, digits and '-')", at: nameNode)
                continue
            }
            guard let value = template(valueNode, key: "\(key).\(name)", parentFields: parentFields) else { continue }
            result.append(FetchParameter(name: name, value: value))
        }
        return result
    }

    private func body(_ node: YAMLNode, parentFields: Bool) -> FetchBody? {
        if let pairs = node.pairs {
            var members: [(key: String, value: FetchBody)] = []
            for (key, value) in pairs {
                guard let name = key.scalar, let member = body(value, parentFields: parentFields) else { return nil }
                members.append((name, member))
            }
            return .object(members)
        }
        if let items = node.items {
            let elements = items.compactMap { body($0, parentFields: parentFields) }
            return elements.count == items.count ? .array(elements) : nil
        }
        guard let json = node.jsonText() else {
            error(.mappingInvalid, "'body' holds a value JSON cannot write (\(node.kindDescription))", at: node)
            return nil
        }
        if json.hasPrefix("\"") {
            return template(node, key: "body", parentFields: parentFields).map { .string($0) }
        }
        return .literal(json)
    }

    // MARK: Paginators

    private func paginator(_ node: YAMLNode, method: FetchMethod) -> Paginator? {
        if let word = node.scalar {
            guard word == "link" else {
                let forms = MappingLoader.Keys.paginatorForms
                let suggestion = Wording.didYouMean(word, among: forms)
                error(
                    .mappingInvalid,
                    "unknown paginator '\(word)'\(suggestion); 'paginate' is 'link' or a mapping with one of 'next', 'cursor', 'offset' or 'page'",
                    at: node)
                return nil
            }
            return .link
        }
        let keys = MappingLoader.Keys.self
        let all = keys.paginateNext + keys.paginateCursor + keys.paginateOffset + keys.paginatePage
        guard let fields = fields(of: node, allowed: Array(Set(all)).sorted(), in: "'paginate'") else { return nil }
        let forms = ["next", "cursor", "offset", "page"].filter { fields[$0] != nil }
        guard forms.count == 1, let form = forms.first else {
            if forms.isEmpty, node.pairs?.isEmpty == false, fields.isEmpty { return nil }  // unknown keys, reported
            error(
                .mappingInvalid,
                forms.isEmpty
                    ? "'paginate' needs one of 'next', 'cursor', 'offset' or 'page' (or is 'link')"
                    : "'paginate' takes one form, found \(Wording.list(forms.map { "'\($0)'" }))",
                at: node)
            return nil
        }
        let allowed = ["next": keys.paginateNext, "cursor": keys.paginateCursor, "offset": keys.paginateOffset, "page": keys.paginatePage][
            form]!
        for (key, pair) in fields where !allowed.contains(key) {
            error(
                .mappingInvalid, "'\(key)' does not go with '\(form)' in 'paginate' (it takes \(Wording.list(allowed.map { "'\($0)'" })))",
                at: pair.key)
        }
        func path(_ key: String) -> KeyPath?? {
            guard let entry = fields[key] else { return .some(nil) }
            guard let parsed = keyPath(entry.value, key: key) else { return nil }
            if let op = parsed.collectionOperator, op.rawValue != "first", op.rawValue != "last" {
                error(.mappingInvalid, "'\(key)' may use '@first' or '@last', not '@\(op.rawValue)'", at: entry.value)
                return nil
            }
            // A page's values are read as a stream, which keeps no array to filter.
            if let filter = parsed.filters.first {
                error(.mappingInvalid, "'\(key)' may use '@first' or '@last', not '\(filter)'", at: entry.value)
                return nil
            }
            return .some(parsed)
        }
        func parameter(_ key: String) -> String?? {
            guard let entry = fields[key] else { return .some(nil) }
            guard let name = string(entry.value, key: key), !name.isEmpty else { return nil }
            return .some(name)
        }
        switch form {
        case "next":
            guard case let .some(next?) = path("next") else { return nil }
            return .next(next)
        case "cursor":
            let cursorNode = fields["cursor"]!.value
            var target: Paginator.CursorTarget
            if let pairs = cursorNode.pairs {
                guard pairs.count == 1, pairs[0].key.scalar == "body",
                    let keys = keyPath(pairs[0].value, key: "body", allowOperators: false)
                else {
                    error(
                        .mappingInvalid, "'cursor' is a query parameter's name, or '{ body: KEYPATH }' for a key of the POST body",
                        at: cursorNode)
                    return nil
                }
                guard method == .post else {
                    error(.mappingInvalid, "'cursor: { body: ... }' needs 'method: POST'", at: cursorNode)
                    return nil
                }
                target = .body(keys.keys)
            } else {
                guard case let .some(name?) = parameter("cursor") else { return nil }
                target = .query(name)
            }
            guard fields["value"] != nil else {
                error(.mappingInvalid, "a cursor needs 'value' (the key path of the next cursor in the body, as 'data.@last.id')", at: node)
                return nil
            }
            guard case let .some(value?) = path("value"), case let .some(more) = path("more") else { return nil }
            return .cursor(target: target, value: value, more: more)
        case "offset":
            guard case let .some(param?) = parameter("offset"), case let .some(limit) = parameter("limit"),
                case let .some(total) = path("total")
            else { return nil }
            guard let sizeNode = fields["size"] else {
                error(.mappingInvalid, "'offset' needs 'size' (the records a page holds, sent as 'limit')", at: node)
                return nil
            }
            guard let size = count(sizeNode.value, key: "size", in: 1...1_000_000) else { return nil }
            return .offset(param: param, limit: limit, size: size, total: total)
        default:
            guard case let .some(param?) = parameter("page"), case let .some(sizeParam) = parameter("sizeParam"),
                case let .some(pages) = path("pages")
            else { return nil }
            var size: Int?
            if let node = fields["size"] {
                guard let value = count(node.value, key: "size", in: 1...1_000_000) else { return nil }
                size = value
            }
            if sizeParam != nil, size == nil {
                error(.mappingInvalid, "'sizeParam' sends 'size', which is missing", at: fields["sizeParam"]!.key)
                return nil
            }
            var start = 1
            if let node = fields["start"] {
                guard let value = count(node.value, key: "start", in: 0...1_000_000) else { return nil }
                start = value
            }
            return .page(param: param, size: size, sizeParam: sizeParam, start: start, pages: pages)
        }
    }

    // MARK: Values

    private func count(_ node: YAMLNode, key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = integer(node, key: key) else { return nil }
        guard range.contains(value) else {
            error(.mappingInvalid, "'\(key)' must be from \(range.lowerBound) to \(range.upperBound), found \(value)", at: node)
            return nil
        }
        return value
    }

    private func positiveNumber(_ node: YAMLNode, key: String) -> Double? {
        guard let text = node.scalar, let value = Double(text), value.isFinite, value > 0 else {
            error(.mappingInvalid, "'\(key)' must be a number above 0, found \(node.kindDescription)", at: node)
            return nil
        }
        return value
    }

    /// Finds each `each:`'s parent source by its path; a source may not be its own ancestor.
    func resolveEach(_ sources: inout [Source], pending: [Int: (path: String, node: YAMLNode)]) {
        for (index, each) in pending.sorted(by: { $0.key < $1.key }) {
            guard let parent = sources.firstIndex(where: { $0.path == each.path }) else {
                let suggestion = Wording.didYouMean(each.path, among: sources.map(\.path))
                error(.mappingUnknownName, "'each' names no source's path: '\(each.path)'\(suggestion)", at: each.node)
                continue
            }
            guard parent != index else {
                error(.mappingInvalid, "a source cannot fetch once per record of itself", at: each.node)
                continue
            }
            sources[index].fetch?.each = FetchEach(source: parent, location: each.node.location)
        }
        // A cycle (a each b each a) has no first source to fetch.
        for start in sources.indices {
            var seen: Set<Int> = [start]
            var current = sources[start].fetch?.each?.source
            while let next = current {
                if next == start {
                    error(
                        .mappingInvalid, "'each' goes round in a circle back to '\(sources[start].path)'",
                        at: YAMLNodeLocation(sources[start].fetch!.each!.location))
                    sources[start].fetch?.each = nil
                    break
                }
                guard seen.insert(next).inserted else { break }
                current = sources[next].fetch?.each?.source
            }
        }
    }
}

/// A location standing in for a node, for checks made after the nodes are read.
struct YAMLNodeLocation {
    let location: SourceLocation
    init(_ location: SourceLocation) { self.location = location }
}

extension LoadContext {
    func error(_ code: DiagnosticCode, _ message: String, at place: YAMLNodeLocation) {
        diagnostics.error(code, message, at: place.location)
    }
}
