import CSQLite
import Foundation
import GRDB
import GRDBSQLite
import SeederCore
import SeederFiles

/// The few things of SQLite's C API that GRDB does not expose, for the code that is no hot loop.
enum RawSQLite {
    /// The rowid of the connection's last insert.
    static func lastInsertedRowID(_ connection: OpaquePointer) -> Int64 {
        sqlite3_last_insert_rowid(connection)
    }

    /// The path of the file attached as `schema` (`main`): empty for an in-memory or temporary
    /// database, `nil` when there is no such schema or the connection is closed.
    static func path(of db: Database, schema: String) -> String? {
        guard let connection = db.sqliteConnection, let name = sqlite3_db_filename(connection, schema) else { return nil }
        return String(cString: name)
    }

    /// Writes the connection's dirty pages to their files, within the open transaction
    /// (`sqlite3_db_cacheflush`).
    static func flushCache(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let code = sqlite3_db_cacheflush(connection)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    /// The system error (`errno`) of the connection's last failed call; 0 for none.
    static func systemError(_ connection: OpaquePointer) -> Int32 {
        sqlite3_system_errno(connection)
    }

    /// The last system error (`errno`) of the file attached as `schema`
    /// (`SQLITE_FCNTL_LAST_ERRNO`); 0 for none, or when SQLite cannot tell.
    static func lastFileError(_ connection: OpaquePointer, schema: String) -> Int32 {
        var number: Int32 = 0
        guard sqlite3_file_control(connection, schema, SQLITE_FCNTL_LAST_ERRNO, &number) == SQLITE_OK else { return 0 }
        return number
    }

    /// Whether this SQLite opens `file:` URIs by default (`SQLITE_USE_URI`).
    static var opensURIs: Bool {
        sqlite3_compileoption_used("USE_URI") != 0
    }

    /// Replaces `db`'s main database with a copy of `bytes`, in memory: a template is read
    /// without SQLite opening (and maybe writing beside) the user's file.
    static func deserialize(_ bytes: [UInt8], into db: Database) throws {
        guard let connection = db.sqliteConnection, let buffer = sqlite3_malloc64(UInt64(max(bytes.count, 1))) else {
            throw AssemblyError(message: "no memory for a copy of the template")
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
        }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        let code = sqlite3_deserialize(
            connection, "main", buffer.assumingMemoryBound(to: UInt8.self), Int64(bytes.count), Int64(bytes.count), flags)
        guard code == SQLITE_OK else { throw AssemblyError(message: String(cString: sqlite3_errstr(code))) }
    }

    /// The bytes of `db`'s main database, as a file of it would hold them.
    static func serialize(_ db: Database) -> [UInt8] {
        guard let connection = db.sqliteConnection else { return [] }
        var size: Int64 = 0
        guard let data = sqlite3_serialize(connection, "main", &size, 0) else { return [] }
        defer { sqlite3_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    /// Turns `db`'s triggers off or on (`SQLITE_DBCONFIG_ENABLE_TRIGGER`): an app's triggers do
    /// not run while seeder fills its tables (docs/mapping.md, Fitting the app's own schema).
    static func enableTriggers(_ enabled: Bool, in db: Database) throws {
        guard let connection = db.sqliteConnection, seeder_enable_triggers(connection, enabled ? 1 : 0) == SQLITE_OK else {
            throw AssemblyError(message: "SQLite cannot turn the template's triggers \(enabled ? "on" : "off")")
        }
    }
}
