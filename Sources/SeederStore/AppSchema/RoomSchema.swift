import Foundation
import SeederCore
import SeederFiles

/// An Android Room database schema, as Room exports it (`exportSchema = true`,
/// `schemas/<package>.<Database>/<version>.json`, `formatVersion` 1).
///
/// The keys and which of them may be left out are Room's own (room-migration's `SchemaBundle.kt`,
/// `DatabaseBundle.kt`, `EntityBundle.kt`, `FtsEntityBundle.kt`, `FieldBundle.kt`,
/// `PrimaryKeyBundle.kt`, `IndexBundle.kt`, `ForeignKeyBundle.kt`, `FtsOptionsBundle.kt`,
/// `DatabaseViewBundle.kt`). Keys Room does not know yet are passed over: Room adds keys across
/// versions.
///
/// ```swift
/// let schema = try RoomSchema.load(path: "app/schemas/com.example.MusicDatabase/3.json")
/// try schema.createDatabase(db)
/// // ... fill the tables ...
/// let differences = try schema.differences(in: db)  // [] when Room will open the seed
/// ```
package struct RoomSchema: Sendable, Hashable {
    /// The export's format; seeder reads format 1, the only one Room writes.
    package var formatVersion: Int
    /// `database.version`: the `@Database(version:)` the schema belongs to.
    package var version: Int
    /// `database.identityHash`: what Room expects in `room_master_table`.
    package var identityHash: String
    /// `database.entities`, in the file's order.
    package var entities: [Entity]
    /// `database.views` (absent in exports older than Room 2.1: empty).
    package var views: [View]
    /// `database.setupQueries`: they create `room_master_table` and insert the identity hash.
    package var setupQueries: [String]

    /// One `@Entity` (a table) or `@Fts3`/`@Fts4` entity (a virtual table).
    package struct Entity: Sendable, Hashable {
        /// The table's name.
        package var tableName: String
        /// `CREATE TABLE` (or `CREATE VIRTUAL TABLE`) with `${TABLE_NAME}` for the name.
        package var createSql: String
        /// The columns, in the table's order.
        package var fields: [Field]
        /// The primary key (for an FTS entity, `rowid` or nothing).
        package var primaryKey: PrimaryKey
        /// The entity's indices (none for an FTS entity).
        package var indices: [Index]
        /// The entity's foreign keys.
        package var foreignKeys: [ForeignKey]
        /// What an FTS entity has besides; `nil` for a plain table.
        package var fts: FTS?

        /// `createSql` with the table's name in place.
        package var createTableSQL: String { RoomSchema.replacingTableName(in: createSql, with: tableName) }
    }

    /// One column of an entity.
    package struct Field: Sendable, Hashable {
        /// The property the column stores (`address.zipcode`).
        package var fieldPath: String
        /// The column's name.
        package var columnName: String
        /// The column's declared type: `INTEGER`, `TEXT`, `REAL` or `BLOB`.
        package var affinity: String
        /// `NOT NULL` (absent in exports older than Room 1.0 final: `false`).
        package var notNull: Bool
        /// The column's `DEFAULT` as SQL text (`0`, `'Unknown'`), if it has one.
        package var defaultValue: String?
    }

    /// An entity's primary key.
    package struct PrimaryKey: Sendable, Hashable {
        /// The key's columns, in key order.
        package var columnNames: [String]
        /// `true` for an `autoGenerate` key (`INTEGER PRIMARY KEY AUTOINCREMENT`).
        package var autoGenerate: Bool
    }

    /// An index of an entity.
    package struct Index: Sendable, Hashable {
        /// The index's name (Room's own start with `index_`).
        package var name: String
        /// `true` for a unique index.
        package var unique: Bool
        /// The indexed columns, in order.
        package var columnNames: [String]
        /// `ASC`/`DESC` per column; empty when the export has none (every column `ASC`).
        package var orders: [String]
        /// `CREATE INDEX` with `${TABLE_NAME}` for the table's name.
        package var createSql: String
    }

    /// A foreign key of an entity.
    package struct ForeignKey: Sendable, Hashable {
        /// The parent table.
        package var table: String
        /// `NO ACTION`, `RESTRICT`, `SET NULL`, `SET DEFAULT` or `CASCADE`.
        package var onDelete: String
        /// As `onDelete`.
        package var onUpdate: String
        /// The child columns, in key order.
        package var columns: [String]
        /// The parent columns they reference, in the same order.
        package var referencedColumns: [String]
    }

    /// What an `@Fts3`/`@Fts4` entity has besides its fields.
    package struct FTS: Sendable, Hashable {
        /// `FTS3` or `FTS4`.
        package var ftsVersion: String
        /// The options the entity was declared with.
        package var ftsOptions: FTSOptions
        /// The triggers that keep an external-content table's index in step with its table.
        package var contentSyncTriggers: [String]
    }

    /// `ftsOptions` of an FTS entity, as exported.
    package struct FTSOptions: Sendable, Hashable {
        package var tokenizer: String
        package var tokenizerArgs: [String]
        /// The external content table, or `""`.
        package var contentTable: String
        /// The language id column, or `""`: a hidden column, not one Room checks.
        package var languageIdColumnName: String
        package var matchInfo: String
        package var notIndexedColumns: [String]
        package var prefixSizes: [Int]
        package var preferredOrder: String
    }

    /// A `@DatabaseView`.
    package struct View: Sendable, Hashable {
        /// The view's name.
        package var viewName: String
        /// `CREATE VIEW` with `${VIEW_NAME}` for the name.
        package var createSql: String

        /// `createSql` with the view's name in place.
        package var createViewSQL: String { createSql.replacingOccurrences(of: "${VIEW_NAME}", with: viewName) }
    }

    /// A schema from its parts.
    package init(
        formatVersion: Int = 1, version: Int, identityHash: String, entities: [Entity], views: [View] = [], setupQueries: [String]
    ) {
        self.formatVersion = formatVersion
        self.version = version
        self.identityHash = identityHash
        self.entities = entities
        self.views = views
        self.setupQueries = setupQueries
    }

    /// Reads and checks the schema Room exported to `path`.
    ///
    /// Errors (`RoomSchemaError`) name the file, the line and column, and what is wrong: JSON
    /// that does not parse, a `formatVersion` other than 1, a key that is missing or has the
    /// wrong type, by its JSON Pointer (`/database/entities/2/fields/0/affinity`).
    package static func load(path: String) throws -> RoomSchema {
        let bytes: [UInt8]
        do {
            bytes = try FileByteSource(path: path).readAll(atMost: AppSchemaFile.sizeLimit)
        } catch let error as InputError {
            throw RoomSchemaError(path: path, message: "cannot read the Room schema: \(error.reason)")
        }
        return try RoomSchema(json: bytes, path: path)
    }

    /// Parses the text of an exported schema; `path` names it in errors.
    package init(json bytes: [UInt8], path: String) throws {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes)
        } catch {
            throw RoomSchemaError(path: path, offset: error.offset, in: bytes, message: "not valid JSON: \(error.message)")
        }
        self = try RoomSchemaReader(path: path, bytes: bytes).schema(document.root)
    }

    /// `${TABLE_NAME}` in `sql` replaced by `name`, as room-migration's `BundleUtil.kt` does.
    static func replacingTableName(in sql: String, with name: String) -> String {
        sql.replacingOccurrences(of: "${TABLE_NAME}", with: name)
    }
}

/// Turns the parsed export into a `RoomSchema`, or says which key is wrong and where.
private struct RoomSchemaReader {
    let path: String
    let bytes: [UInt8]

    func schema(_ root: JSONValue) throws -> RoomSchema {
        guard root.kind == .object else {
            throw error("a Room schema is a JSON object, found \(describe(root))", at: root)
        }
        let formatVersion = try int(root, "formatVersion")
        guard formatVersion == 1 else {
            throw error(
                "formatVersion is \(formatVersion): seeder reads Room's schema format 1", at: try member(root, "formatVersion"))
        }
        let database = try object(root, "database")
        return RoomSchema(
            formatVersion: formatVersion,
            version: try int(database, "version"),
            identityHash: try string(database, "identityHash"),
            entities: try array(database, "entities").map(entity),
            views: try array(database, "views", optional: true).map { view in
                RoomSchema.View(viewName: try string(view, "viewName"), createSql: try string(view, "createSql"))
            },
            setupQueries: try strings(database, "setupQueries")
        )
    }

    /// An entity; one with `ftsVersion` is an FTS entity (`SchemaBundle.kt`'s `EntitySerializer`).
    func entity(_ value: JSONValue) throws -> RoomSchema.Entity {
        try requireObject(value)
        let primaryKey = try object(value, "primaryKey")
        var fts: RoomSchema.FTS?
        if value["ftsVersion"] != nil {
            let options = try object(value, "ftsOptions")
            fts = RoomSchema.FTS(
                ftsVersion: try string(value, "ftsVersion"),
                ftsOptions: RoomSchema.FTSOptions(
                    tokenizer: try string(options, "tokenizer"),
                    tokenizerArgs: try strings(options, "tokenizerArgs"),
                    contentTable: try string(options, "contentTable"),
                    languageIdColumnName: try string(options, "languageIdColumnName"),
                    matchInfo: try string(options, "matchInfo"),
                    notIndexedColumns: try strings(options, "notIndexedColumns"),
                    prefixSizes: try array(options, "prefixSizes").map(integer),
                    preferredOrder: try string(options, "preferredOrder")
                ),
                contentSyncTriggers: try strings(value, "contentSyncTriggers")
            )
        }
        return RoomSchema.Entity(
            tableName: try string(value, "tableName"),
            createSql: try string(value, "createSql"),
            fields: try array(value, "fields").map(field),
            primaryKey: RoomSchema.PrimaryKey(
                columnNames: try strings(primaryKey, "columnNames"),
                autoGenerate: try bool(primaryKey, "autoGenerate")
            ),
            indices: try array(value, "indices", optional: true).map(index),
            foreignKeys: try array(value, "foreignKeys", optional: true).map(foreignKey),
            fts: fts
        )
    }

    func field(_ value: JSONValue) throws -> RoomSchema.Field {
        try requireObject(value)
        return RoomSchema.Field(
            fieldPath: try string(value, "fieldPath"),
            columnName: try string(value, "columnName"),
            affinity: try string(value, "affinity"),
            notNull: try bool(value, "notNull", default: false),
            defaultValue: try optionalString(value, "defaultValue")
        )
    }

    func index(_ value: JSONValue) throws -> RoomSchema.Index {
        try requireObject(value)
        return RoomSchema.Index(
            name: try string(value, "name"),
            unique: try bool(value, "unique"),
            columnNames: try strings(value, "columnNames", optional: true),
            orders: try strings(value, "orders", optional: true),
            createSql: try string(value, "createSql")
        )
    }

    func foreignKey(_ value: JSONValue) throws -> RoomSchema.ForeignKey {
        try requireObject(value)
        return RoomSchema.ForeignKey(
            table: try string(value, "table"),
            onDelete: try string(value, "onDelete"),
            onUpdate: try string(value, "onUpdate"),
            columns: try strings(value, "columns"),
            referencedColumns: try strings(value, "referencedColumns")
        )
    }

    // MARK: Typed members

    func member(_ object: JSONValue, _ key: String) throws -> JSONValue {
        guard let value = object[key] else {
            throw error("\(object.pointer.appending(.key(key))) is missing", at: object)
        }
        return value
    }

    func requireObject(_ value: JSONValue) throws {
        guard value.kind == .object else { throw mistyped(value, "an object") }
    }

    func object(_ object: JSONValue, _ key: String) throws -> JSONValue {
        let value = try member(object, key)
        try requireObject(value)
        return value
    }

    func string(_ object: JSONValue, _ key: String) throws -> String {
        try text(member(object, key))
    }

    /// A string that may be absent or `null`.
    func optionalString(_ object: JSONValue, _ key: String) throws -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        return try text(value)
    }

    func text(_ value: JSONValue) throws -> String {
        guard let string = value.string else { throw mistyped(value, "a string") }
        return string
    }

    func bool(_ object: JSONValue, _ key: String, default fallback: Bool? = nil) throws -> Bool {
        if let fallback, object[key] == nil { return fallback }
        let value = try member(object, key)
        guard let bool = value.bool else { throw mistyped(value, "true or false") }
        return bool
    }

    func int(_ object: JSONValue, _ key: String) throws -> Int {
        try integer(member(object, key))
    }

    func integer(_ value: JSONValue) throws -> Int {
        guard value.isIntegralNumber, let text = value.numberText, let number = Int(text) else {
            throw mistyped(value, "an integer")
        }
        return number
    }

    /// An array; an `optional` one may be absent or `null` (empty).
    func array(_ object: JSONValue, _ key: String, optional: Bool = false) throws -> [JSONValue] {
        if optional, object[key]?.isNull ?? true { return [] }
        let value = try member(object, key)
        guard value.kind == .array else { throw mistyped(value, "an array") }
        return Array(value.elements)
    }

    func strings(_ object: JSONValue, _ key: String, optional: Bool = false) throws -> [String] {
        try array(object, key, optional: optional).map(text)
    }

    // MARK: Errors

    func mistyped(_ value: JSONValue, _ expected: String) -> RoomSchemaError {
        error("\(value.pointer) must be \(expected), found \(describe(value))", at: value)
    }

    func error(_ message: String, at value: JSONValue) -> RoomSchemaError {
        RoomSchemaError(path: path, offset: value.fileOffset, in: bytes, message: message)
    }

    func describe(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: return "null"
        case .true: return "true"
        case .false: return "false"
        case .number: return "the number \(value.numberText ?? "")"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
