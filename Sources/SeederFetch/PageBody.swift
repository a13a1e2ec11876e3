import SeederCore

/// A response body read as the build will read it: JSON (or JSON Lines), its records at the
/// source's `keyPath`, and the values its paginator needs.
struct PageBody {
    /// The parsed document; `nil` for JSON Lines.
    let document: JSONDocument?
    /// How many records the build will map from it.
    let records: Int
    /// A streamed body's values at the paginator's key paths (`PageBody+Streaming.swift`).
    private var values: [KeyPath: KeyPathResult] = [:]

    init(document: JSONDocument?, records: Int, values: [KeyPath: KeyPathResult]) {
        self.document = document
        self.records = records
        self.values = values
    }

    /// Reads `bytes`; a body that is not what the mapping reads is a failure at `location` whose
    /// message names the page (`described`).
    init(
        _ bytes: [UInt8], source: Source, described: String, contentType: String?, location: SourceLocation, graphQL: Bool = false,
        paged: Bool = false, redact: (String) -> String = { $0 }
    ) throws(FetchFailure) {
        func quote(_ bytes: [UInt8]) -> String { Self.quote(bytes, redact: redact) }
        if Source.format(ofFile: source.path) == .jsonLines {
            var count = 0
            var lineStart = 0
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") || index == bytes.count - 1 {
                let end = byte == UInt8(ascii: "\n") ? index : index + 1
                let line = Array(bytes[lineStart..<end])
                lineStart = index + 1
                if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
                do { _ = try JSONDocument(parsing: line) } catch {
                    throw Self.syntaxFailure(
                        error, bytes: bytes, lineOffset: end - line.count, described: described, contentType: contentType,
                        location: location, quote: quote(bytes))
                }
                count += 1
            }
            document = nil
            records = count
            return
        }
        let parsed: JSONDocument
        do { parsed = try JSONDocument(parsing: bytes) } catch {
            throw Self.syntaxFailure(
                error, bytes: bytes, lineOffset: 0, described: described, contentType: contentType, location: location, quote: quote(bytes))
        }
        document = parsed
        // A GraphQL answer with `errors` has no data to page through, status 200 or not.
        if graphQL, let errors = parsed.root["errors"], errors.kind == .array, errors.count > 0 {
            let messages = errors.elements.map { "\"" + ($0["message"]?.string ?? "(no message)") + "\"" }
            throw FetchFailure.data(
                .http, "\(described): the GraphQL response has errors: " + messages.joined(separator: "; "), at: location)
        }
        var value = parsed.root
        for (depth, key) in source.keyPath.enumerated() {
            guard value.kind == .object, let member = value[key] else {
                let reached = source.keyPath[..<depth].joined(separator: ".")
                throw FetchFailure.data(
                    .shape,
                    "\(described): 'keyPath' \(source.keyPath.joined(separator: ".")) reaches nothing: "
                        + (depth == 0 ? "the body is \(describeKind(value.kind))" : "'\(reached)' is \(describeKind(value.kind))")
                        + " with no '\(key)'; the body begins \(quote(bytes))", at: location, jsonPath: value.pointer.description)
            }
            value = member
        }
        switch value.kind {
        case .array: records = value.count
        case .object where paged && source.keyedBy == nil:
            // A page holds its records in an array: an object here is most often an error the
            // service sent with status 200, which must not replace the pages in DUMPS.
            throw FetchFailure.data(
                .shape,
                "\(described): a page's records are an array, but "
                    + (source.keyPath.isEmpty
                        ? "the body is an object" : "'keyPath' \(source.keyPath.joined(separator: ".")) reaches an object")
                    + "; the body begins \(quote(bytes))", at: location, jsonPath: value.pointer.description)
        case .object: records = source.keyedBy == nil ? 1 : value.count
        case .null: records = 0
        default:
            throw FetchFailure.data(
                .shape, "\(described): the records at 'keyPath' are \(describeKind(value.kind)), not an array or an object", at: location,
                jsonPath: value.pointer.description)
        }
    }

    private static func syntaxFailure(
        _ error: JSONSyntaxError, bytes: [UInt8], lineOffset: Int, described: String, contentType: String?, location: SourceLocation,
        quote: String
    ) -> FetchFailure {
        let offset = lineOffset + error.offset
        var position = ""
        if let located = try? LineLocator.locate([offset], in: MemoryByteSource(bytes)),
            case let .lineColumn(line, column)? = located[offset]
        {
            position = " at line \(line), column \(column)"
        }
        let type = contentType.map { " (Content-Type \($0))" } ?? ""
        return .data(
            .syntax, "\(described): the body is not JSON\(type): \(error.message)\(position); it begins \(quote)", at: location)
    }

    /// The body's first 200 characters, white space folded, quoted, secrets hidden before the
    /// cut: what a person recognizes an error page or an error object by.
    static func quote(_ bytes: [UInt8], redact: (String) -> String) -> String {
        "\"" + RequestSender.excerpt(bytes, redact: redact) + "\""
    }

    /// What a paginator's key path reaches in the body, from its root (`KeyPath.jsonValue`):
    /// nothing, `null`, one value, or why it cannot reach one value here.
    func value(at path: KeyPath) -> KeyPathResult {
        guard let document else { return values[path] ?? .absent }
        return path.jsonValue(in: document.root)
    }
}

extension JSONValue {
    /// A scalar as the text a URL or a file name takes: a string as is, a number as written.
    var scalarText: String? {
        switch kind {
        case .string: return string
        case .number: return numberText
        case .true: return "true"
        case .false: return "false"
        default: return nil
        }
    }
}
