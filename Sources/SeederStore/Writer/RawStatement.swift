import GRDB
import GRDBSQLite
import SeederCore

/// A GRDB statement run through the raw handle, for the hot loops: values are bound straight
/// from `SQLValue`s and buffers, with none of `StatementArguments`' boxing.
///
/// Text and blobs are copied into the statement's own buffer (`Bytes`) and bound from there
/// with `SQLITE_STATIC`: bound `SQLITE_TRANSIENT`, SQLite made a copy of each in memory it
/// allocated and freed, under its memory mutex, a fifth of the writing thread's work.
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
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(connection)),
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
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(connection)),
                                    sql: statement.sql)
            }
            try body(RawRow(handle: handle))
        }
    }

    /// The current row of a stepping statement; valid only inside `forEachRow`'s body.
    struct RawRow {
        let handle: OpaquePointer

        func int64(_ column: Int) -> Int64 {
            sqlite3_column_int64(handle, Int32(column))
        }

        func bytes(_ column: Int) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(handle, Int32(column)))
            guard count > 0, let base = sqlite3_column_blob(handle, Int32(column)) else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }

        func value(_ column: Int) -> SQLValue {
            let index = Int32(column)
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(handle, index))
                guard let base = sqlite3_column_text(handle, index) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self))
            case SQLITE_BLOB: return .blob(bytes(column))
            default: return .null
            }
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
        @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) private var capacity = 4096
        @exclusivity(unchecked) private var count = 0
        @exclusivity(unchecked) private var pending: [(parameter: Int32, offset: Int, count: Int, isText: Bool)] = []

        init() {
            buffer = .allocate(capacity: capacity)
        }

        deinit {
            buffer.deallocate()
        }

        /// Copies a parameter's bytes; bound by `bind(to:)` once all are in place, since the
        /// buffer may move while it grows.
        func add(_ bytes: UnsafeBufferPointer<UInt8>, parameter: Int32, isText: Bool) {
            if count + bytes.count > capacity {
                capacity = max(capacity * 2, count + bytes.count)
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
