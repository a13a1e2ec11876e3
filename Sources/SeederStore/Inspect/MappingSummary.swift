import SeederCore
import SeederFiles

/// What `diff` and `inspect` read back from a seed's `mapping` metadata (`MappingDescription`):
/// which table holds which entity, keyed by which columns, and which tables hold links.
package struct MappingSummary: Sendable, Hashable {
    /// An entity and its table.
    package struct Entity: Sendable, Hashable {
        package var name: String
        package var table: String
        /// The primary-key columns (the identity's, or `_pk`).
        package var primaryKey: [String]
        /// `false` for `identity: none`, whose `_pk` is only the source order.
        package var hasIdentity: Bool
        /// Its search table (`search:`), if any.
        package var search: Search? = nil
        /// The columns of its `json` attributes, which hold JSON text.
        package var jsonColumns: Set<String> = []
    }

    /// An entity's search table: its name and FTS module (docs/seed.md, Search).
    package struct Search: Sendable, Hashable {
        package var table: String
        package var engine: String
        /// `tokenize=` as the mapping wrote it, and whether triggers keep it in step.
        package var tokenizer: String? = nil
        package var triggers = false

        /// `fts5`, then the tokenizer and the triggers when there are: `fts5, porter unicode61, triggers`.
        package var description: String {
            ([engine] + [tokenizer].compactMap { $0 } + (triggers ? ["triggers"] : [])).joined(separator: ", ")
        }
    }

    /// A many-to-many relationship's join table.
    package struct JoinTable: Sendable, Hashable {
        package var table: String
        /// The entity that declares the relationship, and the relationship's name.
        package var owner: String
        package var relationship: String
        /// The entity it points to; through a selector, the entities it can choose: `Photo | Video`.
        package var target: String
        package var ownerColumns: [String]
        /// The target's key; through a selector, then the chosen entity's name.
        package var targetColumns: [String]
        package var position: String?
        /// The target is chosen by a selector (docs/mapping.md, Polymorphism).
        package var isSelector = false
    }

    /// Columns that name a row of the entity a selector chose, which seeder checks because
    /// SQLite cannot declare a key to several tables: a to-one's, or a join table's target.
    package struct SelectorColumns: Sendable, Hashable {
        package var table: String
        /// `User.pinned`.
        package var relationship: String
        /// The id columns, then the one holding the entity's name.
        package var columns: [String]
        /// `Photo | Video (by type)`.
        package var targets: String
    }

    /// A to-one stored in its entity's table: columns that hold the target's key (in the app's
    /// schema, maybe its row number).
    package struct ToOneColumns: Sendable, Hashable {
        package var table: String
        /// `Task.project`.
        package var relationship: String
        package var columns: [String]
        /// The target entity.
        package var target: String
    }

    /// The mapping's `schemaVersion`.
    package var schemaVersion: Int
    /// Entities in mapping order.
    package var entities: [Entity]
    /// Join tables in mapping order.
    package var joinTables: [JoinTable]
    /// Columns of selectors, in mapping order.
    package var selectorColumns: [SelectorColumns] = []
    /// The to-ones to one entity, in mapping order.
    package var toOnes: [ToOneColumns] = []
    /// How the seed's schema was made: `template`, `room` or `core data` when it is the app's
    /// own (docs/seed.md); `nil` for the schema seeder generates.
    package var schemaMode: String?
    /// `provenance:` when the mapping gives one other than the default (`files`: a
    /// `seed_source` row per dump file); `nil` for a row per source.
    package var provenance: String?
    /// The column of each app table that holds its rows' numbers (`Z_PK`, an auto-generated id).
    package var rowNumbers: [String: String] = [:]
    /// By app table, the columns that hold the same bookkeeping value on every row (Core Data's
    /// `Z_ENT`, `Z_OPT`); a table with none listed is bookkeeping as a whole (`Z_PRIMARYKEY`).
    package var bookkeeping: [String: [String]] = [:]
    /// By app table, its columns that hold another table's row numbers, with that table.
    package var rowNumberReferences: [String: [String: String]] = [:]

    /// Reads the description; `nil` when it is not JSON of the shape `MappingDescription` writes.
    init?(json: String) {
        guard let document = try? JSONDocument(parsing: json), let entities = document.root["entities"],
            entities.kind == .array, document.root["format"]?.numberText == "1"
        else { return nil }
        schemaVersion = document.root["schemaVersion"]?.numberText.flatMap { Int($0) } ?? 0
        provenance = document.root["provenance"]?.string
        self.entities = []
        joinTables = []
        if let schema = document.root["schema"] {
            schemaMode = schema["mode"]?.string
            if let numbers = schema["rowNumbers"], numbers.kind == .object {
                for (table, column) in numbers.members { if let table = table.string { rowNumbers[table] = column.string } }
            }
            if let tables = schema["bookkeeping"], tables.kind == .object {
                for (table, columns) in tables.members { if let table = table.string { bookkeeping[table] = Self.strings(columns) } }
            }
            if let references = schema["rowNumberReferences"], references.kind == .object {
                for (table, columns) in references.members where columns.kind == .object {
                    for (column, target) in columns.members {
                        guard let table = table.string, let column = column.string else { continue }
                        rowNumberReferences[table, default: [:]][column] = target.string
                    }
                }
            }
        }
        for entity in entities.elements {
            guard let name = entity["name"]?.string, let table = entity["table"]?.string else { return nil }
            let primaryKey = entity["primaryKey"].map(Self.strings) ?? []
            var summary = Entity(name: name, table: table, primaryKey: primaryKey, hasIdentity: entity["identity"]?.isNull == false)
            if let search = entity["search"], let searchTable = search["table"]?.string, let engine = search["engine"]?.string {
                summary.search = Search(
                    table: searchTable, engine: engine, tokenizer: search["tokenizer"]?.string,
                    triggers: search["sync"]?.string == "triggers")
            }
            if let attributes = entity["attributes"] {
                for attribute in attributes.elements where attribute["type"]?.string == "json" {
                    if let column = attribute["column"]?.string { summary.jsonColumns.insert(column) }
                }
            }
            self.entities.append(summary)
            guard let relationships = entity["relationships"], relationships.kind == .array else { continue }
            for relationship in relationships.elements {
                guard let storage = relationship["storage"], let relationshipName = relationship["name"]?.string,
                    let to = relationship["to"]
                else { continue }
                let selector = Self.selector(to)
                let target = selector?.entities ?? to.string ?? ""
                switch storage["kind"]?.string.flatMap(RelationshipStorage.Kind.init) {
                case .joinTable?:
                    guard let joinName = storage["table"]?.string else { continue }
                    var join = JoinTable(
                        table: joinName, owner: name, relationship: relationshipName, target: target,
                        ownerColumns: storage["ownerColumns"].map(Self.strings) ?? [],
                        targetColumns: storage["targetColumns"].map(Self.strings) ?? [],
                        position: storage["position"]?.string)
                    join.isSelector = selector != nil
                    joinTables.append(join)
                    if let selector {
                        selectorColumns.append(
                            SelectorColumns(
                                table: joinName, relationship: "\(name).\(relationshipName)", columns: join.targetColumns,
                                targets: selector.description))
                    }
                case .foreignKey?:
                    guard let selector else {
                        toOnes.append(
                            ToOneColumns(
                                table: table, relationship: "\(name).\(relationshipName)",
                                columns: storage["columns"].map(Self.strings) ?? [], target: target))
                        continue
                    }
                    selectorColumns.append(
                        SelectorColumns(
                            table: table, relationship: "\(name).\(relationshipName)", columns: storage["columns"].map(Self.strings) ?? [],
                            targets: selector.description))
                default:
                    continue
                }
            }
        }
    }

    /// A selector as `MappingDescription` writes `to`: its entities, `Photo | Video`, and with its
    /// key, `Photo | Video (by type)`; `nil` for an entity's name.
    private static func selector(_ to: JSONValue) -> (entities: String, description: String)? {
        guard to.kind == .object, let by = to["by"]?.string, let cases = to["cases"], cases.kind == .object else { return nil }
        var names: [String] = []
        for (_, entity) in cases.members { if let name = entity.string, !names.contains(name) { names.append(name) } }
        if let name = to["default"]?.string, !names.contains(name) { names.append(name) }
        let entities = names.joined(separator: " | ")
        return (entities, "\(entities) (by \(by))")
    }

    /// The entity stored in `table`.
    package func entity(table: String) -> Entity? {
        entities.first { $0.table == table }
    }

    /// The entity whose search table is `table`.
    package func searchOwner(_ table: String) -> Entity? {
        entities.first { $0.search?.table == table }
    }

    /// The join table named `table`.
    package func joinTable(_ table: String) -> JoinTable? {
        joinTables.first { $0.table == table }
    }

    private static func strings(_ value: JSONValue) -> [String] {
        value.kind == .array ? value.elements.compactMap(\.string) : []
    }
}
