import CSQLite
import Foundation
import GRDB
import GRDBSQLite
import SeederCore
import SeederFiles

// Every call into SQLite's C API is in this folder: `RawStatement` for the hot loops (the writer's
// inserts, the diff's cursors), `RawSQLite` for the few things GRDB does not expose.

/// A GRDB statement run through the raw handle, for the hot loops: values are bound straight
/// from `SQLValue`s and buffers, with none of `StatementArguments`' boxing.
///
/// Text and blobs are copied into the statement's own buffer (`Bytes`) and bound from there
/// with `SQLITE_STATIC`: bound `SQLITE_TRANSIENT`, SQLite would make a copy of each in memory
/// it allocates and frees under its memory mutex.
struct RawStatement {
    let statement: Statement
    private let handle: OpaquePointer
    /// The statement's connection, read once: GRDB's accessor is a call per use.
    private let connection: OpaquePointer
    private let bytes = Bytes()

    init(_ statement: Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
        connection = sqlite3_db_handle(statement.sqliteStatement)
    }

    /// Binds the parameters through `bind`, runs the statement to completion and resets it;
    /// returns the rows it changed.
    @discardableResult
    func execute(_ bind: (inout Binder) -> Void) throws -> Int {
        var binder = Binder(handle: handle, bytes: bytes)
        bind(&binder)
        bytes.bind(to: handle)
        let status = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard status == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(connection)),
                sql: statement.sql)
        }
        return Int(sqlite3_changes(connection))
    }

    /// Binds the parameters through `bind` and calls `body` with each row; resets the statement.
    func forEachRow(_ bind: (inout Binder) -> Void, _ body: (RawRow) throws -> Void) throws {
        var binder = Binder(handle: handle, bytes: bytes)
        bind(&binder)
        bytes.bind(to: handle)
        defer { sqlite3_reset(handle) }
        while try step() {
            try body(row)
        }
    }

    /// Steps a statement without parameters to its next row: `true` on a row (`row`), `false` past
    /// the last. Never resets: a cursor (`RowCursor`) steps through its rows once.
    func step() throws -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        guard status == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(connection)),
                sql: statement.sql)
        }
        return false
    }

    /// The row `step()` is on.
    var row: RawRow { RawRow(handle: handle) }

    /// The current row of a stepping statement; valid until the statement steps again or resets.
    struct RawRow {
        let handle: OpaquePointer

        /// A column's index for SQLite: a table has at most 32,767 columns, so the conversion
        /// needs no overflow check, which the diff's loop over every column would pay.
        @inline(__always)
        private static func index(_ column: Int) -> Int32 {
            Int32(truncatingIfNeeded: column)
        }

        func int64(_ column: Int) -> Int64 {
            sqlite3_column_int64(handle, Self.index(column))
        }

        func bytes(_ column: Int) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(handle, Self.index(column)))
            guard count > 0, let base = sqlite3_column_blob(handle, Self.index(column)) else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }

        func value(_ column: Int) -> SQLValue {
            let index = Self.index(column)
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
            case SQLITE_TEXT:
                // The text first, then its length, as SQLite's documentation advises.
                guard let base = sqlite3_column_text(handle, index) else { return .text("") }
                let count = Int(sqlite3_column_bytes(handle, index))
                return .text(String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self))
            case SQLITE_BLOB: return .blob(bytes(column))
            default: return .null
            }
        }

        /// Column `column` as SQLite holds it, to compare in place (`RawValue`).
        func rawValue(_ column: Int) -> RawValue {
            // Never nil for a column of a row: SQLite returns a NULL value for a bad index.
            RawValue(handle: sqlite3_column_value(handle, Self.index(column))!)
        }
    }

    /// Binds parameters in order, from 1. Every parameter is bound on every run, so none keeps
    /// bytes of an earlier one.
    struct Binder {
        let handle: OpaquePointer
        fileprivate let bytes: Bytes
        private var index: Int32 = 1

        fileprivate init(handle: OpaquePointer, bytes: Bytes) {
            self.handle = handle
            self.bytes = bytes
        }

        mutating func bind(_ value: SQLValue) {
            switch value {
            case .null: sqlite3_bind_null(handle, index)
            case let .integer(integer): sqlite3_bind_int64(handle, index, integer)
            case let .real(real): sqlite3_bind_double(handle, index, real)
            case var .text(text): text.withUTF8 { bytes.add($0, parameter: index, isText: true) }
            case let .blob(blob): blob.withUnsafeBufferPointer { bytes.add($0, parameter: index, isText: false) }
            }
            index += 1
        }

        mutating func bind(_ integer: Int64) {
            sqlite3_bind_int64(handle, index, integer)
            index += 1
        }

        mutating func bind(_ text: String) {
            bind(.text(text))
        }

        mutating func bind(blob: UnsafeBufferPointer<UInt8>) {
            bytes.add(blob, parameter: index, isText: false)
            index += 1
        }
    }

    /// The text and blob parameters of one run, in one buffer that stays put from binding to
    /// the end of the step; reused by every run of the statement, and freed with it.
    fileprivate final class Bytes {
        // One statement's buffer, used by one run at a time on one thread: no run-time
        // exclusivity checks on every parameter.
        // Empty until a run binds text or a blob: a big mapping has thousands of statements.
        @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8> = .allocate(capacity: 0)
        @exclusivity(unchecked) private var capacity = 0
        @exclusivity(unchecked) private var count = 0
        @exclusivity(unchecked) private var pending: [(parameter: Int32, offset: Int, count: Int, isText: Bool)] = []

        deinit {
            buffer.deallocate()
        }

        /// Copies a parameter's bytes; bound by `bind(to:)` once all are in place, since the
        /// buffer may move while it grows.
        func add(_ bytes: UnsafeBufferPointer<UInt8>, parameter: Int32, isText: Bool) {
            if count + bytes.count > capacity {
                capacity = max(capacity * 2, count + bytes.count, 1024)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: buffer, count: count)
                buffer.deallocate()
                buffer = grown
            }
            if let base = bytes.baseAddress, !bytes.isEmpty { (buffer + count).update(from: base, count: bytes.count) }
            pending.append((parameter, count, bytes.count, isText))
            count += bytes.count
        }

        /// Binds the parameters added since the last call, and starts over. A zero-length value
        /// still gets a pointer: a null one would bind NULL.
        func bind(to handle: OpaquePointer) {
            for value in pending {
                if value.isText {
                    sqlite3_bind_text(handle, value.parameter, buffer + value.offset, Int32(value.count), nil)  // nil: SQLITE_STATIC
                } else {
                    sqlite3_bind_blob(handle, value.parameter, buffer + value.offset, Int32(value.count), nil)  // nil: SQLITE_STATIC
                }
            }
            pending.removeAll(keepingCapacity: true)
            count = 0
        }
    }
}
