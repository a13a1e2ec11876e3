import GRDB
import SeederFiles

/// One way a database differs from what Room will check when it opens it, in words.
package struct RoomSchemaDifference: Sendable, Hashable, CustomStringConvertible {
    /// What the difference is about.
    package enum Subject: Sendable, Hashable {
        /// An entity's table (`TableInfo`).
        case table(String)
        /// An FTS entity's virtual table (`FtsTableInfo`).
        case ftsTable(String)
        /// A database view (`ViewInfo`).
        case view(String)
        /// `room_master_table`'s identity hash.
        case identityHash
        /// `PRAGMA user_version`.
        case userVersion
    }

    /// What the difference is about.
    package var subject: Subject
    /// The whole sentence: `table 'Song': column 'duration': Room expects affinity INTEGER
    /// (declared type 'INTEGER'), the seed has TEXT (declared type 'TEXT')`.
    package var message: String

    package var description: String { message }
}

extension RoomSchema {
    /// How `db` differs from this schema, checked as Room checks a database it opens: each
    /// entity as the generated `onValidateSchema` does (`TableInfo.read` and `TableInfo.equals`;
    /// for FTS entities `FtsTableInfo`), each view (`ViewInfo`), then the identity hash
    /// (`RoomConnectionManager.checkIdentity`) and the version (`configureConnection`).
    /// Empty when Room will open the database as it is.
    ///
    /// Room stops at the first table that differs and prints both descriptions whole; this names
    /// every difference, one sentence each. Tables Room does not know are not looked at, as Room
    /// does not look at them.
    package func differences(in db: Database) throws -> [RoomSchemaDifference] {
        var differences: [RoomSchemaDifference] = []
        for entity in entities {
            if entity.fts != nil {
                differences += try ftsDifferences(entity, in: db)
            } else {
                differences += try tableDifferences(entity, in: db)
            }
        }
        for view in views {
            let subject = RoomSchemaDifference.Subject.view(view.viewName)
            let say = { (text: String) in RoomSchemaDifference(subject: subject, message: "view '\(view.viewName)': \(text)") }
            // `ViewInfo.equals`: the name, and the SQL as text.
            switch try RoomViewInfo.sql(db, view: view.viewName) {
            case nil: differences.append(say("the seed has no such view"))
            case let found? where found != view.createViewSQL:
                differences.append(say("Room expects the SQL \"\(view.createViewSQL)\", the seed has \"\(found)\""))
            default: break
            }
        }
        differences += try identityDifferences(in: db)
        return differences
    }

    /// `TableInfo.equals` between the entity (created from the entity) and what `TableInfo.read`
    /// reads (created from the database): the same columns by name, each equal; the same set of
    /// foreign keys; the same set of indices.
    private func tableDifferences(_ entity: Entity, in db: Database) throws -> [RoomSchemaDifference] {
        let name = entity.tableName
        var texts: [String] = []
        let found = try RoomTableInfo.read(db, table: name)
        if found.columns.isEmpty {
            return [RoomSchemaDifference(subject: .table(name), message: "table '\(name)': the seed has no such table")]
        }
        // Columns (`TableInfo.Column.equals`).
        for field in entity.fields {
            guard let column = found.columns.first(where: { $0.name == field.columnName }) else {
                texts.append("column '\(field.columnName)' is missing from the seed")
                continue
            }
            texts += columnDifferences(field, column, primaryKey: entity.primaryKey).map { "column '\(field.columnName)': \($0)" }
        }
        for column in found.columns where !entity.fields.contains(where: { $0.columnName == column.name }) {
            texts.append("column '\(column.name)' is in the seed but not in Room's schema")
        }
        texts += foreignKeyDifferences(entity.foreignKeys.map(Self.expected), found.foreignKeys)
        texts += indexDifferences(entity.indices.map(Self.expected), found.indices)
        return texts.map { RoomSchemaDifference(subject: .table(name), message: "table '\(name)': \($0)") }
    }

    /// `TableInfo.Column.equals` with the entity's column first: the primary key position (as
    /// Android 5 and later compare it, `TableInfo.android.kt`'s `equalsInPrimaryKey`), nullability,
    /// the default only when the entity declares one (b/136019383), the affinity of the declared
    /// types (`findAffinity`), not the types themselves.
    private func columnDifferences(_ field: Field, _ column: RoomTableInfo.Column, primaryKey: PrimaryKey) -> [String] {
        var texts: [String] = []
        // The generated code's `primaryKey.fields.indexOf(field) + 1` (`TableInfoValidationWriter`).
        let position = (primaryKey.columnNames.firstIndex(of: field.columnName) ?? -1) + 1
        if position != column.primaryKeyPosition {
            texts.append(
                "Room expects it \(Self.describe(position: position)), the seed has it \(Self.describe(position: column.primaryKeyPosition))"
            )
        }
        if field.notNull != column.notNull {
            texts.append(
                field.notNull ? "Room expects NOT NULL, the seed allows NULL" : "Room expects NULL to be allowed, the seed has NOT NULL")
        }
        if let expected = field.defaultValue, !RoomTableInfo.defaultValue(expected, matches: column.defaultValue) {
            texts.append("Room expects DEFAULT \(expected), the seed has \(column.defaultValue.map { "DEFAULT \($0)" } ?? "no DEFAULT")")
        }
        let expected = RoomAffinity(declaredType: field.affinity)
        if expected != column.affinity {
            texts.append(
                "Room expects affinity \(expected.rawValue) (declared type '\(field.affinity)'), "
                    + "the seed has \(column.affinity.rawValue) (declared type '\(column.type)')")
        }
        return texts
    }

    private static func describe(position: Int) -> String {
        position == 0 ? "outside the primary key" : "at position \(position) of the primary key"
    }

    private static func expected(_ key: ForeignKey) -> RoomTableInfo.ForeignKey {
        RoomTableInfo.ForeignKey(
            referenceTable: key.table, onDelete: key.onDelete, onUpdate: key.onUpdate, columnNames: key.columns,
            referenceColumnNames: key.referencedColumns)
    }

    /// The generated code's index: orders `ASC` for each column when the export has none.
    private static func expected(_ index: Index) -> RoomTableInfo.Index {
        RoomTableInfo.Index(
            name: index.name, unique: index.unique, columns: index.columnNames,
            orders: index.orders.isEmpty ? index.columnNames.map { _ in "ASC" } : index.orders)
    }

    /// Set equality of `TableInfo.ForeignKey`s (every property compared); a key that is on the
    /// same columns in both but differs in its actions is named as such.
    private func foreignKeyDifferences(_ expected: [RoomTableInfo.ForeignKey], _ found: [RoomTableInfo.ForeignKey]) -> [String] {
        var missing = expected.filter { !found.contains($0) }
        var extra = found.filter { !expected.contains($0) }
        var texts: [String] = []
        for key in missing {
            let sameColumns = { (other: RoomTableInfo.ForeignKey) in
                other.columnNames == key.columnNames && other.referenceTable == key.referenceTable
                    && other.referenceColumnNames == key.referenceColumnNames
            }
            guard let other = extra.first(where: sameColumns) else { continue }
            let reference = Self.describe(reference: key)
            if key.onDelete != other.onDelete {
                texts.append("foreign key \(reference): Room expects ON DELETE \(key.onDelete), the seed has ON DELETE \(other.onDelete)")
            }
            if key.onUpdate != other.onUpdate {
                texts.append("foreign key \(reference): Room expects ON UPDATE \(key.onUpdate), the seed has ON UPDATE \(other.onUpdate)")
            }
            missing.removeAll { $0 == key }
            extra.removeAll { $0 == other }
        }
        texts += missing.map { "foreign key \(Self.describe($0)) is missing from the seed" }
        texts += extra.map { "foreign key \(Self.describe($0)) is in the seed but not in Room's schema" }
        return texts
    }

    private static func describe(reference key: RoomTableInfo.ForeignKey) -> String {
        "(\(key.columnNames.joined(separator: ", "))) -> \(key.referenceTable)(\(key.referenceColumnNames.joined(separator: ", ")))"
    }

    private static func describe(_ key: RoomTableInfo.ForeignKey) -> String {
        "\(describe(reference: key)) ON DELETE \(key.onDelete) ON UPDATE \(key.onUpdate)"
    }

    /// Set equality of `TableInfo.Index`es: uniqueness, columns and orders compared; names too,
    /// except that any two names with Room's `index_` prefix match (`TableInfo.Index.equals`).
    /// An index of the same name in both that differs is named as such.
    private func indexDifferences(_ expected: [RoomTableInfo.Index], _ found: [RoomTableInfo.Index]) -> [String] {
        let matches = { (left: RoomTableInfo.Index, right: RoomTableInfo.Index) in
            let prefix = "index_"
            let names = left.name.hasPrefix(prefix) ? right.name.hasPrefix(prefix) : left.name == right.name
            return left.unique == right.unique && left.columns == right.columns && left.orders == right.orders && names
        }
        var missing: [RoomTableInfo.Index] = []
        var extra = found
        for index in expected {
            if let match = extra.firstIndex(where: { matches(index, $0) }) {
                extra.remove(at: match)
            } else {
                missing.append(index)
            }
        }
        var texts: [String] = []
        for index in missing {
            guard let same = extra.firstIndex(where: { $0.name == index.name }) else {
                texts.append("index '\(index.name)' on (\(index.columns.joined(separator: ", "))) is missing from the seed")
                continue
            }
            let other = extra.remove(at: same)
            let prefix = "index '\(index.name)': Room expects"
            if index.unique != other.unique {
                texts.append(
                    index.unique
                        ? "\(prefix) a unique index, the seed's is not unique"
                        : "\(prefix) an index that is not unique, the seed's is unique")
            }
            if index.columns != other.columns {
                texts.append(
                    "\(prefix) columns (\(index.columns.joined(separator: ", "))), the seed has (\(other.columns.joined(separator: ", ")))")
            } else if index.orders != other.orders {
                texts.append(
                    "\(prefix) orders (\(index.orders.joined(separator: ", "))), the seed has (\(other.orders.joined(separator: ", ")))")
            }
        }
        texts += extra.map { "index '\($0.name)' on (\($0.columns.joined(separator: ", "))) is in the seed but not in Room's schema" }
        return texts
    }

    /// `FtsTableInfo.equals`: the same column names (the entity's, less its `rowid` key and its
    /// language id column, which are hidden: `FtsTableInfoValidationWriter`'s `nonHiddenFields`)
    /// and the same options, parsed from both `CREATE VIRTUAL TABLE` statements.
    private func ftsDifferences(_ entity: Entity, in db: Database) throws -> [RoomSchemaDifference] {
        let name = entity.tableName
        let say = { (text: String) in RoomSchemaDifference(subject: .ftsTable(name), message: "FTS table '\(name)': \(text)") }
        let found = try RoomFTSTableInfo.read(db, table: name)
        guard found.exists else { return [say("the seed has no such table")] }
        let hidden = [entity.primaryKey.columnNames.first, entity.fts?.ftsOptions.languageIdColumnName]
        let columns = entity.fields.map(\.columnName).filter { !hidden.contains($0) }
        var texts = columns.filter { !found.columns.contains($0) }.map { "column '\($0)' is missing from the seed" }
        texts += found.columns.subtracting(columns).sorted().map { "column '\($0)' is in the seed but not in Room's schema" }
        let expected = RoomFTSTableInfo.options(of: entity.createTableSQL)
        let key = { (option: String) in option.prefix { $0 != "=" } }
        var extra = found.options.subtracting(expected)
        for option in expected.subtracting(found.options).sorted() {
            if let other = extra.first(where: { key($0) == key(option) }) {
                texts.append("Room expects the option \(option), the seed has \(other)")
                extra.remove(other)
            } else {
                texts.append("Room expects the option \(option), the seed's table does not have it")
            }
        }
        texts += extra.sorted().map { "the seed's table has the option \($0), which Room's schema does not" }
        return texts.map(say)
    }

    /// `checkIdentity`: `room_master_table` row 42 holds the identity hash; and the version:
    /// any other `user_version` makes Room create (0) or migrate the database when it opens it.
    private func identityDifferences(in db: Database) throws -> [RoomSchemaDifference] {
        var differences: [RoomSchemaDifference] = []
        let say = { (text: String) in RoomSchemaDifference(subject: .identityHash, message: "room_master_table: \(text)") }
        let hasTable =
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_master_table'") ?? false
        if !hasTable {
            differences.append(say("the seed has no such table; Room expects it to hold the identity hash '\(identityHash)'"))
        } else {
            // `RoomMasterTable.READ_QUERY`.
            let found = try Row.fetchOne(db, sql: "SELECT identity_hash FROM room_master_table WHERE id = 42 LIMIT 1")
            if let found {
                // Read as it is stored: Room's schema file wrote it, and may have written no text.
                let stored: DatabaseValue = found[0]
                switch stored.storage {
                case .string(identityHash): break
                case let .string(hash): differences.append(say("Room expects the identity hash '\(identityHash)', the seed has '\(hash)'"))
                case .null: differences.append(say("Room expects the identity hash '\(identityHash)', the seed has NULL"))
                default: differences.append(say("Room expects the identity hash '\(identityHash)', the seed has a value that is not text"))
                }
            } else {
                differences.append(say("Room expects the identity hash '\(identityHash)' in the row with id 42, the seed has no such row"))
            }
        }
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if userVersion != version {
            differences.append(
                RoomSchemaDifference(
                    subject: .userVersion,
                    message: "user_version: Room expects \(version) (the schema's database.version), the seed has \(userVersion)"))
        }
        return differences
    }
}
