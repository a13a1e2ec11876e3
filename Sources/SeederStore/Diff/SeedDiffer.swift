import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Compares two seeds record by record, keyed by identity (docs/commands.md, `diff`).
///
/// Stages: both files -> `SeedCatalog`s -> schema, metadata and source changes -> one
/// `TableDiff` plan per table -> a merge of both tables read in key order, which hands each
/// record that differs to the caller and keeps only counts. Memory does not grow with the seeds.
///
/// ```swift
/// let differ = SeedDiffer(old: "release.sqlite", new: "seed.sqlite")
/// let diff = try differ.diff { table, change in print(table.name, change.kind, change.key) }
/// print(diff.holdsSameRecords)
/// ```
///
/// Records are paired by the seeds' `mapping` metadata: an entity by its identity, a join table
/// by its owner and target keys. Any other table is paired by its declared primary key; a table
/// without one, an entity with `identity: none` (whose `_pk` is only source order) and a table
/// whose key changed are compared as multisets of rows. Only the columns both seeds have are
/// compared; added and removed columns are schema changes.
package struct SeedDiffer: Sendable {
    /// The seed released before.
    package var oldPath: String
    /// The seed to compare with it.
    package var newPath: String
    /// Entity or table names to compare; empty for all. A join table goes with its owner.
    package var entities: [String]

    /// A differ of two SQLite files.
    package init(old: String, new: String, entities: [String] = []) {
        oldPath = old
        newPath = new
        self.entities = entities
    }

    /// Compares the seeds; `onChange` receives every record added, removed or changed, table by
    /// table in `SeedDiff.tables` order, records in key order.
    package func diff(_ onChange: (TableDiff, RecordChange) throws -> Void) throws -> SeedDiff {
        let oldQueue = try SeedFile.open(oldPath), newQueue = try SeedFile.open(newPath)
        do {
            return try oldQueue.read { oldDB in
                try newQueue.read { newDB in
                    let old = try SeedCatalog.read(oldDB, path: oldPath), new = try SeedCatalog.read(newDB, path: newPath)
                    var diff = try plan(old, new)
                    for index in diff.tables.indices {
                        diff.tables[index].counts = try merge(diff.tables[index], old: old, new: new, oldDB: oldDB, newDB: newDB, onChange)
                    }
                    return diff
                }
            }
        } catch let error as DatabaseError {
            throw SeedFileError(path: "\(oldPath), \(newPath)", reason: error.description)
        }
    }

    // MARK: Planning

    /// The schema, metadata and source changes, and the tables to compare.
    func plan(_ old: SeedCatalog, _ new: SeedCatalog) throws -> SeedDiff {
        let mapping = new.mapping ?? old.mapping
        let oldTables = Dictionary(old.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newTables = Dictionary(new.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = try selectedTables(in: Set(oldTables.keys).union(newTables.keys), old: old, new: new)

        // Entities in mapping order, then join tables, then every other table by name.
        var order: [String] = []
        let mapped = (mapping?.entities.map(\.table) ?? []) + (mapping?.joinTables.map(\.table) ?? [])
        // A table of the app's bookkeeping follows from the records (Core Data's `Z_MAX` from the
        // row counts): no records of its own (docs/commands.md, diff).
        let bookkeeping = Set((mapping?.bookkeeping ?? [:]).filter { $0.value.isEmpty }.keys)
        for name in mapped + Set(oldTables.keys).union(newTables.keys).sorted()
        where selected.contains(name) && !order.contains(name) && !bookkeeping.contains(name) {
            order.append(name)
        }

        var schema: [SchemaChange] = []
        var tables: [TableDiff] = []
        for name in order {
            let oldTable = oldTables[name], newTable = newTables[name]
            schema += schemaChanges(name, oldTable, newTable)
            tables.append(tableDiff(index: tables.count, name, oldTable, newTable, mapping: mapping))
        }
        schema += indexChanges(old, new, selected: selected)
        schema += searchChanges(old, new, selected: selected, mapping: mapping)
        if old.userVersion != new.userVersion {
            schema.append(SchemaChange(kind: .userVersionChanged, old: String(old.userVersion), new: String(new.userVersion)))
        }
        return SeedDiff(
            old: old, new: new, schema: schema, metadata: metadataChanges(old, new),
            sources: SourceChange.changes(old: old.sources, new: new.sources), tables: tables, entities: entities)
    }

    /// The tables `entities` selects, or all of them.
    private func selectedTables(in all: Set<String>, old: SeedCatalog, new: SeedCatalog) throws -> Set<String> {
        guard !entities.isEmpty else { return all }
        let summaries = [new.mapping, old.mapping].compactMap { $0 }
        var selected: Set<String> = []
        for name in entities {
            if let entity = summaries.lazy.compactMap({ $0.entities.first { $0.name == name } }).first {
                selected.insert(entity.table)
                for summary in summaries {
                    selected.formUnion(summary.joinTables.filter { $0.owner == name }.map(\.table))
                }
            } else if all.contains(name) {
                selected.insert(name)
            } else {
                let candidates = summaries.flatMap { $0.entities.map(\.name) } + all.sorted()
                throw SeedDiffError.unknownEntity(name, suggestion: closestMatch(to: name, in: candidates))
            }
        }
        return selected
    }

    private func schemaChanges(_ name: String, _ old: SeedCatalog.Table?, _ new: SeedCatalog.Table?) -> [SchemaChange] {
        guard let old else { return [SchemaChange(kind: .tableAdded, table: name)] }
        guard let new else { return [SchemaChange(kind: .tableRemoved, table: name)] }
        var changes: [SchemaChange] = []
        let oldColumns = Dictionary(old.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newColumns = Set(new.columns.map(\.name))
        for column in new.columns {
            if let before = oldColumns[column.name] {
                if before.type.uppercased() != column.type.uppercased() {
                    changes.append(SchemaChange(kind: .columnRetyped, table: name, name: column.name, old: before.type, new: column.type))
                }
            } else {
                changes.append(SchemaChange(kind: .columnAdded, table: name, name: column.name, new: column.type))
            }
        }
        for column in old.columns where !newColumns.contains(column.name) {
            changes.append(SchemaChange(kind: .columnRemoved, table: name, name: column.name, old: column.type))
        }
        if old.primaryKey != new.primaryKey {
            changes.append(
                SchemaChange(
                    kind: .primaryKeyChanged, table: name,
                    old: old.primaryKey.joined(separator: ", "), new: new.primaryKey.joined(separator: ", ")))
        }
        return changes
    }

    private func indexChanges(_ old: SeedCatalog, _ new: SeedCatalog, selected: Set<String>) -> [SchemaChange] {
        let oldIndexes = Dictionary(old.indexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newIndexes = Dictionary(new.indexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [SchemaChange] = []
        for name in Set(oldIndexes.keys).union(newIndexes.keys).sorted() {
            let before = oldIndexes[name], after = newIndexes[name]
            guard let table = (after ?? before)?.table, selected.contains(table), before?.sql != after?.sql else { continue }
            let kind: SchemaChange.Kind = before == nil ? .indexAdded : after == nil ? .indexRemoved : .indexChanged
            changes.append(SchemaChange(kind: kind, table: table, name: name, old: before?.sql, new: after?.sql))
        }
        return changes
    }

    /// Search tables added, removed or defined otherwise (docs/commands.md, diff): not records,
    /// but what the app's queries run on (an app without FTS5 cannot open an FTS5 table).
    private func searchChanges(_ old: SeedCatalog, _ new: SeedCatalog, selected: Set<String>, mapping: MappingSummary?) -> [SchemaChange] {
        let before = Dictionary(old.searchTables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.searchTables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [SchemaChange] = []
        for name in Set(before.keys).union(after.keys).sorted() {
            // With --entity, the search tables of the entities selected.
            if !entities.isEmpty, !(mapping?.searchOwner(name).map { selected.contains($0.table) } ?? false) { continue }
            switch (before[name], after[name]) {
            case (nil, _): changes.append(SchemaChange(kind: .tableAdded, table: name))
            case (_, nil): changes.append(SchemaChange(kind: .tableRemoved, table: name))
            case let (was?, now?) where was.definition != now.definition:
                changes.append(SchemaChange(kind: .searchTableChanged, table: name, old: was.definition, new: now.definition))
            default: continue
            }
        }
        return changes
    }

    private func metadataChanges(_ old: SeedCatalog, _ new: SeedCatalog) -> [MetadataChange] {
        let keys = Set(old.metadata.map(\.key)).union(new.metadata.map(\.key)).sorted()
        return keys.compactMap { key in
            let before = old.metadata(key), after = new.metadata(key)
            return before == after ? nil : MetadataChange(key: key, old: before, new: after)
        }
    }

    /// How the table's records are paired and which columns are compared.
    private func tableDiff(
        index: Int, _ name: String, _ old: SeedCatalog.Table?, _ new: SeedCatalog.Table?,
        mapping: MappingSummary?
    ) -> TableDiff {
        let oldColumns = old?.columns.map(\.name), newColumns = new?.columns.map(\.name)
        let columns = (newColumns ?? oldColumns!).filter { oldColumns?.contains($0) ?? true }
        let primaryKey = (old != nil && new != nil && old!.primaryKey != new!.primaryKey) ? nil : (new ?? old)!.primaryKey
        var role = TableDiff.Role.table
        var pairing = TableDiff.Pairing.primaryKey
        var key = primaryKey ?? []
        var displayName = name
        var jsonColumns: Set<String> = []
        if let entity = mapping?.entity(table: name) {
            role = .entity(entity.name)
            jsonColumns = entity.jsonColumns
            displayName = entity.name
            pairing = .identity
            // In the app's own schema the identity need not be the table's key (docs/seed.md).
            if mapping?.schemaMode != nil, entity.hasIdentity { key = entity.primaryKey }
            if !entity.hasIdentity {
                pairing = .rows(reason: "identity: none")
                key = []
            }
        } else if let join = mapping?.joinTable(name) {
            role = .links(join)
            displayName = "\(join.owner).\(join.relationship)"
            pairing = .identity
            // The app's join table may declare its key target first; a link is owner, then target.
            if mapping?.schemaMode != nil { key = join.ownerColumns + join.targetColumns }
        }
        if primaryKey == nil {
            pairing = .rows(reason: "primary key changed")
            key = []
        } else if key.isEmpty, case .primaryKey = pairing {
            pairing = .rows(reason: "no primary key")
        } else if !key.allSatisfy(columns.contains) {
            pairing = .rows(reason: "primary key column missing")
            key = []
        }
        // Without identity, the synthetic source-order key is no part of a record; nor is a row
        // number of the app's schema, which only says where a record stands among the others.
        let rowNumber = mapping?.rowNumbers[name]
        let bookkeeping = Set(mapping?.bookkeeping[name] ?? [])
        let compared = columns.filter {
            !key.contains($0) && !(key.isEmpty && $0 == Entity.syntheticKeyColumn && role != .table) && $0 != rowNumber
                && !bookkeeping.contains($0)
        }
        var table = TableDiff(
            index: index, table: name, name: displayName, role: role, pairing: pairing, keyColumns: key,
            fieldColumns: compared)
        table.jsonColumns = jsonColumns
        if !key.isEmpty, let oldColumns, let newColumns {
            table.oldOnlyColumns = oldColumns.filter { !newColumns.contains($0) }
            table.newOnlyColumns = newColumns.filter { !oldColumns.contains($0) }
        }
        return table
    }

    // MARK: Merging

    /// Steps through the table in both seeds in key order and reports every record that differs.
    ///
    /// Both sides select the key columns, then the shared fields, then their own extra columns,
    /// so the shared part lines up column for column.
    private func merge(
        _ table: TableDiff, old: SeedCatalog, new: SeedCatalog, oldDB: Database, newDB: Database,
        _ onChange: (TableDiff, RecordChange) throws -> Void
    ) throws -> DiffCounts {
        let shared = table.keyColumns + table.fieldColumns
        let oldColumns = shared + table.oldOnlyColumns, newColumns = shared + table.newOnlyColumns
        let references = (new.mapping ?? old.mapping).map { RowNumberReferences(mapping: $0, table: table.table) }
        func select(_ columns: [String]) -> String {
            let values = columns.map { references?.value(of: $0) ?? SQLText.quote($0) }
            let order = (table.keyColumns.isEmpty ? shared : table.keyColumns).map {
                (references?.value(of: $0) ?? SQLText.quote($0)) + " COLLATE BINARY"
            }
            return "SELECT \(values.joined(separator: ", ")) FROM \(SQLText.quote(table.table)) AS t"
                + (order.isEmpty ? "" : " ORDER BY " + order.joined(separator: ", "))
        }
        var before = old.tables.contains { $0.name == table.table } ? try RowCursor(db: oldDB, sql: select(oldColumns)) : nil
        var after = new.tables.contains { $0.name == table.table } ? try RowCursor(db: newDB, sql: select(newColumns)) : nil
        let keyCount = table.keyColumns.count, sharedCount = shared.count
        // Pairing whole rows orders and compares by every shared column.
        let orderCount = keyCount == 0 ? sharedCount : keyCount
        var counts = DiffCounts()

        func record(_ kind: RecordChange.Kind, _ cursor: RowCursor, _ columns: [String]) -> RecordChange {
            let fields = (keyCount..<columns.count).map { column in
                let value = cursor.value(column)
                return FieldChange(column: columns[column], old: kind == .removed ? value : nil, new: kind == .added ? value : nil)
            }
            return RecordChange(kind: kind, key: cursor.values(0..<keyCount), fields: fields)
        }

        /// The fields that differ between the paired rows (none when the record is unchanged).
        func changedFields(_ before: RowCursor, _ after: RowCursor) -> [FieldChange] {
            var changed: [FieldChange] = []
            for column in keyCount..<sharedCount where !before.isSame(column, as: after, column) {
                changed.append(FieldChange(column: shared[column], old: before.value(column), new: after.value(column)))
            }
            for column in sharedCount..<oldColumns.count where !before.isNull(column) {
                changed.append(FieldChange(column: oldColumns[column], old: before.value(column), new: nil))
            }
            for column in sharedCount..<newColumns.count where !after.isNull(column) {
                changed.append(FieldChange(column: newColumns[column], old: nil, new: after.value(column)))
            }
            return changed
        }

        while true {
            let oldDone = before?.isAtEnd ?? true, newDone = after?.isAtEnd ?? true
            if oldDone && newDone { break }
            var order = 0
            if oldDone {
                order = 1
            } else if newDone {
                order = -1
            } else {
                for column in 0..<orderCount {
                    order = before!.compare(column, with: after!, column)
                    if order != 0 { break }
                }
            }
            if order < 0 {
                counts.removed += 1
                try onChange(table, record(.removed, before!, oldColumns))
                try before!.advance()
            } else if order > 0 {
                counts.added += 1
                try onChange(table, record(.added, after!, newColumns))
                try after!.advance()
            } else {
                if keyCount > 0, case let changed = changedFields(before!, after!), !changed.isEmpty {
                    counts.changed += 1
                    var change = RecordChange(kind: .changed, key: before!.values(0..<keyCount), fields: changed)
                    for column in keyCount..<sharedCount
                    where !after!.isNull(column) && !changed.contains(where: { $0.column == shared[column] }) {
                        change.unchanged.append((shared[column], after!.value(column)))
                    }
                    try onChange(table, change)
                } else {
                    counts.unchanged += 1
                }
                try before!.advance()
                try after!.advance()
            }
        }
        return counts
    }
}

/// A `diff` that cannot start for a reason other than an unreadable file.
package enum SeedDiffError: Error, CustomStringConvertible {
    /// `--entity` names nothing in either seed.
    case unknownEntity(String, suggestion: String?)

    package var description: String {
        switch self {
        case let .unknownEntity(name, suggestion):
            return "no entity or table named '\(name)' in either seed" + Wording.didYouMean(suggestion)
        }
    }
}
