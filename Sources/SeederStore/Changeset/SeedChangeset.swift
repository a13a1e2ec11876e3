import CSQLite
import Foundation
import GRDB
import SeedInstaller
import SeederCore
import SeederFiles

/// The difference of two seeds as a SQLite session changeset (docs/commands.md, `diff
/// --changeset`): the inserts, updates and deletes that turn the old seed's rows into the new
/// one's, in the format `sqlite3changeset_apply` reads, so that an app patches the copy it
/// installed instead of copying the new seed over it.
///
/// ```swift
/// let changeset = try SeedChangeset.write(old: "release.sqlite", new: "seed.sqlite", to: "release.changeset")
/// print(changeset.bytes, changeset.tables.map(\.table))
/// ```
///
/// Made by the session extension's `sqlite3session_diff`, table by table, with the new seed open
/// as `main` and the old one attached: each table's rows are paired by its declared primary key,
/// which for a seed's entity is its identity and for a join table its owner and target keys, the
/// pairs `seeder diff` uses; where a table's key is a row number (`identity: none`'s `_pk`, the
/// app schema's auto-numbered ids) the changeset follows the number too, since the rows that
/// point at it do. Every ordinary table both seeds hold is covered, `seed_metadata` and
/// `seed_source` first, so that an installer learns which seed a changeset leads from and to
/// before reading any rows. Search tables are not: their index is keyed by the content table's
/// rowids, which differ between two copies, so the app rebuilds each one whose content table
/// changed (`searchTablesToRebuild`; `SeedInstaller` does).
///
/// The session holds every change in memory until the file is written: memory grows with the
/// difference, not with the seeds.
package struct SeedChangeset: Sendable {
    /// What the changeset does to one table.
    package struct TableChanges: Sendable, Hashable {
        package var table: String
        package var inserts = 0
        package var updates = 0
        package var deletes = 0

        /// Rows inserted, updated or deleted.
        package var changes: Int { inserts + updates + deletes }
    }

    /// The changeset's size in bytes (0 when the seeds hold the same rows).
    package var bytes: Int
    /// The tables it changes, in its order, `seed_metadata` first.
    package var tables: [TableChanges]
    /// The search tables whose content tables it changes: the app rebuilds them after applying
    /// it (`INSERT INTO s(s) VALUES('rebuild')`).
    package var searchTablesToRebuild: [String]

    /// The tables it changes whose rows are keyed by row numbers, not by the records' identities
    /// (`identity: none`'s source order, the app schema's auto-numbered keys): it rewrites them by
    /// number, so an app that writes to them loses its rows or has them taken over
    /// (docs/guides/updating-an-installed-seed.md, Limits).
    package var tablesKeyedByRowNumber: [String] = []

    /// Rows inserted, updated or deleted, in all tables.
    package var changes: Int { tables.reduce(0) { $0 + $1.changes } }

    /// Writes the changeset that turns the seed at `old` into the seed at `new` to `path`,
    /// atomically (`AtomicFile`). `willCreate` is called with the temporary file's path first.
    ///
    /// Throws `SeedChangesetError` when the difference cannot be a changeset (a schema change,
    /// rows that differ in a table without a primary key, a search table that holds its own
    /// text) or `path` may not be written, and `SeedFileError` when a seed cannot be read.
    package static func write(old: String, new: String, to path: String, willCreate: ([String]) -> Void = { _ in }) throws -> SeedChangeset
    {
        try checkDestination(path, old: old, new: new)
        let oldQueue = try SeedFile.open(old), newQueue = try SeedFile.open(new)
        let oldCatalog = try oldQueue.read { try SeedCatalog.read($0, path: old) }
        try oldQueue.close()
        let (bytes, changeset) = try newQueue.inDatabase { db -> ([UInt8], SeedChangeset) in
            let newCatalog = try SeedCatalog.read(db, path: new)
            let plan = try SeedDiffer(old: old, new: new).plan(oldCatalog, newCatalog)
            guard plan.schema.isEmpty else { throw SeedChangesetError.schemaChanged(plan.schema) }
            // Core Data keeps its own counters and model metadata in the store: rows patched in
            // behind its back let it hand out keys the seed already holds.
            if newCatalog.mapping?.schemaMode == SchemaFit.Mode.coreData.rawValue { throw SeedChangesetError.coreDataStore }
            try db.execute(sql: "ATTACH DATABASE ? AS \(attached)", arguments: [SeedFile.readOnlyName(old)])
            defer { try? db.execute(sql: "DETACH DATABASE \(attached)") }
            let sources = try sourcesCompared(db)
            defer { if sources != attached { try? db.execute(sql: "DROP TABLE \(sources).\"seed_source\"") } }
            var made = try make(
                db, tables: try tables(db, catalog: newCatalog, order: plan.tables.map(\.table)),
                search: try searchTables(db, catalog: newCatalog), sourcesFrom: sources)
            let numbered = rowNumberTables(newCatalog.mapping)
            made.1.tablesKeyedByRowNumber = made.1.tables.map(\.table).filter(numbered.contains)
            return made
        }
        try AtomicFile.write(bytes, to: path, willCreate: willCreate)
        return changeset
    }

    /// The tables whose primary key is a row number: an `identity: none` entity's `_pk` (source
    /// order), or the app schema's numbers seeder gave (docs/seed.md).
    private static func rowNumberTables(_ mapping: MappingSummary?) -> Set<String> {
        guard let mapping else { return [] }
        return Set(mapping.entities.filter { !$0.hasIdentity }.map(\.table)).union(mapping.rowNumbers.keys)
    }

    /// The schema name of the old seed on the new seed's connection.
    private static let attached = "seeder_old"

    /// The schema whose `seed_source` the new seed's is compared with: the old seed's, or, when
    /// the old seed has the first layout (a row per file, four columns) and the new one today's,
    /// a temporary copy of the old rows in today's layout, each a file's (`SourceLayout`; the
    /// `temp` schema, the one a read-only connection may write): the
    /// changeset then deletes them and inserts the new rows, and an installer upgrades its table
    /// before applying it (docs/guides/updating-an-installed-seed.md). A new seed of the first
    /// layout after an old one of today's cannot be written as rows of the old one's table.
    private static func sourcesCompared(_ db: Database) throws -> String {
        guard let new = try SeedSources.layout(db, schema: "main"), let old = try SeedSources.layout(db, schema: attached),
            new.columns != old.columns
        else { return attached }
        guard SourceLayout.isFileLayout(old.columns), new.columns == SourceLayout.columns else {
            throw SeedChangesetError.sourceLayoutChanged(old: old.columns, new: new.columns)
        }
        try db.execute(sql: SourceLayout.upgradedCopy(in: "temp", from: "\(attached).\"seed_source\""))
        return "temp"
    }

    /// The tables the changeset covers, in its order: the metadata first, then every other table
    /// both seeds hold, in `diff`'s `order` (entities in mapping order, join tables, the others
    /// by name), then the app's bookkeeping tables it leaves out. A table without a primary key,
    /// which a session cannot pair, must hold the same rows in both.
    private static func tables(_ db: Database, catalog: SeedCatalog, order: [String]) throws -> [String] {
        var tables = try ["seed_metadata", "seed_source"].filter { try exists($0, db) }
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for table in catalog.tables.sorted(by: { position[$0.name] ?? order.count < position[$1.name] ?? order.count }) {
            guard table.primaryKey.isEmpty else {
                try checkStorageClasses(table, db)
                tables.append(table.name)
                continue
            }
            // A plain rowid table (Room's `android_metadata`): its rows have no identity.
            let quoted = SQLText.quote(table.name)
            let differing =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT count(*) FROM (SELECT * FROM main.\(quoted) EXCEPT SELECT * FROM \(attached).\(quoted)))
                             + (SELECT count(*) FROM (SELECT * FROM \(attached).\(quoted) EXCEPT SELECT * FROM main.\(quoted)))
                             + abs((SELECT count(*) FROM main.\(quoted)) - (SELECT count(*) FROM \(attached).\(quoted)))
                        """) ?? 0
            if differing > 0 { throw SeedChangesetError.unkeyedTable(table.name) }
        }
        return tables
    }

    /// A value that changes only its storage class, integer 1 to real 1.0, is missed by the
    /// session's diff, which compares with `IS NOT` (text to blob, never equal, is not). Only a
    /// column without affinity (no declared type, or `BLOB`) can hold both for one record: any
    /// other converts one to the other.
    private static func checkStorageClasses(_ table: SeedCatalog.Table, _ db: Database) throws {
        let untyped = table.columns.filter { column in
            let type = column.type.uppercased()
            return !["INT", "CHAR", "CLOB", "TEXT", "REAL", "FLOA", "DOUB"].contains { type.contains($0) }
                && (type.isEmpty || type.contains("BLOB"))
        }
        guard !untyped.isEmpty else { return }
        let quoted = SQLText.quote(table.name)
        let pairs = table.primaryKey.map { "n.\(SQLText.quote($0)) = o.\(SQLText.quote($0))" }.joined(separator: " AND ")
        let differing = untyped.map { column -> String in
            let new = "n." + SQLText.quote(column.name), old = "o." + SQLText.quote(column.name)
            return "(\(new) = \(old) AND typeof(\(new)) != typeof(\(old)))"
        }
        .joined(separator: " OR ")
        let count =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM main.\(quoted) AS n JOIN \(attached).\(quoted) AS o ON \(pairs) WHERE \(differing)") ?? 0
        if count > 0 { throw SeedChangesetError.storageClassChanged(table.name, rows: count) }
    }

    private static func exists(_ table: String, _ db: Database) throws -> Bool {
        try ["main", attached].allSatisfy { schema in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(schema).sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
                == 1
        }
    }

    /// A search table and the content table it is rebuilt from (`nil` when it holds its own text).
    private struct Search {
        var name: String
        var contentTable: String?
        var shadowTables: [String]
    }

    private static func searchTables(_ db: Database, catalog: SeedCatalog) throws -> [Search] {
        try catalog.searchTables.map { table in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM main.sqlite_master WHERE name = ?", arguments: [table.name]) ?? ""
            let shadows = try SearchEngine.shadowSuffixes.map { table.name + "_" + $0 }.filter { try exists($0, db) }
            return Search(name: table.name, contentTable: ExternalContent.table(of: sql), shadowTables: shadows)
        }
    }

    /// Runs the session's diff over `tables` and returns the changeset's bytes and what it does.
    private static func make(_ db: Database, tables: [String], search: [Search], sourcesFrom: String) throws -> ([UInt8], SeedChangeset) {
        guard let connection = db.sqliteConnection else { throw SeedChangesetError.sqlite("no connection") }
        // A search table that holds its own text cannot be rebuilt: its index must not differ.
        for table in search where table.contentTable == nil {
            let session = try Session(connection, tables: table.shadowTables)
            defer { session.close() }
            if !session.isEmpty { throw SeedChangesetError.searchTableHoldsText(table.name) }
        }
        let session = try Session(connection, tables: tables, from: { $0 == SourceLayout.table ? sourcesFrom : attached })
        defer { session.close() }
        var bytes = try session.changeset()
        if tables.first == "seed_metadata" { bytes = try StartingSeedPin.pinned(bytes, db: db) }
        var summary = SeedChangeset(bytes: bytes.count, tables: try changes(in: bytes), searchTablesToRebuild: [])
        let changed = Set(summary.tables.map(\.table))
        summary.searchTablesToRebuild = search.filter { $0.contentTable.map(changed.contains) ?? false }.map(\.name)
        return (bytes, summary)
    }

    /// Counts each table's inserts, updates and deletes in `bytes`, a changeset; an update that
    /// changes nothing (`StartingSeedPin`'s) is not counted.
    static func changes(in bytes: [UInt8]) throws -> [TableChanges] {
        guard !bytes.isEmpty else { return [] }
        var tables: [TableChanges] = []
        try bytes.withUnsafeBytes { buffer in
            var iterator: OpaquePointer?
            var code = sqlite3changeset_start(&iterator, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            guard code == SQLITE_OK else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
            defer { sqlite3changeset_finalize(iterator) }
            while sqlite3changeset_next(iterator) == SQLITE_ROW {
                var name: UnsafePointer<CChar>?
                var columns: Int32 = 0, operation: Int32 = 0, indirect: Int32 = 0
                code = sqlite3changeset_op(iterator, &name, &columns, &operation, &indirect)
                guard code == SQLITE_OK, let name else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
                if operation == SQLITE_UPDATE, isNoOpUpdate(iterator, columns: columns) { continue }
                let table = String(cString: name)
                if tables.last?.table != table { tables.append(TableChanges(table: table)) }
                switch operation {
                case SQLITE_INSERT: tables[tables.count - 1].inserts += 1
                case SQLITE_UPDATE: tables[tables.count - 1].updates += 1
                default: tables[tables.count - 1].deletes += 1
                }
            }
        }
        return tables
    }

    /// The changeset file may be written: nothing, an empty file or an earlier changeset, and
    /// neither seed, as for every file a command writes (docs/commands.md, Files a command
    /// touches).
    private static func checkDestination(_ path: String, old: String, new: String) throws(OutputError) {
        let status = PathStatus(path)
        if let reason = status.notRegularReason ?? status.processFileReason {
            throw OutputError(.outputRefused, "the changeset \(path) may not be written: \(reason)")
        }
        guard let identity = status.identity else { return }
        for (seed, role) in [(old, "the old seed"), (new, "the new seed")] where PathStatus(seed).identity == identity {
            throw OutputError(.outputRefused, "the changeset \(path) is \(role)")
        }
        if let source = try? FileByteSource(path: path) {
            var header = [UInt8](repeating: 0, count: 4096)
            let count = (try? header.withUnsafeMutableBytes { try source.read(into: $0) }) ?? 0
            header.removeSubrange(count...)
            if header.starts(with: Array("SQLite format 3\0".utf8)) {
                throw OutputError(.outputRefused, "the changeset \(path) may not be written: it is an SQLite database")
            }
            // Only an earlier changeset, or an empty file, is replaced: a mapping or a dump named
            // by mistake is not lost.
            if !header.isEmpty, !isChangeset(path) {
                throw OutputError(
                    .outputRefused,
                    "the changeset \(path) may not be written: the file exists and is not a changeset; remove it or name another file")
            }
        }
    }

    /// Whether the file at `path` is a whole, well-formed changeset (`ChangesetFormat`).
    private static func isChangeset(_ path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        do {
            try ChangesetFormat.check(file)
            return true
        } catch {
            return false
        }
    }
}

/// A session on a connection's `main` database, filled by diffing tables against the attached
/// old seed.
private struct Session {
    private let session: OpaquePointer

    /// A session on `tables`, each diffed against the table of the same name in the schema
    /// `from` gives (the old seed's, by default).
    init(_ connection: OpaquePointer, tables: [String], from schema: (String) -> String = { _ in "seeder_old" }) throws {
        var session: OpaquePointer?
        var code = sqlite3session_create(connection, "main", &session)
        guard code == SQLITE_OK, let session else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
        self.session = session
        for table in tables {
            code = sqlite3session_attach(session, table)
            var message: UnsafeMutablePointer<CChar>?
            if code == SQLITE_OK { code = sqlite3session_diff(session, schema(table), table, &message) }
            guard code == SQLITE_OK else {
                let reason = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
                sqlite3_free(message)
                sqlite3session_delete(session)
                throw SeedChangesetError.sqlite("\(table): \(reason)")
            }
        }
    }

    var isEmpty: Bool { sqlite3session_isempty(session) != 0 }

    func changeset() throws -> [UInt8] {
        var size: Int32 = 0
        var buffer: UnsafeMutableRawPointer?
        let code = sqlite3session_changeset(session, &size, &buffer)
        defer { sqlite3_free(buffer) }
        guard code == SQLITE_OK else { throw SeedChangesetError.sqlite(String(cString: sqlite3_errstr(code))) }
        guard let buffer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    func close() { sqlite3session_delete(session) }
}

/// Why two seeds' difference cannot be written as a changeset (`diff --changeset`: exit 2).
package enum SeedChangesetError: Error, CustomStringConvertible {
    /// Tables, columns, keys, indexes, search tables or `user_version` differ: a changeset holds
    /// rows only.
    case schemaChanged([SchemaChange])
    /// A table without a primary key holds different rows: its rows cannot be paired.
    case unkeyedTable(String)
    /// A search table that holds its own text (no external content) differs: it cannot be
    /// rebuilt from another table.
    case searchTableHoldsText(String)
    /// Values of a column without a declared type changed only their storage class (1 to 1.0).
    case storageClassChanged(String, rows: Int)
    /// The seeds are Core Data stores, which are installed whole.
    case coreDataStore
    /// The new seed's `seed_source` has the first layout and the old one's today's
    /// (`SourceLayout`): its rows cannot be written into the old one's table.
    case sourceLayoutChanged(old: [String], new: [String])
    /// SQLite's session extension failed.
    case sqlite(String)

    package var description: String {
        switch self {
        case let .schemaChanged(changes):
            let shown = changes.prefix(3).map { SeedDiffWriter.textLine($0) }.joined(separator: "; ")
            return "cannot write a changeset: the schema changed (\(shown)\(changes.count > 3 ? "; and \(changes.count - 3) more" : "")), "
                + "and a changeset holds rows only; ship the new seed whole"
        case let .unkeyedTable(table):
            return "cannot write a changeset: table '\(table)' has no primary key and its rows differ, so they cannot be paired"
        case let .searchTableHoldsText(table):
            return "cannot write a changeset: search table '\(table)' holds its own text and differs; only a search table "
                + "with external content can be rebuilt after a patch"
        case let .storageClassChanged(table, rows):
            return
                "cannot write a changeset: in table '\(table)', \(Wording.count(rows, "row changes", plural: "rows change")) a value's storage class "
                + "only (integer 1 to real 1.0, say), which SQLite's session diff does not see"
        case .coreDataStore:
            return "cannot write a changeset: the seeds are Core Data stores, and Core Data keeps its own counters (Z_PRIMARYKEY) "
                + "that a patch would change behind its back; ship the new seed whole"
        case let .sourceLayoutChanged(old, new):
            return "cannot write a changeset: the old seed's seed_source has columns (\(old.joined(separator: ", "))), "
                + "the new seed's (\(new.joined(separator: ", "))), an older layout; build the new seed with this seeder, "
                + "or ship it whole"
        case let .sqlite(message):
            return "cannot write a changeset: \(message)"
        }
    }
}
