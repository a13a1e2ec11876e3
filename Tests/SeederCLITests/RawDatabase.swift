import CSQLite
import Foundation

/// One value as SQLite stores it: the storage class is part of the value, so that a patched
/// table that holds 1.0 where the new seed holds 1 is told apart (GRDB's `==` takes them for one).
enum StoredValue: Hashable, Comparable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    var description: String {
        switch self {
        case .null: return "NULL"
        case let .integer(value): return "\(value)"
        case let .real(value): return "real \(value)"
        case let .text(value): return "'\(value)'"
        case let .blob(bytes): return "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    /// SQLite's order: nulls, numbers, text, blobs (numbers of either class by class here).
    static func < (left: StoredValue, right: StoredValue) -> Bool {
        switch (left, right) {
        case let (.integer(a), .integer(b)): return a < b
        case let (.real(a), .real(b)): return a < b
        case let (.text(a), .text(b)): return a < b
        case let (.blob(a), .blob(b)): return a.lexicographicallyPrecedes(b)
        default: return left.rank < right.rank
        }
    }

    private var rank: Int {
        switch self {
        case .null: return 0
        case .integer: return 1
        case .real: return 2
        case .text: return 3
        case .blob: return 4
        }
    }
}

/// A connection through SQLite's C API, for what GRDB does not do: apply a changeset. It leaves
/// foreign keys off, SQLite's default, which GRDB turns on: the changeset tests write seeds whose
/// references need not hold, and a changeset applied with them on would end in a conflict.
final class RawDatabase {
    private let connection: OpaquePointer

    /// Opens the database at `path` for reading and writing.
    init(_ path: String) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil)
        guard code == SQLITE_OK, let connection else {
            sqlite3_close(connection)
            throw RawDatabaseError(operation: "open \(path)", message: String(cString: sqlite3_errstr(code)))
        }
        self.connection = connection
    }

    deinit { sqlite3_close_v2(connection) }

    /// Runs `sql`, one statement, with `arguments` bound in order.
    func execute(_ sql: String, _ arguments: [StoredValue] = []) throws {
        _ = try rows(sql, arguments)
    }

    /// Every row `sql` returns, each value with its storage class.
    func rows(_ sql: String, _ arguments: [StoredValue] = []) throws -> [[StoredValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure(sql) }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch argument {
            case .null: code = sqlite3_bind_null(statement, position)
            case let .integer(value): code = sqlite3_bind_int64(statement, position, value)
            case let .real(value): code = sqlite3_bind_double(statement, position, value)
            case let .text(value): code = sqlite3_bind_text(statement, position, value, -1, Self.transient)
            case let .blob(bytes): code = sqlite3_bind_blob(statement, position, bytes, Int32(bytes.count), Self.transient)
            }
            guard code == SQLITE_OK else { throw failure(sql) }
        }
        var rows: [[StoredValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure(sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { value(statement, $0) })
        }
    }

    /// Turns the connection's triggers on or off: a changeset holds every table's final rows, so
    /// an app's trigger that writes another table must not run again while it is applied.
    func enableTriggers(_ enabled: Bool) throws {
        guard seeder_enable_triggers(connection, enabled ? 1 : 0) == SQLITE_OK else { throw failure("enable triggers") }
    }

    /// Applies `changeset` with `sqlite3changeset_apply`; any conflict aborts it. Returns the
    /// conflicts met (0 when it applied).
    func apply(changeset: [UInt8]) throws -> Int {
        var conflicts = 0
        let code = changeset.withUnsafeBytes { buffer in
            withUnsafeMutablePointer(to: &conflicts) { counter in
                sqlite3changeset_apply(
                    connection, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress), nil,
                    { context, _, _ in
                        context!.assumingMemoryBound(to: Int.self).pointee += 1
                        return SQLITE_CHANGESET_ABORT
                    }, counter)
            }
        }
        guard code == SQLITE_OK || conflicts > 0 else { throw failure("sqlite3changeset_apply") }
        return conflicts
    }

    private func value(_ statement: OpaquePointer, _ column: Int32) -> StoredValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, column)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func failure(_ operation: String) -> RawDatabaseError {
        RawDatabaseError(operation: operation, message: String(cString: sqlite3_errmsg(connection)))
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A statement that failed, with SQLite's message.
struct RawDatabaseError: Error, CustomStringConvertible {
    var operation: String
    var message: String
    var description: String { "\(message) (in \(operation))" }
}

/// A changeset's operations, counted per table with `sqlite3changeset_start`, `_next` and `_op`.
struct ChangesetCounts: Equatable, CustomStringConvertible {
    var inserts = 0
    var updates = 0
    var deletes = 0

    var description: String { "+\(inserts) ~\(updates) -\(deletes)" }

    /// Each table's counts in the changeset `bytes` (none for an empty changeset).
    static func of(_ bytes: [UInt8]) throws -> [String: ChangesetCounts] {
        guard !bytes.isEmpty else { return [:] }
        var tables: [String: ChangesetCounts] = [:]
        try bytes.withUnsafeBytes { buffer in
            var iterator: OpaquePointer?
            guard sqlite3changeset_start(&iterator, Int32(buffer.count), UnsafeMutableRawPointer(mutating: buffer.baseAddress)) == SQLITE_OK
            else { throw RawDatabaseError(operation: "sqlite3changeset_start", message: "not a changeset") }
            defer { sqlite3changeset_finalize(iterator) }
            var code = sqlite3changeset_next(iterator)
            while code == SQLITE_ROW {
                var name: UnsafePointer<CChar>?
                var columns: Int32 = 0, operation: Int32 = 0, indirect: Int32 = 0
                guard sqlite3changeset_op(iterator, &name, &columns, &operation, &indirect) == SQLITE_OK, let name else {
                    throw RawDatabaseError(operation: "sqlite3changeset_op", message: "unreadable change")
                }
                switch operation {
                case SQLITE_INSERT: tables[String(cString: name), default: ChangesetCounts()].inserts += 1
                case SQLITE_UPDATE: tables[String(cString: name), default: ChangesetCounts()].updates += 1
                case SQLITE_DELETE: tables[String(cString: name), default: ChangesetCounts()].deletes += 1
                default: throw RawDatabaseError(operation: "sqlite3changeset_op", message: "operation \(operation)")
                }
                code = sqlite3changeset_next(iterator)
            }
            guard code == SQLITE_DONE else { throw RawDatabaseError(operation: "sqlite3changeset_next", message: "a corrupt changeset") }
        }
        return tables
    }
}
