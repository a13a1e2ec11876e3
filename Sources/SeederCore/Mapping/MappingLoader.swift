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
        ]
        public static let naming = ["database"]
        public static let entity = [
            "identity", "attributes", "relationships", "table", "onConflict", "nulls", "emptyAsNull", "onMissing", "ignore", "search",
        ]
        public static let attribute = [
            "type", "from", "required", "default", "values", "unique", "index", "format",
            "timeZone", "storage", "column", "emptyAsNull",
        ]
        public static let relationship = [
            "to", "many", "from", "inverse", "ordered", "required", "onMissing", "column",
            "keyedBy", "table",
        ]
        public static let source = ["path", "entity", "keyPath", "keyedBy", "fetch"]
        public static let selector = ["by", "cases", "default"]
        public static let schema = ["template", "room"]
        public static let search = ["fields", "engine", "tokenizer", "sync"]
        public static let compatibility = ["sqlite"]
        /// The document's `fetch:` (every source's defaults) and a source's.
        public static let fetchDefaults = ["base", "headers", "query", "concurrency", "rate", "retries", "timeout", "maxPages"]
        public static let fetchSource = [
            "url", "method", "headers", "query", "body", "paginate", "each", "retries", "timeout", "maxPages",
        ]
        /// `paginate:`: `link`, or a mapping in one of four forms.
        public static let paginatorForms = ["link", "next", "cursor", "offset", "page"]
        public static let paginateNext = ["next"]
        public static let paginateCursor = ["cursor", "value", "more"]
        public static let paginateOffset = ["offset", "limit", "size", "total"]
        public static let paginatePage = ["page", "size", "sizeParam", "start", "pages"]
    }

    /// Creates a loader.
    public init() {}

    /// Loads the mapping file at `path`; `file` is how diagnostics name it.
    public func load(contentsOf path: String, file: String? = nil, diagnostics: DiagnosticSink) -> Mapping? {
        let name = file ?? path
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.error(.io, "cannot read the mapping file", at: SourceLocation(file: name))
            return nil
        }
        return load(bytes: Array(data), file: name, diagnostics: diagnostics)
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
            parser = try Parser(yaml: yaml)
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
            var context = LoadContext(file: file, diagnostics: diagnostics)
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

/// The state of one load: the file, where problems go, and the entities declared so far.
struct LoadContext {
    let file: String
    let diagnostics: DiagnosticSink
    /// Entity names in mapping order, for targets and suggestions.
    var entityNames: [String] = []

    init(file: String, diagnostics: DiagnosticSink) {
        self.file = file
        self.diagnostics = diagnostics
    }

    func error(_ code: DiagnosticCode, _ message: String, at node: YAMLNode) {
        diagnostics.error(code, message, at: node.location)
    }

    // MARK: The document

    mutating func document(_ root: YAMLNode) -> Mapping? {
        guard let fields = fields(of: root, allowed: MappingLoader.Keys.document, in: "the mapping file") else { return nil }
        if let version = fields["seeder"] {
            if let value = integer(version.value, key: "seeder"), value != MappingLoader.formatVersion {
                error(
                    .mappingInvalid, "unsupported mapping format \(value); this seeder reads format \(MappingLoader.formatVersion)",
                    at: version.value)
            }
        } else {
            error(.mappingInvalid, "missing 'seeder: \(MappingLoader.formatVersion)' (the mapping format version)", at: root)
        }
        let output = fields["output"].flatMap { string($0.value, key: "output") }
        var schemaVersion = 1
        if let node = fields["schemaVersion"], let value = integer(node.value, key: "schemaVersion") {
            if (0...Int(Int32.max)).contains(value) {
                schemaVersion = value
            } else {
                error(.mappingInvalid, "'schemaVersion' must be from 0 to \(Int32.max) (it becomes PRAGMA user_version)", at: node.value)
            }
        }
        var naming = NamingStyle.snakeCase
        if let node = fields["naming"], let namingFields = self.fields(of: node.value, allowed: MappingLoader.Keys.naming, in: "'naming'"),
            let database = namingFields["database"]
        {
            naming = choice(database.value, key: "database", NamingStyle.self, all: [.snakeCase, .asIs]) ?? naming
        }
        let dates = fields["dates"].flatMap { choice($0.value, key: "dates", DateStorage.self, all: DateStorage.allCases) } ?? .iso8601
        let timeZone = fields["timeZone"].flatMap { zone($0.value) } ?? TimeZone(identifier: "UTC")!
        let onConflict =
            fields["onConflict"].flatMap { choice($0.value, key: "onConflict", ConflictPolicy.self, all: ConflictPolicy.allCases) }
            ?? .error
        let nulls = fields["nulls"].flatMap { choice($0.value, key: "nulls", NullPolicy.self, all: NullPolicy.allCases) } ?? .value
        let emptyAsNull = fields["emptyAsNull"].flatMap { boolean($0.value, key: "emptyAsNull") } ?? false
        let onMissing =
            fields["onMissing"].flatMap { choice($0.value, key: "onMissing", MissingPolicy.self, all: MissingPolicy.allCases) } ?? .error
        let schema = fields["schema"].flatMap { self.schema($0.value) }
        if schema != nil, let node = fields["schemaVersion"] {
            error(
                .mappingInvalid, "'schemaVersion' does not apply with 'schema:': the seed takes the app schema's user_version", at: node.key
            )
        }
        let compatibility = fields["compatibility"].flatMap { self.compatibility($0.value) } ?? .defaultFloor
        let fetch = fields["fetch"].map { fetchDefaults($0.value) } ?? FetchDefaults()

        let defaults = EntityDefaults(
            dates: dates, timeZone: timeZone, onConflict: onConflict, nulls: nulls, emptyAsNull: emptyAsNull, onMissing: onMissing,
            naming: naming, compatibility: compatibility)
        var drafts: [EntityDraft] = []
        if let entitiesNode = fields["entities"] {
            drafts = entities(entitiesNode.value, defaults: defaults)
        } else {
            error(.mappingInvalid, "missing 'entities:' (the entities the seed holds)", at: root)
        }
        var entities = resolve(drafts, naming: naming)
        checkNames(&entities, drafts: drafts, naming: naming)
        let sources = fields["sources"].map { self.sources($0.value, entities: entities) }
        checkFileStars(drafts, entities: entities, sources: sources)
        if schema != nil {
            for search in entities.compactMap(\.search) {
                diagnostics.error(
                    .mappingInvalid,
                    "'search' does not apply with 'schema:': the app's schema declares its own full-text tables; "
                        + "map an entity onto one, or give it a content table that seeder fills",
                    at: search.location)
            }
        }
        var mapping = Mapping(
            file: file, output: output, schemaVersion: schemaVersion, naming: naming, dates: dates,
            timeZone: timeZone, entities: entities, sources: sources, compatibility: compatibility, schema: schema)
        mapping.fetch = fetch
        return mapping
    }

    // MARK: Reading nodes

    /// The pairs of a mapping node by key, after reporting unknown keys with a suggestion.
    func fields(of node: YAMLNode, allowed: [String], in context: String) -> [String: (key: YAMLNode, value: YAMLNode)]? {
        guard let pairs = node.pairs else {
            error(.mappingInvalid, "expected a mapping for \(context), found \(node.kindDescription)", at: node)
            return nil
        }
        var result: [String: (key: YAMLNode, value: YAMLNode)] = [:]
        for pair in pairs {
            guard let key = pair.key.scalar else {
                error(.mappingInvalid, "a key in \(context) must be a plain name, found \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            guard allowed.contains(key) else {
                let suggestion = closestMatch(to: key, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
                error(.mappingUnknownKey, "unknown key '\(key)' in \(context)\(suggestion)", at: pair.key)
                continue
            }
            result[key] = pair
        }
        return result
    }

    func string(_ node: YAMLNode, key: String) -> String? {
        guard let text = node.scalar, node.resolvedTag != .null else {
            error(.mappingInvalid, "'\(key)' must be a string, found \(node.kindDescription)", at: node)
            return nil
        }
        return text
    }

    func integer(_ node: YAMLNode, key: String) -> Int? {
        guard let text = node.scalar, let value = Int(text) else {
            error(.mappingInvalid, "'\(key)' must be an integer, found \(node.kindDescription)", at: node)
            return nil
        }
        return value
    }

    /// A YAML 1.1 boolean (`true`, `false`, `yes`, `no`, `on`, `off`).
    func boolean(_ node: YAMLNode, key: String) -> Bool? {
        guard node.scalar != nil, node.resolvedTag == .bool, let value = node.node.bool else {
            error(.mappingInvalid, "'\(key)' must be true or false, found \(node.kindDescription)", at: node)
            return nil
        }
        return value
    }

    /// One of a fixed set of words, with a suggestion for a typo.
    func choice<T: RawRepresentable>(_ node: YAMLNode, key: String, _ type: T.Type, all: [T]) -> T? where T.RawValue == String {
        guard let text = node.scalar else {
            error(.mappingInvalid, "'\(key)' must be one of \(list(all.map(\.rawValue))), found \(node.kindDescription)", at: node)
            return nil
        }
        if let value = T(rawValue: text) { return value }
        let suggestion = didYouMean(text, among: all.map(\.rawValue))
        error(.mappingUnknownName, "unknown value '\(text)' for '\(key)'\(suggestion); expected \(list(all.map(\.rawValue)))", at: node)
        return nil
    }

    func zone(_ node: YAMLNode) -> TimeZone? {
        guard let text = string(node, key: "timeZone") else { return nil }
        guard let zone = TimeZone(identifier: text) else {
            error(.mappingUnknownName, "unknown time zone '\(text)'; use an IANA name such as 'UTC' or 'America/New_York'", at: node)
            return nil
        }
        return zone
    }

    /// A key path: a dotted string, or a list of literal keys.
    func keyPath(_ node: YAMLNode, key: String, allowOperators: Bool = true) -> KeyPath? {
        if let items = node.items {
            let keys = items.compactMap { string($0, key: key) }
            guard keys.count == items.count else { return nil }
            guard !keys.isEmpty else {
                error(.mappingInvalid, "'\(key)' must name at least one key", at: node)
                return nil
            }
            return KeyPath(literal: keys)
        }
        guard let text = string(node, key: key) else { return nil }
        do {
            let path = try KeyPath(parsing: text)
            if !allowOperators, path.collectionOperator != nil {
                error(.mappingInvalid, "'\(key)' cannot use collection operators", at: node)
                return nil
            }
            if !allowOperators, path.fileStar != nil {
                error(
                    .mappingInvalid, "'\(key)' cannot read '@file.N', a text of a record's file name (an attribute's 'from' can)", at: node)
                return nil
            }
            return path
        } catch {
            self.error(.mappingInvalid, error.message, at: node)
            return nil
        }
    }

    /// `compatibility: { sqlite: "X.Y.Z" }`: the oldest SQLite the seed must open in.
    func compatibility(_ node: YAMLNode) -> SQLiteVersion? {
        guard let fields = fields(of: node, allowed: MappingLoader.Keys.compatibility, in: "'compatibility'"),
            let sqlite = fields["sqlite"]
        else { return nil }
        guard let text = sqlite.value.scalar, let version = SQLiteVersion(text), version.major == 3 else {
            let found = sqlite.value.scalar.map { "'\($0)'" } ?? sqlite.value.kindDescription
            error(.mappingInvalid, "'sqlite' must be an SQLite 3 release such as \"3.22.0\", found \(found)", at: sqlite.value)
            return nil
        }
        return version
    }

    /// `schema:` (docs/mapping.md, Fitting the app's own schema): one of `template` or `room`, a
    /// path relative to the mapping file.
    func schema(_ node: YAMLNode) -> SchemaSource? {
        if let path = node.scalar, !path.isEmpty {
            error(
                .mappingInvalid,
                "'schema' is a mapping: 'schema: { template: \(path) }' (an empty database the app made) or 'schema: { room: \(path) }'",
                at: node)
            return nil
        }
        guard let fields = fields(of: node, allowed: MappingLoader.Keys.schema, in: "'schema'") else { return nil }
        let given = MappingLoader.Keys.schema.compactMap { key in fields[key].map { (key, $0) } }
        guard given.count == 1, let (key, entry) = given.first else {
            // An unknown key was reported, with its suggestion.
            if given.isEmpty, node.pairs?.isEmpty == false { return nil }
            let found = given.isEmpty ? "neither" : "both"
            error(
                .mappingInvalid,
                "'schema' needs one of 'template' (an empty database the app made) or 'room' (Room's exported schema), found \(found)",
                at: node)
            return nil
        }
        guard let path = string(entry.value, key: key) else { return nil }
        guard !path.isEmpty else {
            error(.mappingInvalid, "'\(key)' needs the path of a file, relative to the mapping file", at: entry.value)
            return nil
        }
        return SchemaSource(kind: key == "room" ? .room : .template, path: path, location: entry.value.location)
    }

    func identifier(_ name: String, what: String, at node: YAMLNode) -> Bool {
        guard Naming.isIdentifier(name) else {
            error(.mappingInvalid, "\(what) '\(name)' is not an identifier (a letter or '_', then letters, digits or '_')", at: node)
            return false
        }
        return true
    }
}
