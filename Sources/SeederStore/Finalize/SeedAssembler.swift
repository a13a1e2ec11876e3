import Foundation
import GRDB
import SeederCore

/// Writes the seed file from the merged rows (SEED.md): the schema in mapping order, rows in
/// source order, metadata, indexes after the load; then checks it, syncs it and renames it over
/// the output (through a vacuumed copy when it holds a free page). Until that rename the
/// previous output is untouched.
struct SeedAssembler {
    let mapping: Mapping
    let schema: SeedSchema
    let layouts: [StagingLayout]
    let links: [[LinkLayout?]]
    /// Metadata rows, in key order.
    let metadata: [(String, String)]
    /// `seed_source` rows: path, sha256, bytes, records.
    let sources: [(String, String, Int, Int)]

    /// Builds the seed at `assemblyPath` from the staging database at `workPath`, then moves a
    /// vacuumed copy to `output` through `temporaryPath`. Returns the rows written per entity.
    func write(workPath: String, assemblyPath: String, temporaryPath: String, output: String) throws -> [Int] {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.journalMode = .default
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        let assembly = try DatabaseQueue(path: assemblyPath, configuration: configuration)
        var vacuumed = false
        let rows: [Int] = try assembly.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \"work\"", arguments: [workPath])
            try db.execute(sql: "BEGIN")
            for statement in SeedSchema.metadataTables + schema.tables.map(SeedSchema.createTable) {
                try db.execute(sql: statement)
            }
            var rows: [Int] = []
            for (index, layout) in layouts.enumerated() {
                try copyRows(layout, into: schema.tables[schema.entityTables[index]], db: db)
                rows.append(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(SQLText.quote(layout.entity.table))") ?? 0)
            }
            for link in links.flatMap({ $0 }).compactMap({ $0 }) {
                guard case let .joinTable(join) = link.relationship.storage else { continue }
                var columns = join.ownerColumns + join.targetColumns
                var selected = link.ownerColumns + link.targetColumns
                if let position = join.positionColumn {
                    columns.append(position)
                    selected.append("_position")
                }
                try db.execute(sql: "INSERT INTO \(SQLText.quote(join.name)) (\(SQLText.list(columns))) SELECT \(SQLText.list(selected)) FROM \"work\".\(SQLText.quote(link.table)) ORDER BY \"_seq\"")
            }
            for (key, value) in metadata {
                try db.execute(sql: "INSERT INTO \"seed_metadata\" (\"key\", \"value\") VALUES (?, ?)", arguments: [key, value])
            }
            for (path, digest, bytes, records) in sources {
                try db.execute(sql: "INSERT INTO \"seed_source\" (\"path\", \"sha256\", \"bytes\", \"records\") VALUES (?, ?, ?, ?)",
                               arguments: [path, digest, bytes, records])
            }
            for index in schema.indexes { try db.execute(sql: SeedSchema.createIndex(index)) }
            try db.execute(sql: "PRAGMA user_version = \(mapping.schemaVersion)")
            try db.execute(sql: "PRAGMA application_id = \(SeedAssembler.applicationID)")
            try db.execute(sql: "COMMIT")
            try db.execute(sql: "DETACH DATABASE \"work\"")
            try Self.check(db)
            // Built by appending, the assembly usually holds no free page and is the seed as it
            // is; a merge that freed pages sends it through a vacuumed copy instead.
            if try Int.fetchOne(db, sql: "PRAGMA freelist_count") != 0 {
                try db.execute(sql: "VACUUM INTO ?", arguments: [temporaryPath])
                vacuumed = true
            }
            return rows
        }
        try assembly.close()
        let finished = vacuumed ? temporaryPath : assemblyPath
        try Self.syncFile(finished)
        guard rename(finished, output) == 0 else {
            throw InputError(path: output, reason: String(cString: strerror(errno)))
        }
        try Self.syncFile((output as NSString).deletingLastPathComponent.isEmpty ? "." : (output as NSString).deletingLastPathComponent)
        return rows
    }

    /// `PRAGMA application_id`: "SEED".
    static let applicationID: Int32 = 0x5345_4544

    private func copyRows(_ layout: StagingLayout, into table: SeedSchema.Table, db: Database) throws {
        var columns: [String] = []
        var selected: [String] = []
        if layout.entity.identity == .none {
            columns.append(Entity.syntheticKeyColumn)
            selected.append("_seq")
        }
        columns += layout.entity.attributes.map(\.column)
        selected += layout.attributeColumns
        for (index, relationship) in layout.entity.relationships.enumerated() {
            guard case let .foreignKey(foreignKey) = relationship.storage else { continue }
            columns += foreignKey
            selected += layout.foreignKeyColumns[index]
        }
        for position in layout.positionColumns {
            if case let .inverse(name?) = mapping.entities[position.owner].relationships[position.relationship].storage {
                columns.append(name)
                selected.append(position.column)
            }
        }
        try db.execute(sql: "INSERT INTO \(SQLText.quote(table.name)) (\(SQLText.list(columns))) SELECT \(SQLText.list(selected)) FROM \"work\".\(SQLText.quote(layout.table)) ORDER BY \"_seq\"")
    }

    /// The finished file passes SQLite's own checks (SEED.md; issue 3): every foreign key names
    /// a row (the load runs with foreign keys off, so this checks the resolver), and every page
    /// and b-tree is sound and every `NOT NULL` holds (`quick_check`).
    ///
    /// `quick_check` is `integrity_check` without comparing each index with its table, which
    /// SQLite itself keeps in step on every insert; at 200,000 records that comparison was a
    /// sixth of a graph build (issue 5). The tests run the full `integrity_check` on seeds.
    static func check(_ db: Database) throws {
        let violations = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
        guard violations.isEmpty else {
            throw AssemblyError(message: "the seed fails PRAGMA foreign_key_check: \(violations.prefix(3).map(\.description).joined(separator: "; "))")
        }
        let integrity = try String.fetchAll(db, sql: "PRAGMA quick_check")
        guard integrity == ["ok"] else {
            throw AssemblyError(message: "the seed fails PRAGMA quick_check: \(integrity.prefix(3).joined(separator: "; "))")
        }
    }

    /// `fsync` on a file or directory.
    static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
    }
}

/// The assembled seed failed its own checks: a seeder bug, never the user's data.
struct AssemblyError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
