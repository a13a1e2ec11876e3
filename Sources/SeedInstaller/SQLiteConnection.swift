import CSQLite

/// One SQLite connection to one file, and the only place the installer calls SQLite's statement
/// API. A class because it owns the handle, closed when the last reference goes.
final class SQLiteConnection {
    /// The file, for error messages.
    let path: String
    let handle: OpaquePointer

    /// Opens the existing file at `path`; never creates one.
    init(path: String, readOnly: Bool) throws(SeedInstallError) {
        self.path = path
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_FULLMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw .sqlite(operation: "open", path: path, message: message)
        }
        self.handle = handle
        // An app that broke the rule and holds the file open gets a moment to let go.
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// SQLite's message for the last failure.
    var message: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `sql`, one or more statements without results.
    func execute(_ sql: String, doing operation: String) throws(SeedInstallError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw .sqlite(operation: operation, path: path, message: message)
        }
    }

    /// The rows of `sql`, every column as text (`nil` for NULL). `failure` turns SQLite's result
    /// code and message into the error thrown.
    func rows(_ sql: String, failure: (Int32, String) -> SeedInstallError) throws(SeedInstallError) -> [[String?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sqlite3_extended_errcode(handle), message)
        }
        defer { sqlite3_finalize(statement) }
        var result: [[String?]] = []
        let columns = sqlite3_column_count(statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { throw failure(sqlite3_extended_errcode(handle), message) }
            result.append(
                (0..<columns).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                })
        }
    }

    /// The rows of `sql`, failing with `.sqlite(operation:...)`.
    func rows(_ sql: String, doing operation: String) throws(SeedInstallError) -> [[String?]] {
        let path = path
        return try rows(sql) { _, message in .sqlite(operation: operation, path: path, message: message) }
    }
}

/// `name` as an SQL identifier.
func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
