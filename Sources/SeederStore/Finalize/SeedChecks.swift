import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The checks every finished seed passes before it is published (docs/seed.md).
enum SeedChecks {
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
    /// file meanwhile, for `FinishedFile.publish`: its pages are final, and the sync mostly
    /// waits for the disk; it first waits for the sync begun `after` the load (`FileSync`).
    static func check(_ db: Database, after earlySync: FileSync? = nil) throws {
        guard let path = RawSQLite.path(of: db, schema: "main") else { throw AssemblyError(message: "the seed's file is unknown") }
        let quickCheck = BackgroundWork {
            let reader = try DatabaseQueue(path: path, configuration: readOnly)
            return try reader.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
        }
        let synced = FileSync(path, after: earlySync)
        let violations = Result { try foreignKeyViolations(db) }
        let integrity = quickCheck.result
        try synced.wait()
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

}

/// The assembled seed failed its own checks: a seeder bug, never the user's data.
struct AssemblyError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
