import Foundation
import GRDB
import SeederCore
import SeederFiles

/// An SQLite failure while a build writes its files, told as the path and the system's reason
/// (`cannot write out/.seed.sqlite.seeder-assembly: No space left on device`) rather than as
/// SQLite's own words (`SQLite error 13: database or disk is full`), which name no file.
///
/// SQLite keeps the last system error of each open file (`SQLITE_FCNTL_LAST_ERRNO`), which names
/// the file that failed. A full disk is the exception: SQLite reports `SQLITE_FULL` and clears
/// that error, so the file is the seed being assembled, or whichever file reached the size limit
/// (`ulimit -f`) when there is one.
struct StorageFailure {
    /// One file of the build: its schema name on the connection (empty for one that is not
    /// attached, such as `VACUUM INTO`'s target), its path, and how messages name it.
    typealias File = (schema: String, path: String, shown: String)

    let error: DatabaseError
    /// The build's files; the first is the seed being assembled.
    let files: [File]

    init(_ error: DatabaseError, files: [File]) {
        self.error = error
        self.files = files
    }

    /// What failed to be done to a file: `create` or `write`; `nil` when SQLite's error is
    /// about no file, which no input can cause.
    private var verb: String? {
        switch error.resultCode {
        case .SQLITE_CANTOPEN: return "create"
        case .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_NOLFS: return "write"
        default: return nil
        }
    }

    /// `io` for a file that could not be made or written, else `internal` (docs/json.md).
    var code: DiagnosticCode { verb == nil ? .internal : .io }

    /// The message, read from `queue`'s connection when it is still open.
    func message(_ queue: DatabaseQueue?) -> String {
        guard let verb else { return "\(error)" }
        var perFile: [(File, Int32)] = []
        var systemError: Int32 = 0
        queue?.inDatabase { db in
            guard let connection = db.sqliteConnection else { return }
            systemError = RawSQLite.systemError(connection)
            for file in files where !file.schema.isEmpty {
                let number = RawSQLite.lastFileError(connection, schema: file.schema)
                if number != 0 { perFile.append((file, number)) }
            }
        }
        if let (file, number) = perFile.first { return OutputError.cannot(verb, file.shown, error: number).message }
        if error.resultCode == .SQLITE_FULL {
            if let file = fileAtSizeLimit() { return OutputError.cannot(verb, file.shown, error: EFBIG).message }
            return OutputError.cannot(verb, files[0].shown, error: ENOSPC).message
        }
        if systemError != 0 { return OutputError.cannot(verb, files[0].shown, error: systemError).message }
        return "cannot \(verb) \(files[0].shown): \(error.message ?? "\(error)")"
    }

    /// The file that reached the process's file size limit, if there is a limit: a write that
    /// starts past it fails with `EFBIG` (the signal it would send is ignored), which SQLite keeps
    /// as the file's error, but one cut short by it is what SQLite reports as a full disk.
    private func fileAtSizeLimit() -> File? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
            let resource = RLIMIT_FSIZE
        #endif
        // RLIM_INFINITY: all ones on Linux, Int64.max on Darwin.
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int64.max) else { return nil }
        return files.first { file in
            var info = stat()
            // A write cut short stops exactly at the limit.
            return stat(file.path, &info) == 0 && UInt64(info.st_size) >= UInt64(limit.rlim_cur)
        }
    }
}
