import CSQLite
import Foundation

/// A seed file's `seed_metadata` rows, read to tell whether a file is a seed and which one.
struct SeedMetadata {
    /// key -> value.
    var values: [String: String]
    var identity: SeedIdentity

    /// Opens the seed at `path` without writing to it and reads its metadata. A file that is no
    /// seed (a directory, not SQLite, no `seed_metadata`, no identity in it) throws `.notASeed`.
    static func open(_ path: String) throws(SeedInstallError) -> (SQLiteConnection, SeedMetadata) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system("read", path) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notASeed(path: path, reason: "not a regular file") }
        do {
            let connection = try SQLiteConnection(path: path, readOnly: true)
            return (connection, try SeedMetadata(connection))
        } catch let .sqlite(_, _, message) where message.contains("readonly") {
            // A hot journal or an unrecovered WAL, which only a writer may roll back or recover:
            // doing so restores the file's last committed state, which is what is read.
            let connection = try SQLiteConnection(path: path, readOnly: false)
            return (connection, try SeedMetadata(connection))
        }
    }

    /// Reads `seed_metadata` on `connection`.
    init(_ connection: SQLiteConnection) throws(SeedInstallError) {
        let path = connection.path
        let rows = try connection.rows("SELECT key, value FROM seed_metadata") { code, message in
            switch code & 0xFF {
            case SQLITE_NOTADB: return .notASeed(path: path, reason: "not an SQLite database")
            case SQLITE_ERROR where message.contains("no such table"): return .notASeed(path: path, reason: "no seed_metadata table")
            default: return .sqlite(operation: "read", path: path, message: message)
            }
        }
        var values: [String: String] = [:]
        for row in rows {
            if let key = row[0], let value = row[1] { values[key] = value }
        }
        self.values = values
        do {
            identity = try SeedIdentity(metadata: values)
        } catch {
            throw .notASeed(path: path, reason: "seed_metadata has no \(error.key)")
        }
    }
}
