import SeedInstaller
import SeederCore
import SeederFiles

/// The seed's schema, made from a validated mapping (docs/seed.md, Schema): one table per entity in
/// mapping order with the identity as primary key, `NOT NULL` on required and identity columns,
/// a declared foreign key and an index for every to-one, join tables for many-to-many, position
/// columns for `ordered`, unique and plain indexes, and the two metadata tables.
///
/// Only SQL that SQLite 3.22 reads (Android 9, iOS 12): no `STRICT`, no generated columns.
package struct SeedSchema: Sendable {
    /// One table of the seed.
    package struct Table: Sendable, Hashable {
        /// The table's name.
        package var name: String
        /// Its columns in order.
        package var columns: [Column]
        /// The primary key's columns.
        package var primaryKey: [String]
        /// Foreign keys: columns -> (table, columns).
        package var foreignKeys: [ForeignKey]
        /// `true` for a single `INTEGER PRIMARY KEY` (a rowid alias).
        package var hasIntegerPrimaryKey: Bool
    }

    /// A column.
    package struct Column: Sendable, Hashable {
        package var name: String
        package var type: String
        package var notNull: Bool
    }

    /// A foreign key.
    package struct ForeignKey: Sendable, Hashable {
        package var columns: [String]
        package var table: String
        package var targetColumns: [String]
    }

    /// An index.
    package struct Index: Sendable, Hashable {
        package var name: String
        package var table: String
        package var columns: [String]
        package var isUnique: Bool
    }

    /// Entity tables in mapping order, then join tables in mapping order.
    package private(set) var tables: [Table] = []
    /// Indexes, created after the load.
    package private(set) var indexes: [Index] = []
    /// The table of each entity, by entity index.
    package private(set) var entityTables: [Int] = []

    /// The schema of `mapping`.
    package init(mapping: Mapping) {
        let entities = mapping.entities
        // Position columns that ordered one-to-many relationships put on their children.
        var positions: [Int: [String]] = [:]
        for entity in entities {
            for relationship in entity.relationships {
                if let positionColumn = relationship.storage.targetPositionColumn {
                    for target in relationship.targets { positions[target, default: []].append(positionColumn) }
                }
            }
        }
        for (index, entity) in entities.enumerated() {
            var columns: [Column] = []
            var foreignKeys: [ForeignKey] = []
            let identity = entity.identityAttributes
            if entity.identity == .none {
                columns.append(Column(name: Entity.syntheticKeyColumn, type: "INTEGER", notNull: false))
            }
            for (attributeIndex, attribute) in entity.attributes.enumerated() {
                let isIdentity = identity.contains(attributeIndex)
                columns.append(
                    Column(
                        name: attribute.column, type: attribute.columnType,
                        notNull: attribute.isRequired || isIdentity))
            }
            for relationship in entity.relationships {
                let fkColumns = relationship.storage.ownerColumns
                guard !fkColumns.isEmpty else { continue }
                let target = entities[relationship.target]
                for (column, targetColumn) in zip(fkColumns, Self.targetKeyColumns(of: relationship, in: entities)) {
                    columns.append(Column(name: column, type: targetColumn.type, notNull: relationship.isRequired))
                }
                // SQLite cannot declare a key to several tables: seeder checks a selector's.
                if relationship.selector == nil {
                    foreignKeys.append(ForeignKey(columns: fkColumns, table: target.table, targetColumns: target.primaryKeyColumns))
                }
                indexes.append(
                    Index(name: Self.indexName(entity.table, fkColumns), table: entity.table, columns: fkColumns, isUnique: false))
            }
            for column in positions[index] ?? [] {
                columns.append(Column(name: column, type: "INTEGER", notNull: false))
            }
            let primaryKey = entity.primaryKeyColumns
            let integerKey = primaryKey.count == 1 && columns.first { $0.name == primaryKey[0] }?.type == "INTEGER"
            tables.append(
                Table(
                    name: entity.table, columns: columns, primaryKey: primaryKey, foreignKeys: foreignKeys,
                    hasIntegerPrimaryKey: integerKey))
            entityTables.append(tables.count - 1)
            for attribute in entity.attributes where attribute.isUnique || attribute.isIndexed {
                indexes.append(
                    Index(
                        name: Self.indexName(entity.table, [attribute.column]) + (attribute.isUnique ? "_unique" : ""),
                        table: entity.table, columns: [attribute.column], isUnique: attribute.isUnique))
            }
        }
        for entity in entities {
            for relationship in entity.relationships {
                guard let join = relationship.storage.joinTable else { continue }
                let target = entities[relationship.target]
                let ownerKey = Self.keyColumns(of: entity, in: entities)
                let targetKey = Self.targetKeyColumns(of: relationship, in: entities)
                var columns = zip(join.ownerColumns, ownerKey).map { Column(name: $0, type: $1.type, notNull: true) }
                columns += zip(join.targetColumns, targetKey).map { Column(name: $0, type: $1.type, notNull: true) }
                if let position = join.positionColumn { columns.append(Column(name: position, type: "INTEGER", notNull: true)) }
                tables.append(
                    Table(
                        name: join.name, columns: columns, primaryKey: join.ownerColumns + join.targetColumns,
                        foreignKeys: [
                            ForeignKey(columns: join.ownerColumns, table: entity.table, targetColumns: entity.primaryKeyColumns)
                        ]
                            + (relationship.selector != nil
                                ? []
                                : [ForeignKey(columns: join.targetColumns, table: target.table, targetColumns: target.primaryKeyColumns)]),
                        hasIntegerPrimaryKey: false))
                indexes.append(
                    Index(
                        name: Self.indexName(join.name, join.targetColumns), table: join.name,
                        columns: join.targetColumns, isUnique: false))
            }
        }
    }

    /// The columns a relationship's key to its target has, with their types: the target's key;
    /// to a selector, the key of every entity it can choose (typed when all agree) and then the
    /// chosen entity's name (docs/mapping.md, Polymorphism).
    static func targetKeyColumns(of relationship: Relationship, in entities: [Entity]) -> [Column] {
        let first = keyColumns(of: entities[relationship.target], in: entities)
        guard let selector = relationship.selector else { return first }
        let keys = selector.entities.map { keyColumns(of: entities[$0], in: entities) }
        let columns = first.indices.map { part in
            let types = Set(keys.map { $0[part].type })
            return Column(name: first[part].name, type: types.count == 1 ? first[part].type : "", notNull: true)
        }
        return columns + [Column(name: "type", type: "TEXT", notNull: true)]
    }

    /// The primary-key columns of an entity's table with their types.
    static func keyColumns(of entity: Entity, in entities: [Entity]) -> [Column] {
        switch entity.identity {
        case .owned:
            // Each column typed as the attribute whose values it holds (docs/mapping.md, Merging).
            return entity.ownedKey.map {
                Column(name: $0.column, type: entities[$0.entity].attributes[$0.attribute].columnType, notNull: true)
            }
        case .none:
            return [Column(name: Entity.syntheticKeyColumn, type: "INTEGER", notNull: true)]
        case let .attributes(indexes):
            return indexes.map { Column(name: entity.attributes[$0].column, type: entity.attributes[$0].columnType, notNull: true) }
        }
    }

    static func indexName(_ table: String, _ columns: [String]) -> String {
        ([table] + columns).joined(separator: "_") + "_index"
    }

    /// `CREATE TABLE` for a table; identifiers quoted by seeder. Unconstrained, the columns
    /// take no `NOT NULL` and the table no foreign key (what a build loads rows into,
    /// `SeedLayout.createTables`): SQLite walks every declared foreign key of the schema at each
    /// `CREATE`, so a schema of thousands of tables is made faster without them.
    package static func createTable(_ table: Table, constrained: Bool = true) -> String {
        var lines: [String] = []
        for column in table.columns {
            var line = "\(SQLText.quote(column.name)) \(column.type)"
            if table.hasIntegerPrimaryKey, column.name == table.primaryKey[0] {
                line += " PRIMARY KEY"
            } else if column.notNull, constrained {
                line += " NOT NULL"
            }
            lines.append(line)
        }
        if !table.hasIntegerPrimaryKey {
            lines.append("PRIMARY KEY (\(SQLText.list(table.primaryKey)))")
        }
        for foreignKey in table.foreignKeys where constrained {
            let target = "\(SQLText.quote(foreignKey.table))(\(SQLText.list(foreignKey.targetColumns)))"
            lines.append("FOREIGN KEY (\(SQLText.list(foreignKey.columns))) REFERENCES \(target)")
        }
        return "CREATE TABLE \(SQLText.quote(table.name)) (\n  " + lines.joined(separator: ",\n  ") + "\n)"
    }

    /// `CREATE [UNIQUE] INDEX` for an index.
    package static func createIndex(_ index: Index) -> String {
        let kind = index.isUnique ? "UNIQUE INDEX" : "INDEX"
        return "CREATE \(kind) \(SQLText.quote(index.name)) ON \(SQLText.quote(index.table))(\(SQLText.list(index.columns)))"
    }

    /// The metadata tables of docs/seed.md.
    package static let metadataTables = [
        "CREATE TABLE \"seed_metadata\" (\n  \"key\" TEXT PRIMARY KEY NOT NULL,\n  \"value\" TEXT NOT NULL\n)",
        SourceLayout.createTable,
    ]

    /// Every statement that creates the schema, tables first, indexes last.
    package var statements: [String] {
        Self.metadataTables + tables.map { Self.createTable($0) } + indexes.map(Self.createIndex)
    }
}
