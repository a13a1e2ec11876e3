import Foundation
import Yams

/// Turns a mapping file's YAML into a validated `Mapping` (docs/mapping.md), reporting every
/// problem at its node, all of them in one run, before any dump is read.
///
///     let diagnostics = DiagnosticSink()
///     if let mapping = MappingLoader().load(yaml: text, file: "mapping.yaml", diagnostics: diagnostics) {
///         print(mapping.entities.map(\.table))
///     }
///
/// Stages: YAML text -> Yams nodes (with marks) -> entities and attributes -> identities,
/// relationship targets and inverses -> database names and their collisions -> sources.
public struct MappingLoader {
    /// The mapping format this seeder reads (`seeder: 1`).
    public static let formatVersion = 1

    /// Every key a mapping may use, by where it stands (the docs test walks these).
    public enum Keys {
        public static let document = [
            "seeder", "output", "schemaVersion", "naming", "dates", "timeZone", "onConflict",
            "nulls", "emptyAsNull", "onMissing", "entities", "sources", "schema", "compatibility", "fetch",
            "provenance",
        ]
        public static let naming = ["database"]
        public static let entity = [
            "identity", "attributes", "relationships", "table", "onConflict", "nulls", "emptyAsNull", "onMissing", "ignore", "search",
        ]
        public static let attribute = [
            "type", "from", "required", "default", "values", "unique", "index", "format",
            "timeZone", "storage", "column", "emptyAsNull", "match",
        ]
        public static let relationship = [
            "to", "many", "from", "inverse", "ordered", "required", "onMissing", "column",
            "keyedBy", "table", "match",
        ]
        public static let source = ["path", "entity", "keyPath", "keyedBy", "fetch"]
        public static let selector = ["by", "cases", "default"]
        public static let schema = ["template", "room"]
        public static let search = ["fields", "engine", "tokenizer", "sync"]
        public static let compatibility = ["sqlite"]
        /// The document's `fetch:` (every source's defaults) and a source's.
        public static let fetchDefaults = ["base", "headers", "query", "concurrency", "rate", "retries", "timeout", "maxPages"]
        public static let fetchSource = [
            "url", "method", "headers", "query", "body", "paginate", "each", "missing", "retries", "timeout", "maxPages",
        ]
        /// `paginate:`: `link`, or a mapping in one of four forms.
        public static let paginatorForms = ["link", "next", "cursor", "offset", "page"]
        public static let paginateNext = ["next"]
        public static let paginateCursor = ["cursor", "value", "more"]
        public static let paginateOffset = ["offset", "limit", "size", "total"]
        public static let paginatePage = ["page", "size", "sizeParam", "start", "pages"]
    }

    /// Told how far each step of the load that goes entity by entity is (`entities` read,
    /// `relationships` resolved): before each entity, how many are done of how many. A big
    /// mapping takes seconds to load (docs/ci.md, Progress in CI logs).
    public typealias Progress = (_ step: String, _ done: Int, _ total: Int) -> Void

    let progress: Progress

    /// Creates a loader; `progress` hears how far a load is.
    public init(progress: @escaping Progress = { _, _, _ in }) {
        self.progress = progress
    }

    /// Loads the mapping file at `path`; `file` is how diagnostics name it.
    public func load(contentsOf path: String, file: String? = nil, diagnostics: DiagnosticSink) -> Mapping? {
        let name = file ?? path
        // A regular file only, never blocking on a FIFO, and no larger than 64 MiB.
        guard let data = try? FileByteSource(path: path).readAll(atMost: FileByteSource.wholeFileLimit) else {
            diagnostics.error(.io, "cannot read the mapping file", at: SourceLocation(file: name))
            return nil
        }
        return load(bytes: data, file: name, diagnostics: diagnostics)
    }

    /// Loads a mapping from the bytes of its file: UTF-8 text, else an error at the first byte
    /// that is not.
    public func load(bytes: [UInt8], file: String, diagnostics: DiagnosticSink) -> Mapping? {
        // The standard library's check first: the loop that finds the offset is for the error.
        if String(validating: bytes, as: UTF8.self) == nil, let offset = Self.firstInvalidUTF8(bytes) {
            let position = Self.position(ofByte: offset, in: bytes)
            diagnostics.error(
                .mappingSyntax, "the mapping file is not UTF-8 text (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))",
                at: SourceLocation(file: file, line: position.line, column: position.column))
            return nil
        }
        return load(yaml: String(decoding: bytes, as: UTF8.self), file: file, diagnostics: diagnostics)
    }

    /// Loads a mapping from YAML text; `nil` when it has errors (all reported to `diagnostics`).
    public func load(yaml: String, file: String, diagnostics: DiagnosticSink) -> Mapping? {
        let errorsBefore = diagnostics.errorCount
        // The parser owns the anchors its nodes point to (weakly): keep it alive while reading.
        let parser: Parser
        let root: Node?
        do {
            parser = try Parser(yaml: yaml, resolver: YAMLNode.resolver)
            root = try parser.singleRoot()
        } catch {
            for diagnostic in Self.diagnostics(for: error, file: file) { diagnostics.report(diagnostic) }
            return nil
        }
        return withExtendedLifetime(parser) {
            guard let root else {
                diagnostics.error(
                    .mappingInvalid, "the mapping file is empty; it needs at least 'seeder: 1' and 'entities:'",
                    at: SourceLocation(file: file, line: 1, column: 1))
                return nil
            }
            let node = YAMLNode(node: root, file: file)
            if let anchored = node.firstAnchored() {
                let name = anchored.node.anchor?.rawValue ?? ""
                diagnostics.error(
                    .mappingSyntax, "anchors and aliases are not allowed in a mapping (found '&\(name)')", at: anchored.location)
                return nil
            }
            var context = LoadContext(file: file, diagnostics: diagnostics, progress: progress)
            let mapping = context.document(node)
            return diagnostics.errorCount == errorsBefore ? mapping : nil
        }
    }

    /// The diagnostics for a YAML syntax error, at its mark; a repeated key at the repetition.
    static func diagnostics(for error: Error, file: String) -> [Diagnostic] {
        guard let yamlError = error as? YamlError else { return [.error(.mappingSyntax, "\(error)", at: SourceLocation(file: file))] }
        switch yamlError {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let detail = context.map { "\($0.text) " } ?? ""
            return [
                .error(
                    .mappingSyntax, "invalid YAML: \(detail)\(problem)",
                    at: SourceLocation(file: file, line: mark.line, column: mark.column))
            ]
        case let .duplicatedKeysInMapping(duplicates, context):
            let repeated = YAMLDuplicateKey.locate(Set(duplicates), in: context.text)
            guard !repeated.isEmpty else {
                let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
                return [
                    .error(
                        .mappingSyntax, "duplicate key \(keys) in a YAML mapping",
                        at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column))
                ]
            }
            return repeated.map { duplicate in
                var diagnostic = Diagnostic.error(
                    .mappingSyntax, "duplicate key '\(duplicate.key)' in a YAML mapping; the first one is",
                    at: SourceLocation(file: file, line: duplicate.line, column: duplicate.column))
                diagnostic.relatedLocation = SourceLocation(file: file, line: duplicate.firstLine, column: duplicate.firstColumn)
                return diagnostic
            }
        case let .reader(problem, offset, _, yaml):
            // libyaml's reader speaks in bytes of the input: a NUL or another control character.
            guard let offset else { return [.error(.mappingSyntax, "invalid YAML: \(problem)", at: SourceLocation(file: file))] }
            let position = position(ofByte: offset, in: Array(yaml.utf8))
            return [
                .error(
                    .mappingSyntax, "invalid YAML: \(problem)", at: SourceLocation(file: file, line: position.line, column: position.column)
                )
            ]
        default:
            return [.error(.mappingSyntax, "invalid YAML: \(yamlError)", at: SourceLocation(file: file))]
        }
    }

    /// The offset of the first byte that does not belong to well-formed UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The 1-based line and column (in Unicode scalars, as libyaml counts) of a byte offset.
    static func position(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let located = try? LineLocator.locate([offset], in: MemoryByteSource(bytes))
        guard case let .lineColumn(line, column) = located?[offset] else { return (1, 1) }
        return (line, column)
    }
}
