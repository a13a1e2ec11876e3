import Foundation
import GRDB
import SeederCore
import SeederFiles

/// What `inspect` and `diff` know of one SQLite file: its pragmas, its tables with columns and
/// primary keys, its indexes and, for a seed, the metadata, the sources and the mapping
/// description (docs/seed.md, Metadata). Any SQLite file can be read; `isSeed` tells a seed.
package struct SeedCatalog: Sendable {
    /// A table of the file, as `sqlite_master` and `PRAGMA table_info` describe it.
    package struct Table: Sendable, Hashable {
        package var name: String
        package var columns: [Column]
        /// The declared primary key's columns in key order; empty when there is none (a plain
        /// rowid table, whose rowid is no identity).
        package var primaryKey: [String]
        /// The number of rows, when the catalog was read with `countingRows`.
        package var rows: Int?
        /// The foreign keys the table declares (`REFERENCES`), in declaration order.
        package var foreignKeys: [ForeignKey] = []
    }

    /// A declared foreign key: `columns` of a table refer to `targetColumns` of `target` (empty
    /// for its primary key).
    package struct ForeignKey: Sendable, Hashable {
        package var columns: [String]
        package var target: String
        package var targetColumns: [String]
    }

    /// A full-text table (`CREATE VIRTUAL TABLE ... USING fts5(...)`, fts4, fts3): shown once,
    /// as what it indexes; its shadow tables hold the index, not records (docs/commands.md).
    package struct SearchTable: Sendable, Hashable {
        package var name: String
        /// The module, lowercased: `fts5`.
        package var engine: String
        /// The number of rows it indexes, when the catalog was read with `countingRows`.
        package var rows: Int?
        /// Its `CREATE VIRTUAL TABLE` and the triggers named after it, which `diff` compares.
        package var definition = ""
        /// Its columns, in order.
        package var columns: [String] = []
    }

    /// A column with its declared type.
    package struct Column: Sendable, Hashable {
        package var name: String
        /// The declared type as written (`INTEGER`, `TEXT`; empty for none).
        package var type: String
        /// Declared `NOT NULL`.
        package var notNull = false
    }

    /// An index, by its SQL text (automatic indexes have none and are left out).
    package struct Index: Sendable, Hashable {
        package var name: String
        package var table: String
        package var sql: String
    }

    /// A `seed_source` row, of either layout (`SeedSources`).
    package typealias Source = SourceRow

    /// The file's path as given.
    package var path: String
    /// Its size in bytes.
    package var fileSize: Int
    /// `PRAGMA user_version`: a seed's `schemaVersion`.
    package var userVersion: Int
    /// `PRAGMA application_id`: `0x53454544` for a seed.
    package var applicationID: Int
    /// The data tables, sorted by name: every table but SQLite's own and the two metadata tables.
    package var tables: [Table]
    /// Full-text tables, sorted by name; neither they nor their shadow tables are in `tables`.
    package var searchTables: [SearchTable] = []
    /// Indexes with SQL text, sorted by name.
    package var indexes: [Index]
    /// `seed_metadata`, sorted by key; empty for a file that is no seed.
    package var metadata: [(key: String, value: String)]
    /// `seed_source`, sorted by path.
    package var sources: [Source]
    /// The entities of the `mapping` metadata, when there is one that this version reads.
    package var mapping: MappingSummary?

    /// The application id a seed carries ("SEED").
    package static let seedApplicationID = 0x5345_4544
    /// The tables that describe a seed rather than hold its records.
    package static let metadataTables: Set<String> = ["seed_metadata", "seed_source"]

    /// `true` when the file has a `seed_metadata` table and carries the seed application id, or
    /// the app's own (a seed built on the app's schema keeps its `application_id`, docs/seed.md).
    package var isSeed: Bool { !metadata.isEmpty && (applicationID == Self.seedApplicationID || mapping?.schemaMode != nil) }

    /// The value of a metadata key.
    package func metadata(_ key: String) -> String? {
        metadata.first { $0.key == key }?.value
    }

    /// Reads the catalog of the SQLite file at `path`, read-only; with `countingRows`, each
    /// table's row count too.
    ///
    /// Throws `SeedFileError` when the file is missing, unreadable or not an SQLite database.
    package static func read(_ path: String, countingRows: Bool = false) throws(SeedFileError) -> SeedCatalog {
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
        } catch let error as SeedFileError {
            throw error
        } catch {
            throw SeedFileError(path: path, underlying: error)
        }
    }

    /// Reads the catalog of the open database `db`. A value of another type than the seed's
    /// format gives its column is a `SeedFileError` that places it (`CheckedRow`).
    static func read(_ db: Database, path: String) throws -> SeedCatalog {
        let names = try CheckedRow.fetchAll(
            db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
            path: path, table: "sqlite_master"
        )
        .map { row throws(SeedFileError) in try row.requiredText(0, "name") }
        let searchTables = try searchTables(db, path: path)
        let indexTables = Set(
            searchTables.flatMap { search in [search.name] + SearchEngine.shadowSuffixes.map { search.name + "_" + $0 } })
        var tables: [Table] = []
        var hasMetadata = false, hasSources = false
        for name in names {
            if name == "seed_metadata" { hasMetadata = true }
            if name == "seed_source" { hasSources = true }
            if metadataTables.contains(name) || indexTables.contains(name) { continue }
            tables.append(try table(name, db: db, path: path))
        }
        let indexes = try CheckedRow.fetchAll(
            db, "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
            path: path, table: "sqlite_master"
        )
        .map { row throws(SeedFileError) in
            Index(name: try row.requiredText(0, "name"), table: try row.requiredText(1, "tbl_name"), sql: try row.requiredText(2, "sql"))
        }
        var metadata: [(key: String, value: String)] = []
        if hasMetadata {
            metadata = try CheckedRow.fetchAll(
                db, "SELECT key, value FROM seed_metadata ORDER BY key", path: path, table: "seed_metadata", keyColumn: (0, "key")
            )
            .map { row throws(SeedFileError) in (key: try row.text(0, "key") ?? "", value: try row.text(1, "value") ?? "") }
        }
        let sources = hasSources ? try SeedSources.read(db, path: path) : []
        // The file's size, not a link's that leads to it (stat, not lstat).
        var info = stat()
        let size = stat(path, &info) == 0 ? Int(info.st_size) : 0
        return SeedCatalog(
            path: path, fileSize: size,
            userVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
            applicationID: try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
            tables: tables, searchTables: searchTables, indexes: indexes, metadata: metadata, sources: sources,
            mapping: metadata.first { $0.key == "mapping" }.flatMap { MappingSummary(json: $0.value) })
    }

    /// The file's FTS tables, by the module their `CREATE VIRTUAL TABLE` names.
    private static func searchTables(_ db: Database, path: String) throws -> [SearchTable] {
        let virtual = try CheckedRow.fetchAll(
            db, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
            path: path, table: "sqlite_master")
        let triggers = try CheckedRow.fetchAll(
            db, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name", path: path, table: "sqlite_master"
        )
        .map { row throws(SeedFileError) in (name: try row.requiredText(0, "name"), sql: try row.text(1, "sql") ?? "") }
        var tables: [SearchTable] = []
        for row in virtual {
            let sql = try row.text(1, "sql") ?? ""
            guard let using = sql.range(of: " USING ", options: .caseInsensitive) else { continue }
            let module = sql[using.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }.lowercased()
            guard ["fts3", "fts4", "fts5"].contains(module) else { continue }
            let name = try row.requiredText(0, "name")
            var table = SearchTable(name: name, engine: module)
            table.columns = (try? String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name])) ?? []
            table.definition = ([sql] + triggers.filter { $0.name.hasPrefix(name + "_") }.map(\.sql)).joined(separator: ";\n")
            tables.append(table)
        }
        return tables
    }

    /// A table's columns and keys, as SQLite's pragmas describe them.
    private static func table(_ name: String, db: Database, path: String) throws -> Table {
        let info = try CheckedRow.fetchAll(
            db, "SELECT name, type, pk, \"notnull\" FROM pragma_table_info(?)", arguments: [name], path: path,
            table: "the columns of \(name)")
        var columns: [Column] = []
        var keyed: [(Int, String)] = []
        for row in info {
            let column = try row.requiredText(0, "name")
            if let position = try row.integer(2, "pk"), position > 0 { keyed.append((position, column)) }
            columns.append(Column(name: column, type: try row.text(1, "type") ?? "", notNull: try row.integer(3, "notnull") == 1))
        }
        var foreignKeys: [ForeignKey] = []
        let keys = try CheckedRow.fetchAll(
            db, "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [name],
            path: path, table: "the foreign keys of \(name)")
        var lastID: Int?
        for key in keys {
            // A new id starts a new key; its rows come in order.
            let id = try key.integer(0, "id")
            if foreignKeys.isEmpty || id != lastID {
                foreignKeys.append(ForeignKey(columns: [], target: try key.text(1, "table") ?? "", targetColumns: []))
            }
            lastID = id
            foreignKeys[foreignKeys.count - 1].columns.append(try key.text(2, "from") ?? "")
            if let to = try key.text(3, "to") { foreignKeys[foreignKeys.count - 1].targetColumns.append(to) }
        }
        return Table(
            name: name, columns: columns, primaryKey: keyed.sorted { $0.0 < $1.0 }.map(\.1), foreignKeys: foreignKeys)
    }
}

/// A seed file that cannot be read: missing, unreadable, or not SQLite.
package struct SeedFileError: Error, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What went wrong, for people.
    package var reason: String

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

    package var description: String { "\(path): error: \(reason)" }
}
