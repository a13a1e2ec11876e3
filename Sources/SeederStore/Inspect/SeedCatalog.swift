import Foundation
import GRDB
import SeederCore
import SeederFiles

/// What `inspect` and `diff` know of one SQLite file: its pragmas, its tables with columns and
/// primary keys, its indexes and, for a seed, the metadata, the sources and the mapping
/// description (docs/seed.md, Metadata). Any SQLite file can be read; `isSeed` tells a seed.
public struct SeedCatalog: Sendable {
    /// A table of the file, as `sqlite_master` and `PRAGMA table_info` describe it.
    public struct Table: Sendable, Hashable {
        public var name: String
        public var columns: [Column]
        /// The declared primary key's columns in key order; empty when there is none (a plain
        /// rowid table, whose rowid is no identity).
        public var primaryKey: [String]
        /// The number of rows, when the catalog was read with `countingRows`.
        public var rows: Int?
        /// The foreign keys the table declares (`REFERENCES`), in declaration order.
        public var foreignKeys: [ForeignKey] = []
    }

    /// A declared foreign key: `columns` of a table refer to `targetColumns` of `target` (empty
    /// for its primary key).
    public struct ForeignKey: Sendable, Hashable {
        public var columns: [String]
        public var target: String
        public var targetColumns: [String]
    }

    /// A full-text table (`CREATE VIRTUAL TABLE ... USING fts5(...)`, fts4, fts3): shown once,
    /// as what it indexes; its shadow tables hold the index, not records (docs/commands.md).
    public struct SearchTable: Sendable, Hashable {
        public var name: String
        /// The module, lowercased: `fts5`.
        public var engine: String
        /// The number of rows it indexes, when the catalog was read with `countingRows`.
        public var rows: Int?
        /// Its `CREATE VIRTUAL TABLE` and the triggers named after it, which `diff` compares.
        public var definition = ""
        /// Its columns, in order.
        public var columns: [String] = []
    }

    /// A column with its declared type.
    public struct Column: Sendable, Hashable {
        public var name: String
        /// The declared type as written (`INTEGER`, `TEXT`; empty for none).
        public var type: String
        /// Declared `NOT NULL`.
        public var notNull = false
    }

    /// An index, by its SQL text (automatic indexes have none and are left out).
    public struct Index: Sendable, Hashable {
        public var name: String
        public var table: String
        public var sql: String
    }

    /// A `seed_source` row: one dump file read.
    public struct Source: Sendable, Hashable {
        public var path: String
        public var sha256: String
        public var bytes: Int
        public var records: Int
    }

    /// The file's path as given.
    public var path: String
    /// Its size in bytes.
    public var fileSize: Int
    /// `PRAGMA user_version`: a seed's `schemaVersion`.
    public var userVersion: Int
    /// `PRAGMA application_id`: `0x53454544` for a seed.
    public var applicationID: Int
    /// The data tables, sorted by name: every table but SQLite's own and the two metadata tables.
    public var tables: [Table]
    /// Full-text tables, sorted by name; neither they nor their shadow tables are in `tables`.
    public var searchTables: [SearchTable] = []
    /// Indexes with SQL text, sorted by name.
    public var indexes: [Index]
    /// `seed_metadata`, sorted by key; empty for a file that is no seed.
    public var metadata: [(key: String, value: String)]
    /// `seed_source`, sorted by path.
    public var sources: [Source]
    /// The entities of the `mapping` metadata, when there is one that this version reads.
    public var mapping: MappingSummary?

    /// The application id a seed carries ("SEED").
    public static let seedApplicationID = 0x5345_4544
    /// The tables that describe a seed rather than hold its records.
    public static let metadataTables: Set<String> = ["seed_metadata", "seed_source"]

    /// `true` when the file has a `seed_metadata` table and carries the seed application id, or
    /// the app's own (a seed built on the app's schema keeps its `application_id`, docs/seed.md).
    public var isSeed: Bool { !metadata.isEmpty && (applicationID == Self.seedApplicationID || mapping?.schemaMode != nil) }

    /// The value of a metadata key.
    public func metadata(_ key: String) -> String? {
        metadata.first { $0.key == key }?.value
    }

    /// Reads the catalog of the SQLite file at `path`, read-only; with `countingRows`, each
    /// table's row count too.
    ///
    /// Throws `SeedFileError` when the file is missing, unreadable or not an SQLite database.
    public static func read(_ path: String, countingRows: Bool = false) throws(SeedFileError) -> SeedCatalog {
        let queue = try SeedFile.open(path)
        do {
            return try queue.read { db in
                var catalog = try read(db, path: path)
                if countingRows {
                    for index in catalog.tables.indices {
                        catalog.tables[index].rows = try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM \(SQLText.quote(catalog.tables[index].name))")
                    }
                    for index in catalog.searchTables.indices {
                        catalog.searchTables[index].rows = try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM \(SQLText.quote(catalog.searchTables[index].name))")
                    }
                }
                return catalog
            }
        } catch {
            throw SeedFileError(path: path, underlying: error)
        }
    }

    /// Reads the catalog of the open database `db`.
    static func read(_ db: Database, path: String) throws -> SeedCatalog {
        let names = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
                """)
        let searchTables = try searchTables(db)
        let indexTables = Set(
            searchTables.flatMap { search in [search.name] + SearchEngine.shadowSuffixes.map { search.name + "_" + $0 } })
        var tables: [Table] = []
        var hasMetadata = false, hasSources = false
        for name in names {
            if name == "seed_metadata" { hasMetadata = true }
            if name == "seed_source" { hasSources = true }
            if metadataTables.contains(name) || indexTables.contains(name) { continue }
            tables.append(try table(name, db: db))
        }
        let indexes = try Row.fetchAll(
            db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        )
        .map { Index(name: $0[0], table: $0[1], sql: $0[2]) }
        var metadata: [(key: String, value: String)] = []
        if hasMetadata {
            metadata = try Row.fetchAll(db, sql: "SELECT key, value FROM seed_metadata ORDER BY key")
                .map { (key: $0[0] ?? "", value: $0[1] ?? "") }
        }
        var sources: [Source] = []
        if hasSources {
            sources = try Row.fetchAll(db, sql: "SELECT path, sha256, bytes, records FROM seed_source ORDER BY path")
                .map { Source(path: $0[0] ?? "", sha256: $0[1] ?? "", bytes: $0[2] ?? 0, records: $0[3] ?? 0) }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return SeedCatalog(
            path: path, fileSize: size,
            userVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
            applicationID: try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
            tables: tables, searchTables: searchTables, indexes: indexes, metadata: metadata, sources: sources,
            mapping: metadata.first { $0.key == "mapping" }.flatMap { MappingSummary(json: $0.value) })
    }

    /// The file's FTS tables, by the module their `CREATE VIRTUAL TABLE` names.
    private static func searchTables(_ db: Database) throws -> [SearchTable] {
        let virtual = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
        let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        return virtual.compactMap { row in
            let sql: String = row[1] ?? ""
            guard let using = sql.range(of: " USING ", options: .caseInsensitive) else { return nil }
            let module = sql[using.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }.lowercased()
            guard ["fts3", "fts4", "fts5"].contains(module) else { return nil }
            let name: String = row[0]
            var table = SearchTable(name: name, engine: module)
            table.columns = (try? String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name])) ?? []
            table.definition = ([sql] + triggers.filter { ($0[0] as String).hasPrefix(name + "_") }.map { $0[1] ?? "" })
                .joined(separator: ";\n")
            return table
        }
    }

    private static func table(_ name: String, db: Database) throws -> Table {
        let info = try Row.fetchAll(db, sql: "SELECT name, type, pk, \"notnull\" FROM pragma_table_info(?)", arguments: [name])
        var columns: [Column] = []
        var keyed: [(Int, String)] = []
        for row in info {
            let column: String = row[0]
            let position: Int = row[2]
            if position > 0 { keyed.append((position, column)) }
            columns.append(Column(name: column, type: row[1] ?? "", notNull: row[3] == 1))
        }
        var foreignKeys: [ForeignKey] = []
        let keys = try Row.fetchAll(
            db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [name])
        for key in keys {
            let id: Int = key[0]
            if foreignKeys.count <= id { foreignKeys.append(ForeignKey(columns: [], target: key[1], targetColumns: [])) }
            foreignKeys[foreignKeys.count - 1].columns.append(key[2])
            if let to: String = key[3] { foreignKeys[foreignKeys.count - 1].targetColumns.append(to) }
        }
        return Table(
            name: name, columns: columns, primaryKey: keyed.sorted { $0.0 < $1.0 }.map(\.1), foreignKeys: foreignKeys)
    }
}

/// A seed file that cannot be read: missing, unreadable, or not SQLite.
public struct SeedFileError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong, for people.
    public var reason: String

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, underlying: any Error) {
        self.path = path
        if let error = underlying as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: reason = "not an SQLite database"
            case .SQLITE_CANTOPEN: reason = "cannot open the file"
            default: reason = error.message ?? "\(error)"
            }
        } else {
            reason = "\(underlying)"
        }
    }

    public var description: String { "\(path): error: \(reason)" }
}
