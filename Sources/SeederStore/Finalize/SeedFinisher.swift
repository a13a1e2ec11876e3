import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Finishes the seed file (docs/seed.md) around the rows a build merged into it, once every row
/// is final: the join tables' rows, metadata and sources, the indexes, the constraints. What
/// happens to the file then is `FinishedFile`'s.
struct SeedFinisher {
    let layout: SeedLayout

    /// Finishes the seed in `db` (the connection that built its rows, with the working database
    /// attached as `work`), in one transaction: join-table rows, `metadata` and `sources`
    /// (`seed_source`: path, files, sha256, bytes, records), `indexes` (those the resolver did not
    /// build; `indexed` hears how many are made as they are), the full schema; then commits and
    /// detaches `work`.
    func finish(
        _ db: Database, metadata: [(String, String)], sources: [SourceRow], indexes: [SeedSchema.Index],
        indexed: (_ made: Int, _ of: Int) -> Void = { _, _ in }
    ) throws {
        try db.execute(sql: "BEGIN")
        for link in layout.links.flatMap({ $0 }).compactMap({ $0 }) {
            guard let join = link.relationship.storage.joinTable else { continue }
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
        // Prepared once: with `provenance: files`, a pages dump has a row per hundred records.
        let source = try db.makeStatement(
            sql: #"INSERT INTO "seed_source" ("path", "files", "sha256", "bytes", "records") VALUES (?, ?, ?, ?, ?)"#)
        for row in sources {
            try source.execute(arguments: [row.path, row.files, row.sha256, row.bytes, row.records])
        }
        indexed(0, indexes.count)
        try Self.createIndexes(indexes, in: db) { indexed($0, indexes.count) }
        // Once the indexes are made: SQLite walks every declared foreign key at each `CREATE`.
        try constrain(db)
        try db.execute(sql: "PRAGMA user_version = \(layout.mapping.schemaVersion)")
        try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "DETACH DATABASE \"work\"")
    }

    /// Creates `indexes` in `db`'s seed with 2 MiB of page cache besides the schema's, then gives
    /// the connection its own back: SQLite's sorter then sorts runs that stay in the CPU's caches
    /// and merges them, faster than with the load's 16 MiB (bench/README.md). Each `CREATE INDEX`
    /// reads the whole schema back, which would not stay in 2 MiB when it has thousands of tables.
    static func createIndexes(_ indexes: [SeedSchema.Index], in db: Database, made: (Int) -> Void = { _ in }) throws {
        guard !indexes.isEmpty else { return }
        let cache = try Int.fetchOne(db, sql: "PRAGMA main.cache_size") ?? -2000
        // The schema's text, and a cell's worth of its other columns a row, once every index is
        // in: its pages are read in order, so a cache smaller than all of them keeps none.
        let statements = indexes.map(SeedSchema.createIndex)
        let schemaBytes = try Int.fetchOne(db, sql: #"SELECT TOTAL(LENGTH("sql")) + 64 * COUNT(*) FROM "main"."sqlite_schema""#) ?? 0
        let added = statements.reduce(0) { $0 + $1.utf8.count + 64 }
        try db.execute(sql: "PRAGMA main.cache_size = -\(2048 + (schemaBytes + added) * 5 / 4 / 1024)")
        for (done, statement) in statements.enumerated() {
            try db.execute(sql: statement)
            made(done + 1)
        }
        try db.execute(sql: "PRAGMA main.cache_size = \(cache)")
    }

    /// Gives each table its `NOT NULL` constraints and foreign keys, now that its rows are final, by
    /// rewriting its `CREATE TABLE` text: the procedure of SQLite's ALTER TABLE documentation
    /// for schema changes that leave the stored rows as they are ("Making Other Kinds Of Table
    /// Schema Changes"). `SeedChecks.check` then verifies every constraint on every row.
    private func constrain(_ db: Database) throws {
        // Each table's text as it is and as it becomes, made once.
        let changed = layout.schema.tables.compactMap { table in
            let constrained = SeedSchema.createTable(table)
            return SeedSchema.createTable(table, constrained: false) == constrained ? nil : (name: table.name, sql: constrained)
        }
        guard !changed.isEmpty else { return }
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        // Each row found by its rowid: the schema has no index on names, and thousands of tables
        // would each be a scan of it.
        let rowids = try Dictionary(
            Row.fetchAll(db, sql: #"SELECT "name", "rowid" FROM "main"."sqlite_schema" WHERE "type" = 'table'"#).map {
                ($0[0] as String, $0[1] as Int64)
            }, uniquingKeysWith: { first, _ in first })
        try db.execute(sql: "PRAGMA writable_schema = ON")
        let update = try db.makeStatement(sql: #"UPDATE "main"."sqlite_schema" SET "sql" = ? WHERE "rowid" = ?"#)
        for table in changed {
            guard let rowid = rowids[table.name] else { throw AssemblyError(message: "the seed has no table \(table.name)") }
            try update.execute(arguments: [table.sql, rowid])
        }
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }

    /// `PRAGMA application_id`: "SEED".
    static let applicationID: Int32 = 0x5345_4544
}
