import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Finishes the seed file (docs/seed.md) around the rows a build merged into it, once every row
/// is final: the join tables' rows, metadata and sources, the `NOT NULL` constraints, the
/// indexes. What happens to the file then is `FinishedFile`'s.
struct SeedFinisher {
    let layout: SeedLayout

    /// Finishes the seed in `db` (the connection that built its rows, with the working database
    /// attached as `work`), in one transaction: join-table rows, `metadata` and `sources`
    /// (`seed_source`: path, files, sha256, bytes, records), the full schema, `indexes` (those the
    /// resolver did not build); then commits and detaches `work`.
    func finish(
        _ db: Database, metadata: [(String, String)], sources: [SourceRow], indexes: [SeedSchema.Index], beforeIndexes: () -> Void = {}
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
        try constrain(db)
        beforeIndexes()
        try Self.createIndexes(indexes, in: db)
        try db.execute(sql: "PRAGMA user_version = \(layout.mapping.schemaVersion)")
        try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
        try db.execute(sql: "COMMIT")
        try db.execute(sql: "DETACH DATABASE \"work\"")
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
    /// Schema Changes"). `SeedChecks.check`'s `quick_check` then verifies every constraint on every row.
    private func constrain(_ db: Database) throws {
        let changed = layout.schema.tables.filter { SeedSchema.createTable($0, constrained: false) != SeedSchema.createTable($0) }
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
}
