import GRDB

/// A `seed_source` row (docs/seed.md, Metadata): one source of the mapping, by its glob, or one
/// dump file, by its path in the dumps directory, as the seed's layout has it.
package struct SourceRow: Sendable, Hashable {
    /// What one row stands for.
    package enum Scope: String, Sendable, Hashable {
        /// One source of the mapping: `path` is its glob, the other columns its files' sums.
        case source
        /// One dump file: a seed built with `provenance: files`, or before sources had rows.
        case file
    }

    /// The source's glob as written in the mapping, or the file's path in the dumps directory.
    package var path: String
    /// How many files the row covers: 1 for a file.
    package var files: Int
    /// The file's SHA-256, or the source's digest over its files' paths and digests.
    package var sha256: String
    package var bytes: Int
    package var records: Int
    package var scope: Scope

    package init(path: String, files: Int = 1, sha256: String, bytes: Int, records: Int, scope: Scope = .file) {
        self.path = path
        self.files = files
        self.sha256 = sha256
        self.bytes = bytes
        self.records = records
        self.scope = scope
    }
}

/// Reads `seed_source` in either of its layouts (docs/seed.md, Metadata): a row per source
/// (`path, files, sha256, bytes, records`), or a row per file, with or without `files` (seeds
/// built before sources had rows have four columns). Every reader of the table goes through here,
/// so that a seed already shipped reads as it did.
package enum SeedSources {
    /// The rows of the seed at `path`, sorted by path; empty when it has no `seed_source`.
    ///
    /// Throws `SeedFileError` when the file cannot be opened or a value has another type than
    /// its column's (`seed_source, row 2 (path "a.json"), column bytes: expected an integer, ...`).
    package static func read(_ path: String) throws(SeedFileError) -> [SourceRow] {
        let queue = try SeedFile.open(path)
        do {
            return try queue.read { db in try read(db, path: path) }
        } catch let error as SeedFileError {
            throw error
        } catch {
            throw SeedFileError(path: path, underlying: error)
        }
    }

    /// The rows of `seed_source` in `db` (the schema `schema`, `main` by default), sorted by
    /// path; `path` names the file in messages. A row is a source's when the table has a `files`
    /// column and the seed's mapping description does not say `provenance: files`.
    static func read(_ db: Database, path: String, schema: String = "main") throws -> [SourceRow] {
        let table = "\(SQLText.quote(schema)).\"seed_source\""
        let columns = try layout(db, schema: schema)
        guard let columns else { return [] }
        let perFile = try !columns.hasFiles || perFile(db, schema: schema)
        let scope: SourceRow.Scope = perFile ? .file : .source
        let files = columns.hasFiles ? "files" : "1"
        let rows = try CheckedRow.fetchAll(
            db, "SELECT path, sha256, bytes, records, \(files) FROM \(table) ORDER BY path", path: path, table: "seed_source",
            keyColumn: (0, "path")
        )
        var sources: [SourceRow] = []
        for row in rows {
            // A NULL is an error as a wrong type is: seeder writes every column NOT NULL, and a
            // count or digest read as 0 or "" would be a difference that is not there.
            let source = SourceRow(
                path: try row.requiredText(0, "path"), files: try row.requiredInteger(4, "files"),
                sha256: try row.requiredText(1, "sha256"), bytes: try row.requiredInteger(2, "bytes"),
                records: try row.requiredInteger(3, "records"), scope: scope)
            // A path is the table's key: a table that holds one twice (not seeder's) names no
            // one source, and could be neither compared nor upgraded.
            if sources.last?.path == source.path {
                throw SeedFileError(path: path, reason: "seed_source, \(row.name): the same path as row \(sources.count)")
            }
            sources.append(source)
        }
        return sources
    }

    /// The columns `seed_source` has in `schema`; `nil` when there is no such table.
    static func layout(_ db: Database, schema: String = "main") throws -> (columns: [String], hasFiles: Bool)? {
        let columns = try String.fetchAll(
            db, sql: "SELECT name FROM pragma_table_info('seed_source', ?) ORDER BY cid", arguments: [schema])
        guard !columns.isEmpty else { return nil }
        return (columns, columns.contains("files"))
    }

    /// `true` when the seed's mapping description says `provenance: files` (docs/mapping.md).
    private static func perFile(_ db: Database, schema: String) throws -> Bool {
        let exists =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM pragma_table_info('seed_metadata', ?)", arguments: [schema]) ?? 0
        guard exists > 0,
            let json = try? String.fetchOne(
                db, sql: "SELECT value FROM \(SQLText.quote(schema)).\"seed_metadata\" WHERE key = 'mapping'")
        else { return false }
        return MappingSummary(json: json)?.provenance == "files"
    }
}
