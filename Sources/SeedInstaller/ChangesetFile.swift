import CSQLite
import Foundation

/// A changeset file read as a stream, so that a large one is never held in memory whole: the
/// `xInput` of SQLite's `*_strm` functions. A class because it owns the open file.
final class ChangesetFile {
    /// The path, as given to the installer.
    let path: String
    private let file: UnsafeMutablePointer<FILE>

    init(path: String) throws(UnreadableChangeset) {
        self.path = path
        // Opened without blocking, then checked with `fstat`: opening a FIFO for reading waits for
        // a writer that may never come (`seeder patch` does the same, `SeedFile.checkReadable`).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw UnreadableChangeset(reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw UnreadableChangeset(reason: "not a regular file")
        }
        guard let file = fdopen(descriptor, "rb") else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw UnreadableChangeset(reason: reason)
        }
        // SQLite must only ever read a well-formed changeset (`ChangesetFormat`).
        do {
            try ChangesetFormat.check(file)
        } catch {
            fclose(file)
            throw UnreadableChangeset(reason: "not a changeset: \(error)")
        }
        self.file = file
    }

    deinit { fclose(file) }

    /// The `pIn` SQLite hands back to `input`, reading from the start of the file.
    func rewound() -> UnsafeMutableRawPointer {
        rewind(file)
        return Unmanaged.passUnretained(self).toOpaque()
    }

    /// The stream's `xInput`: fills `data` with up to `*count` bytes and sets `*count` to how many
    /// it read, 0 at the end.
    static let input: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> Int32 = {
        context, data, count in
        guard let context, let data, let count else { return SQLITE_MISUSE }
        let changeset = Unmanaged<ChangesetFile>.fromOpaque(context).takeUnretainedValue()
        let read = fread(data, 1, Int(count.pointee), changeset.file)
        count.pointee = Int32(read)
        return read == 0 && ferror(changeset.file) != 0 ? SQLITE_IOERR : SQLITE_OK
    }

    /// Calls `body` with an iterator over the changes from the start of the file. `body` returns
    /// `false` to stop early.
    func forEachChange(_ body: (OpaquePointer) -> Bool) throws(UnreadableChangeset) {
        var iterator: OpaquePointer?
        guard sqlite3changeset_start_strm(&iterator, Self.input, rewound()) == SQLITE_OK, let iterator else {
            throw UnreadableChangeset(reason: "not a changeset")
        }
        defer { sqlite3changeset_finalize(iterator) }
        while true {
            let code = sqlite3changeset_next(iterator)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw UnreadableChangeset(reason: String(cString: sqlite3_errstr(code))) }
            guard body(iterator) else { return }
        }
    }
}

/// Why a changeset file could not be read: `install()` skips such a changeset and reports it
/// (`SeedInstallation.SkippedChangeset`).
struct UnreadableChangeset: Error {
    var reason: String
}

/// One change as the iterator is on it: its table, operation, column count and values.
struct Change {
    var table: String
    /// `SQLITE_INSERT`, `SQLITE_UPDATE` or `SQLITE_DELETE`.
    var operation: Int32
    var columns: Int
    private let iterator: OpaquePointer

    init(_ iterator: OpaquePointer) {
        var name: UnsafePointer<CChar>?
        var columns: Int32 = 0
        var operation: Int32 = 0
        var indirect: Int32 = 0
        sqlite3changeset_op(iterator, &name, &columns, &operation, &indirect)
        self.table = name.map { String(cString: $0) } ?? ""
        self.operation = operation
        self.columns = Int(columns)
        self.iterator = iterator
    }

    /// An update that changes nothing (`isNoOpUpdate`).
    var isNoOp: Bool { operation == SQLITE_UPDATE && isNoOpUpdate(iterator, columns: Int32(columns)) }

    /// Which columns are the primary key's.
    var primaryKey: [Bool] {
        var flags: UnsafeMutablePointer<UInt8>?
        var count: Int32 = 0
        sqlite3changeset_pk(iterator, &flags, &count)
        return (0..<Int(count)).map { flags?[$0] != 0 }
    }

    /// The old value of `column` (update, delete), or `nil` when the change does not carry it
    /// (an update's unchanged column).
    func old(_ column: Int) -> OpaquePointer? {
        var value: OpaquePointer?
        guard sqlite3changeset_old(iterator, Int32(column), &value) == SQLITE_OK else { return nil }
        return value
    }

    /// The new value of `column` (insert, update), or `nil` when the change does not carry it.
    func new(_ column: Int) -> OpaquePointer? {
        var value: OpaquePointer?
        guard sqlite3changeset_new(iterator, Int32(column), &value) == SQLITE_OK else { return nil }
        return value
    }

    /// The changed row's primary key, as `column = value`, the columns named by `names`.
    func key(named names: [String]) -> [String] {
        primaryKey.enumerated().filter(\.element).map { column, _ in
            let value = operation == SQLITE_INSERT ? new(column) : old(column)
            return (column < names.count ? names[column] : "column \(column)") + " = " + Change.literal(value)
        }
    }

    /// A value as text, `nil` for NULL.
    static func text(_ value: OpaquePointer) -> String? {
        sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_text(value).map { String(cString: $0) }
    }

    /// A value as SQL would write it: `7`, `'Ada'`, `NULL`, `x'00ff'`.
    static func literal(_ value: OpaquePointer?) -> String {
        guard let value else { return "?" }
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: return "NULL"
        case SQLITE_INTEGER: return String(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return String(sqlite3_value_double(value))
        case SQLITE_TEXT: return "'" + (text(value) ?? "").replacingOccurrences(of: "'", with: "''") + "'"
        default:
            let count = Int(sqlite3_value_bytes(value))
            let bytes = sqlite3_value_blob(value).map { UnsafeRawBufferPointer(start: $0, count: count) }
            return "x'" + (bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)).map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
