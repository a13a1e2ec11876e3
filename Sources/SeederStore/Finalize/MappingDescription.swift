import SeederCore
import SeederFiles

/// The validated mapping as canonical JSON (docs/seed.md, Metadata: `mapping`): entities, tables,
/// columns, identities, relationships, enough for `diff` to key rows by identity without the
/// YAML. Object keys are sorted and there is no whitespace, so equal mappings give equal text.
enum MappingDescription {
    indirect enum Value {
        case string(String)
        case int(Int)
        case bool(Bool)
        case null
        case array([Value])
        case object([(String, Value)])

        var text: String {
            var json = JSONStreamWriter()
            write(to: &json)
            return json.text
        }

        func write(to json: inout JSONStreamWriter) {
            switch self {
            case let .string(string): json.value(string)
            case let .int(int): json.value(int)
            case let .bool(bool): json.value(bool)
            case .null: json.null()
            case let .array(items):
                json.array { json in
                    for item in items { item.write(to: &json) }
                }
            case let .object(pairs):
                json.object { json in
                    for (key, value) in pairs.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
                        json.key(key)
                        value.write(to: &json)
                    }
                }
            }
        }
    }

    static func json(_ mapping: Mapping, fit: SchemaFit? = nil) -> String {
        let entities = mapping.entities
        let value = Value.object(
            schema(of: fit) + [
                ("format", .int(1)),
                ("schemaVersion", .int(mapping.schemaVersion)),
                ("naming", .string(mapping.naming.rawValue)),
                ("dates", .string(mapping.dates.rawValue)),
            ] + provenance(of: mapping) + [
                (
                    "entities",
                    .array(
                        entities.map { entity in
                            .object(
                                [
                                    ("name", .string(entity.name)),
                                    ("table", .string(entity.table)),
                                    ("primaryKey", .array(entity.primaryKeyColumns.map(Value.string))),
                                    (
                                        "identity",
                                        entity.identity == .none
                                            ? .null
                                            : .array(
                                                entity.identityParts.map { part in
                                                    .string(
                                                        part.attribute.map { entity.attributes[$0].name }
                                                            ?? entity.relationships[part.relationship!].name)
                                                })
                                    ),
                                    ("onConflict", .string(entity.onConflict.rawValue)),
                                    ("nulls", .string(entity.nulls.rawValue)),
                                    (
                                        "attributes",
                                        .array(
                                            entity.attributes.map { attribute in
                                                .object(
                                                    [
                                                        ("name", .string(attribute.name)),
                                                        ("column", .string(attribute.column)),
                                                        ("type", .string(attribute.type.rawValue)),
                                                        ("required", .bool(attribute.isRequired)),
                                                        ("unique", .bool(attribute.isUnique)),
                                                        ("from", attribute.keyPath.map { .string($0.description) } ?? .null),
                                                        (
                                                            "storage",
                                                            attribute.type == .date ? .string(attribute.dateStorage.rawValue) : .null
                                                        ),
                                                    ] + match(attribute.match))
                                            })
                                    ),
                                    (
                                        "relationships",
                                        .array(
                                            entity.relationships.map { relationship in
                                                .object(
                                                    [
                                                        ("name", .string(relationship.name)),
                                                        ("to", target(of: relationship, entities)),
                                                        ("many", .bool(relationship.isToMany)),
                                                        ("ordered", .bool(relationship.isOrdered)),
                                                        (
                                                            "inverse",
                                                            relationship.inverse.map {
                                                                .string(entities[relationship.target].relationships[$0].name)
                                                            }
                                                                ?? .null
                                                        ),
                                                        ("storage", storage(relationship.storage)),
                                                    ] + match(relationship.match))
                                            })
                                    ),
                                ] + search(of: entity))
                        })
                )
            ])
        return value.text
    }

    /// `provenance`, only when a `seed_source` row is a file (so that other seeds' descriptions
    /// stay as they were): what tells `SeedSources` which layout a seed's rows have.
    private static func provenance(of mapping: Mapping) -> [(String, Value)] {
        mapping.provenance == .files ? [("provenance", .string(Provenance.files.rawValue))] : []
    }

    /// `schema`, only for a seed fitted to the app's own schema (so that other seeds'
    /// descriptions stay as they were): its mode, and the columns that hold row numbers
    /// rather than values: `diff` compares the records they point at (docs/seed.md).
    private static func schema(of fit: SchemaFit?) -> [(String, Value)] {
        guard let fit else { return [] }
        return [
            (
                "schema",
                .object([
                    ("mode", .string(fit.mode.rawValue)),
                    ("rowNumbers", .object(fit.rowNumberColumns.map { ($0.key, .string($0.value)) })),
                    (
                        "bookkeeping",
                        .object(
                            fit.tables.compactMap { table in
                                let columns = table.fills.filter { if case .constant = $0.value { true } else { false } }.map(\.column)
                                return columns.isEmpty ? nil : (table.table, .array(columns.map(Value.string)))
                            } + (fit.mode == .coreData ? [("Z_PRIMARYKEY", .array([]))] : []))
                    ),
                    (
                        "rowNumberReferences",
                        .object(
                            fit.rowNumberReferences.map { table, columns in (table, .object(columns.map { ($0.key, .string($0.value)) })) })
                    ),
                ])
            )
        ]
    }

    /// `search`, only for an entity that has one (so that other seeds' descriptions stay as they
    /// were): its table, engine, columns, tokenizer and sync (docs/seed.md, Search).
    private static func search(of entity: Entity) -> [(String, Value)] {
        guard let search = entity.search else { return [] }
        return [
            (
                "search",
                .object([
                    ("table", .string(SearchSpec.tableName(for: entity.table))),
                    ("engine", .string(search.engine.rawValue)),
                    ("fields", .array(search.fields.map { .string(entity.attributes[$0].name) })),
                    ("columns", .array(search.fields.map { .string(entity.attributes[$0].column) })),
                    ("tokenizer", search.tokenizer.map { .string($0.text) } ?? .null),
                    ("sync", search.triggers ? .string("triggers") : .null),
                ])
            )
        ]
    }

    /// `match`, only where the mapping has one (so that other seeds' descriptions stay as they
    /// were): the pattern that takes the value out of the key's text (docs/mapping.md, Values
    /// inside text), which changes what the rows hold as `from` does.
    private static func match(_ pattern: TextPattern?) -> [(String, Value)] {
        pattern.map { [("match", .string($0.source))] } ?? []
    }

    /// `to`: the target's name, or a selector as the mapping writes it.
    private static func target(of relationship: Relationship, _ entities: [Entity]) -> Value {
        guard let selector = relationship.selector else { return .string(entities[relationship.target].name) }
        return .object([
            ("by", .string(selector.by.description)),
            ("cases", .object(selector.cases.map { ($0.value, .string(entities[$0.entity].name)) })),
            ("default", selector.defaultEntity.map { .string(entities[$0].name) } ?? .null),
        ])
    }

    private static func storage(_ storage: RelationshipStorage) -> Value {
        let kind = ("kind", Value.string(storage.kind.rawValue))
        switch storage {
        case let .foreignKey(columns):
            return .object([kind, ("columns", .array(columns.map(Value.string)))])
        case let .inverse(position):
            return .object([kind, ("position", position.map(Value.string) ?? .null)])
        case let .joinTable(join):
            return .object([
                kind, ("table", .string(join.name)),
                ("ownerColumns", .array(join.ownerColumns.map(Value.string))),
                ("targetColumns", .array(join.targetColumns.map(Value.string))),
                ("position", join.positionColumn.map(Value.string) ?? .null),
            ])
        }
    }
}
