import Foundation
import SeederCore

/// A body too large to hold (docs/guides/fetching.md, What fetch guarantees: bounded memory):
/// read from its file as the build reads a dump, one record at a time, for the records it
/// holds and the values its paginator needs.
extension PageBody {
    /// Reads the body `open` gives, as many times as it needs (each call a new reader from the
    /// start). `paths` are the key paths the paginator will ask for (`Paginator.keyPaths`).
    init(
        streaming open: () throws -> ByteSource, source: Source, described: String, contentType: String?, location: SourceLocation,
        graphQL: Bool = false, paged: Bool = false, paths: [KeyPath], redact: (String) -> String
    ) throws(FetchFailure) {
        /// The body's first bytes, one more than an excerpt is made from, so that `quote` knows
        /// when it cuts.
        func start() -> [UInt8] {
            (try? open()).map { HTTPAnswer.prefix(RequestSender.excerptWindow + 1, of: $0) } ?? []
        }
        func quote() -> String { Self.quote(start(), redact: redact) }
        func located(_ offset: Int) -> String {
            guard let source = try? open(), let found = try? LineLocator.locate([offset], in: source),
                case let .lineColumn(line, column)? = found[offset]
            else { return "" }
            return " at line \(line), column \(column)"
        }
        func syntax(_ error: JSONSyntaxError) throws(FetchFailure) -> FetchFailure {
            let type = contentType.map { " (Content-Type \($0))" } ?? ""
            return .data(
                .syntax, "\(described): the body is not JSON\(type): \(error.message)\(located(error.offset)); it begins \(quote())",
                at: location)
        }
        /// Calls `body` with each item the reader finds at `keyPath`; `body` returns `false` to stop.
        func items(_ format: DumpFormat, _ keyPath: [String], keyed: Bool = false, _ body: (JSONReader.Item) throws -> Bool)
            throws(FetchFailure)
        {
            struct Stop: Error {}
            do {
                let reader = JSONReader(source: try open(), format: format, keyPath: keyPath, keyed: keyed)
                try reader.forEachItem { item in if try !body(item) { throw Stop() } }
            } catch is Stop {
            } catch let error as JSONSyntaxError {
                throw try syntax(error)
            } catch let failure as FetchFailure {
                throw failure
            } catch {
                throw FetchFailure(.io, "\(described): cannot read the body: \(error)", at: location, outcome: .failed)
            }
        }

        var count = 0
        if Source.format(ofFile: source.path) == .jsonLines {
            try items(.jsonLines, []) { item in
                if case let .lineSyntaxError(error) = item { throw try syntax(error) }
                count += 1
                return true
            }
            self.init(document: nil, records: count, values: [:])
            return
        }
        if graphQL {
            var messages: [String] = []
            try items(.json, ["errors"]) { item in
                if case let .record(error) = item, error.pointer.components.count > 1 {
                    messages.append("\"" + (error["message"]?.string ?? "(no message)") + "\"")
                }
                return messages.count < 20
            }
            if !messages.isEmpty {
                throw FetchFailure.data(
                    .http, "\(described): the GraphQL response has errors: " + messages.joined(separator: "; "), at: location)
            }
        }
        let depth = source.keyPath.count
        var failure: FetchFailure?
        try items(.json, source.keyPath, keyed: source.keyedBy != nil) { item throws(FetchFailure) in
            switch item {
            case let .keyPathNotFound(offset, pointer, key):
                let kind = Self.kind(at: offset, open)
                let reached = source.keyPath.prefix { $0 != key }.joined(separator: ".")
                failure = .data(
                    .shape,
                    "\(described): 'keyPath' \(source.keyPath.joined(separator: ".")) reaches nothing: "
                        + (pointer.components.isEmpty ? "the body is \(kind)" : "'\(reached)' is \(kind)")
                        + " with no '\(key)'; the body begins \(quote())", at: location, jsonPath: pointer.description)
                return false
            case let .skippedNull(_, pointer) where pointer.components.count == depth:
                return false
            case let .record(value) where value.pointer.components.count == depth && source.keyedBy == nil:
                if paged {
                    failure = .data(
                        .shape,
                        "\(described): a page's records are an array, but "
                            + (source.keyPath.isEmpty
                                ? "the body is an object" : "'keyPath' \(source.keyPath.joined(separator: ".")) reaches an object")
                            + "; the body begins \(quote())", at: location, jsonPath: value.pointer.description)
                    return false
                }
                count = 1
                return false
            case let .notARecord(value) where value.pointer.components.count == depth:
                failure = .data(
                    .shape, "\(described): the records at 'keyPath' are \(describeKind(value.kind)), not an array or an object",
                    at: location, jsonPath: value.pointer.description)
                return false
            case let .lineSyntaxError(error):
                throw try syntax(error)
            default:
                count += 1
                return true
            }
        }
        if let failure { throw failure }
        var values: [KeyPath: KeyPathResult] = [:]
        for path in paths {
            values[path] = try Self.streamedValue(path, items: { body throws(FetchFailure) in try items(.json, path.keys, body) })
        }
        self.init(document: nil, records: count, values: values)
    }

    /// What `path` reaches, read as a stream: the first value at its keys, or with `@first` or
    /// `@last` the first or last element there, then the operator's keys.
    private static func streamedValue(
        _ path: KeyPath, items: ((JSONReader.Item) throws(FetchFailure) -> Bool) throws(FetchFailure) -> Void
    ) throws(FetchFailure) -> KeyPathResult {
        let depth = path.keys.count
        var result = KeyPathResult.absent
        var element: JSONValue?
        var elementIsNull = false
        var sawElement = false
        try items { item in
            let value: JSONValue?
            let pointer: JSONPointer
            switch item {
            case let .record(reached), let .notARecord(reached):
                value = reached
                pointer = reached.pointer
            case let .skippedNull(_, at):
                value = nil
                pointer = at
            case .keyPathNotFound:
                result = .absent
                return false
            default:
                return false
            }
            guard pointer.components.count > depth else {
                // The keys reach one value: itself, or (with an operator) not an array.
                if path.collectionOperator != nil, let value {
                    result = .failure(
                        message: "'@\(path.collectionOperator!.rawValue)' needs an array, found \(describeKind(value.kind))", at: value)
                } else {
                    result = value.map { .value($0) } ?? .null
                }
                return false
            }
            guard path.collectionOperator != nil else {
                result = .failure(message: "'\(path)' reaches an array, not one value", at: nil)
                return false
            }
            sawElement = true
            element = value
            elementIsNull = value == nil
            return path.collectionOperator == .last
        }
        guard path.collectionOperator != nil, sawElement else {
            if path.collectionOperator != nil, case .absent = result { return .absent }
            return result
        }
        guard !elementIsNull, let element else { return .null }
        return KeyPath(literal: path.operatorKeys).jsonValue(in: element)
    }

    /// The kind of the value whose first byte is at `offset`, as messages name it.
    private static func kind(at offset: Int, _ open: () throws -> ByteSource) -> String {
        guard let source = try? open() else { return "a value" }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var seen = 0
        while true {
            guard let count = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), count > 0 else { return "a value" }
            if offset < seen + count {
                switch buffer[offset - seen] {
                case UInt8(ascii: "{"): return describeKind(.object)
                case UInt8(ascii: "["): return describeKind(.array)
                case UInt8(ascii: "\""): return describeKind(.string)
                case UInt8(ascii: "t"): return describeKind(.true)
                case UInt8(ascii: "f"): return describeKind(.false)
                case UInt8(ascii: "n"): return describeKind(.null)
                default: return describeKind(.number)
                }
            }
            seen += count
        }
    }
}

extension Paginator {
    /// The key paths of the body this paginator reads.
    var keyPaths: [KeyPath] {
        switch self {
        case .link: return []
        case let .next(path): return [path]
        case let .cursor(_, value, more): return [value] + (more.map { [$0] } ?? [])
        case let .offset(_, _, _, total): return total.map { [$0] } ?? []
        case let .page(_, _, _, _, pages): return pages.map { [$0] } ?? []
        }
    }
}
