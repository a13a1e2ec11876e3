import Foundation
import GRDB
import SeederCore

/// Makes the seed file (docs/seed.md) around the rows a build merges into it: the schema in mapping
/// order before the first row, then, once every row is final, the join tables' rows, metadata
/// and indexes; then checks it, syncs it and renames it over the output (through a vacuumed copy
/// when it holds a free page). Until that rename the previous output is untouched.
struct SeedAssembler {
    let mapping: Mapping
    let schema: SeedSchema
    let layouts: [RowLayout]
    let links: [[LinkLayout?]]

    /// The assembler of `mapping`'s seed: its schema, and the side and link tables of its rows.
    init(mapping: Mapping) {
        self.mapping = mapping
        schema = SeedSchema(mapping: mapping)
        layouts = RowLayout.all(for: mapping)
        links = LinkLayout.all(for: mapping)
    }

    /// Creates the seed's tables in `db`'s main database, in mapping order. `NOT NULL` waits for
    /// `finish`: a first occurrence may lack what a later one or a link supplies, and a row that
    /// still lacks it is an error that no seed is written with (`ReferenceResolver`).
    func createTables(_ db: Database) throws {
        for statement in SeedSchema.metadataTables + schema.tables.map({ SeedSchema.createTable($0, constrained: false) }) {
            try db.execute(sql: statement)
        }
    }

    /// Finishes the seed in `db` (the connection that built its rows, with the working database
    /// attached as `work`), in one transaction: join-table rows, `metadata` and `sources`
    /// (`seed_source`: path, sha256, bytes, records), the full schema, indexes; then commits,
    /// detaches `work`, checks the file (unless `checks` is false: a seed with search tables is
    /// checked once they are filled, `SearchIndexer`) and, if it holds a free page, vacuums it
    /// into `vacuumPath`. Returns whether the finished file is the vacuumed copy.
    func finish(
        _ db: Database, metadata: [(String, String)], sources: [SeedSource], vacuumPath: String, checks: Bool = true
    ) throws -> Bool {
        try db.execute(sql: "BEGIN")
        for link in links.flatMap({ $0 }).compactMap({ $0 }) {
            guard case let .joinTable(join) = link.relationship.storage else { continue }
            var columns = join.ownerColumns + join.targetColumns
            var selected = link.ownerColumns + link.targetColumns
            if let position = join.positionColumn {
                columns.append(position)
                selected.append("_position")
            }
            try db.execute(
                sql: """
                    INSERT INTO "main".\(SQLText.quote(join.name)) (\(SQLText.list(columns))) \
                    SELECT \(SQLText.list(selected)) FROM \(link.table) ORDER BY "_seq"
                    """)
        }
        for (key, value) in metadata {
            try db.execute(sql: "INSERT INTO \"seed_metadata\" (\"key\", \"value\") VALUES (?, ?)", arguments: [key, value])
        }
        // Prepared once: a pages dump has a file per hundred records.
        let source = try db.makeStatement(sql: #"INSERT INTO "seed_source" ("path", "sha256", "bytes", "records") VALUES (?, ?, ?, ?)"#)
        for row in sources {
            try source.execute(arguments: [row.path, row.digest.hex, row.bytes, row.records])
        }
        try constrain(db)
        // Less those the reference checks built (`ReferenceResolver.checkForeignKey`).
        let built = Set(try String.fetchAll(db, sql: "SELECT \"name\" FROM \"sqlite_schema\" WHERE \"type\" = 'index'"))
        try Self.createIndexes(schema.indexes.filter { !built.contains($0.name) }, in: db)
        try db.execute(sql: "PRAGMA user_version = \(mapping.schemaVersion)")
        try db.execute(sql: "PRAGMA application_id = \(SeedAssembler.applicationID)")
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "DETACH DATABASE \"work\"")
        if checks { try Self.check(db) }
        // Built by appending, the seed usually holds no free page and is final as it is; merges
        // that freed pages send it through a vacuumed copy instead.
        guard try Int.fetchOne(db, sql: "PRAGMA freelist_count") != 0 else { return false }
        try db.execute(sql: "VACUUM INTO ?", arguments: [vacuumPath])
        return true
    }

    /// Creates `indexes` in `db`'s seed with 2 MiB of page cache, then gives the connection its
    /// own back: SQLite's sorter then sorts runs that stay in the CPU's caches and merges them,
    /// faster than with the load's 16 MiB (bench/README.md).
    static func createIndexes(_ indexes: [SeedSchema.Index], in db: Database) throws {
        guard !indexes.isEmpty else { return }
        let cache = try Int.fetchOne(db, sql: "PRAGMA main.cache_size") ?? -2000
        try db.execute(sql: "PRAGMA main.cache_size = -2048")
        for index in indexes { try db.execute(sql: SeedSchema.createIndex(index)) }
        try db.execute(sql: "PRAGMA main.cache_size = \(cache)")
    }

    /// Gives each entity table its `NOT NULL` constraints, now that its rows are final, by
    /// rewriting its `CREATE TABLE` text: the procedure of SQLite's ALTER TABLE documentation
    /// for schema changes that leave the stored rows as they are ("Making Other Kinds Of Table
    /// Schema Changes"). `check`'s `quick_check` then verifies every constraint on every row.
    private func constrain(_ db: Database) throws {
        let changed = schema.tables.filter { SeedSchema.createTable($0, constrained: false) != SeedSchema.createTable($0) }
        guard !changed.isEmpty else { return }
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        for table in changed {
            try db.execute(
                sql: "UPDATE \"sqlite_schema\" SET \"sql\" = ? WHERE \"type\" = 'table' AND \"name\" = ?",
                arguments: [SeedSchema.createTable(table), table.name])
        }
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }

    /// `PRAGMA application_id`: "SEED".
    static let applicationID: Int32 = 0x5345_4544

    /// The finished file passes SQLite's own checks (docs/seed.md): every foreign key names
    /// a row (`foreignKeyViolations`; the load runs with foreign keys off, so this checks the
    /// resolver), and every page and b-tree is sound and every `NOT NULL` holds (`quick_check`).
    ///
    /// `quick_check` is `integrity_check` without comparing each index with its table, which
    /// SQLite itself keeps in step on every insert; that comparison is a large part of a build's
    /// time (bench/README.md). The tests run the full `integrity_check` on seeds.
    ///
    /// The two only read the committed file, so `quick_check` runs on a connection of its own on
    /// another thread while `db` checks the foreign keys: the reading thread is idle by then,
    /// and the checks take the time of the longer one, not of both. A third thread syncs the
    /// file meanwhile, for `publish` (`synced`): its pages are final, and the sync mostly
    /// waits for the disk.
    static func check(_ db: Database) throws {
        guard let path = RawSQLite.path(of: db, schema: "main") else { throw AssemblyError(message: "the seed's file is unknown") }
        nonisolated(unsafe) var integrity: Result<[String], Error> = .success([])
        nonisolated(unsafe) var synced: Result<Void, Error> = .success(())
        let done = DispatchSemaphore(value: 0)
        Thread {
            integrity = Result {
                let reader = try DatabaseQueue(path: path, configuration: readOnly)
                return try reader.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            }
            done.signal()
        }.start()
        Thread {
            synced = Result { try syncFile(path) }
            done.signal()
        }.start()
        let violations = Result { try foreignKeyViolations(db) }
        done.wait()
        done.wait()
        try synced.get()
        guard try violations.get().isEmpty else {
            let first = try violations.get().prefix(3).joined(separator: "; ")
            throw AssemblyError(message: "the seed fails PRAGMA foreign_key_check: \(first)")
        }
        guard try integrity.get() == ["ok"] else {
            throw AssemblyError(message: "the seed fails PRAGMA quick_check: \(try integrity.get().prefix(3).joined(separator: "; "))")
        }
    }

    /// What `PRAGMA foreign_key_check` finds in `db`'s main database, found faster: each foreign
    /// key the file declares (`PRAGMA foreign_key_list`) is checked by looking up each distinct key
    /// once, through the index on its columns that every seed has (docs/seed.md), rather than once
    /// per row: many rows name few parents (a graph's tasks, their projects and users), so this
    /// is no longer the longer of the two checks (bench/README.md). A table where a key may
    /// dangle, or with a key that names no parent columns, is left to the pragma itself, which is
    /// the definition of passing and gives the rows.
    static func foreignKeyViolations(_ db: Database) throws -> [String] {
        var violations: [String] = []
        let tables = try String.fetchAll(db, sql: #"SELECT "name" FROM "main"."sqlite_schema" WHERE "type" = 'table' ORDER BY "rowid""#)
        for table in tables where try keysMayDangle(in: table, db) {
            violations += try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_check(\(SQLText.quote(table)))").map(\.description)
        }
        return violations
    }

    /// Whether a foreign key of `table` names no row, or names no parent columns (then the
    /// pragma decides).
    static func keysMayDangle(in table: String, _ db: Database) throws -> Bool {
        let declared = try Row.fetchAll(
            db, sql: #"SELECT "id", "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY "id", "seq""#, arguments: [table])
        return try Dictionary(grouping: declared, by: { $0["id"] as Int }).values.contains { key in
            let parentColumns = key.compactMap { $0["to"] as String? }
            guard parentColumns.count == key.count else { return true }
            let keys = SQLText.danglingKeys(
                "\"main\".\(SQLText.quote(table))", key.map { $0["from"] },
                parent: "\"main\".\(SQLText.quote(key[0]["table"]))", parentColumns)
            return try Bool.fetchOne(db, sql: "SELECT 1 \(keys) LIMIT 1") ?? false
        }
    }

    private static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    /// Syncs the finished file at `path` unless `check` did (`synced`), renames it over
    /// `output` (`shown` in messages), then syncs the directory.
    static func publish(_ path: String, as output: String, shown: String, synced: Bool) throws {
        if !synced { try syncFile(path) }
        guard rename(path, output) == 0 else { throw OutputError.cannot("replace", shown, error: errno) }
        try syncFile(PathText.directory(of: output).isEmpty ? "." : PathText.directory(of: output))
    }

    /// `fsync` on a file or directory.
    static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw OutputError.cannot("open", path, error: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw OutputError.cannot("write", path, error: errno) }
    }
}

/// The assembled seed failed its own checks: a seeder bug, never the user's data.
struct AssemblyError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
