import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Opening SQLite files read-only, for `inspect`, `diff` and the check that an existing output is
/// a seed: nothing is ever written beside them (docs/commands.md, Files a command touches).
///
/// A read-only connection still makes `-wal` and `-shm` files beside a WAL-mode database, and
/// fails where it cannot (read-only media). Opened as an immutable URI
/// (`file:seed.sqlite?mode=ro&immutable=1`) SQLite takes no lock and makes no file. Immutable
/// means SQLite ignores a `-wal` file, so when one beside the database still holds
/// transactions, the file is opened read-only the ordinary way, which reads them. It ignores a
/// rollback journal too, whose transaction never committed: a file with a hot journal is refused
/// (docs/seed.md, Journals), since only a writer may roll it back.
enum SeedFile {
    /// A read-only queue on the SQLite file at `path`, checked to be one, and to hold only
    /// committed pages.
    static func open(_ path: String) throws(SeedFileError) -> DatabaseQueue {
        try checkReadable(path)
        if let journal = RollbackJournal.hotJournal(beside: path) {
            throw SeedFileError(path: path, reason: RollbackJournal.refusal(journal))
        }
        return try openPages(path)
    }

    /// A read-only queue on the SQLite file at `path`, its pages as they are.
    private static func openPages(_ path: String) throws(SeedFileError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = path
        do {
            let queue = try DatabaseQueue(path: readOnlyName(path), configuration: configuration)
            // Opening is lazy: reading the schema is what tells a database from any other file.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch {
            throw SeedFileError(path: path, underlying: error)
        }
    }

    /// `path` is a regular file that may be read, as every input of a command is checked
    /// before it is opened: opening a FIFO would wait for a writer that may never come.
    static func checkReadable(_ path: String) throws(SeedFileError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SeedFileError(path: path, reason: "cannot read this file: \(FileKind.reason(errno))") }
        guard FileKind.isRegular(info.st_mode) else {
            throw SeedFileError(path: path, reason: "cannot read this file: \(FileKind.notRegularReason(info.st_mode))")
        }
        guard access(path, R_OK) == 0 else { throw SeedFileError(path: path, reason: "cannot read this file: \(FileKind.reason(errno))") }
    }

    /// The name to open `path` by: an immutable read-only URI, unless a `-wal` file beside it
    /// holds transactions, or this SQLite does not read URIs by default (`SQLITE_USE_URI`).
    static func readOnlyName(_ path: String) -> String {
        guard RawSQLite.opensURIs, !PathStatus.walHoldsTransactions(path) else { return path }
        // RFC 3986 escapes for the characters a URI path gives a meaning to.
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // An absolute path takes an empty authority (`file:///tmp/seed.sqlite`): `file://x` would
        // name a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?mode=ro&immutable=1"
    }

    /// Why the existing file at `path` is not a seed a build may replace: `nil` for a seed (it has
    /// a `seed_metadata` table) or an empty file, which holds nothing to lose (what `mktemp`
    /// makes). Reads the header first, so a file that is not SQLite is never handed to SQLite.
    static func notASeedReason(_ path: String) -> String? {
        let header: [UInt8]
        do {
            let source = try FileByteSource(path: path)
            var bytes = [UInt8](repeating: 0, count: 16)
            let count = try bytes.withUnsafeMutableBytes { try source.read(into: $0) }
            header = Array(bytes[0..<count])
        } catch {
            return "it cannot be read to check that it is a seed (\((error as? InputError)?.reason ?? "\(error)"))"
        }
        if header.isEmpty { return nil }
        guard header == Array("SQLite format 3\0".utf8) else { return "it is not an SQLite database" }
        do {
            // Only whether it is a seed: a journal of it is removed before anything replaces it.
            try checkReadable(path)
            let queue = try openPages(path)
            let tables = try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'seed_metadata'") ?? 0
            }
            try queue.close()
            return tables > 0 ? nil : "it is an SQLite database without a seed_metadata table"
        } catch {
            return "SQLite cannot read it (\(error))"
        }
    }
}
