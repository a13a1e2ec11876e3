import Foundation
import Yams

/// The state of one load: the file, where problems go, and the entities declared so far.
struct LoadContext {
    let file: String
    let diagnostics: DiagnosticSink
    /// Entity names in mapping order, for targets and suggestions.
    var entityNames: [String] = []
    let progress: MappingLoader.Progress

    init(file: String, diagnostics: DiagnosticSink, progress: @escaping MappingLoader.Progress = { _, _, _ in }) {
        self.file = file
        self.diagnostics = diagnostics
        self.progress = progress
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
        let provenance =
            fields["provenance"].flatMap { choice($0.value, key: "provenance", Provenance.self, all: Provenance.allCases) } ?? .sources
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
        mapping.provenance = provenance
        return mapping
    }

    /// Each name's index (the first, where a name repeats): relationships and sources find their
    /// entity by name, and a big mapping has tens of thousands of them (bench/README.md, Big
    /// mappings).
    static func indexes(of names: some Sequence<String>) -> [String: Int] {
        Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
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
                let suggestion = closestMatch(to: key, in: allowed).map { "; " + Wording.question(suggesting: $0) } ?? ""
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
            error(.mappingInvalid, "'\(key)' must be one of \(Wording.list(all.map(\.rawValue))), found \(node.kindDescription)", at: node)
            return nil
        }
        if let value = T(rawValue: text) { return value }
        let suggestion = Wording.didYouMean(text, among: all.map(\.rawValue))
        error(
            .mappingUnknownName, "unknown value '\(text)' for '\(key)'\(suggestion); expected \(Wording.list(all.map(\.rawValue)))",
            at: node)
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
            if !allowOperators, let filter = path.filters.first {
                error(.mappingInvalid, "'\(key)' cannot use '\(filter)' (an attribute's or a relationship's 'from' can)", at: node)
                return nil
            }
            if !allowOperators, path.collectionOperator != nil {
                error(.mappingInvalid, "'\(key)' cannot use collection operators", at: node)
                return nil
            }
            if !allowOperators, path.isRest {
                error(
                    .mappingInvalid, "'\(key)' cannot read '@rest', a record's members nothing else reads (a json attribute's 'from' can)",
                    at: node)
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
        // The system ends a path at its first NUL: the file read would not be the one named.
        guard !path.utf8.contains(0) else {
            error(.mappingInvalid, "'\(key)' holds a NUL character, which no file name may hold", at: entry.value)
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
