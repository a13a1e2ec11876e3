import GRDB
import GRDBSQLite
import SeederCore

/// A GRDB statement run through the raw handle, for the hot loops: values are bound straight
/// from `SQLValue`s and buffers, with none of `StatementArguments`' boxing.
struct RawStatement {
    let statement: Statement
    private let handle: OpaquePointer
    private let db: Database

    init(_ statement: Statement, db: Database) {
        self.statement = statement
        handle = statement.sqliteStatement
        self.db = db
    }

    /// Binds the parameters through `bind`, runs the statement to completion and resets it;
    /// returns the rows it changed.
    @discardableResult
    func execute(_ bind: (inout Binder) -> Void) throws -> Int {
        var binder = Binder(handle: handle)
        bind(&binder)
        let status = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard status == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// Binds the parameters through `bind` and calls `body` with each row; resets the statement.
    func forEachRow(_ bind: (inout Binder) -> Void, _ body: (RawRow) throws -> Void) throws {
        var binder = Binder(handle: handle)
        bind(&binder)
        defer { sqlite3_reset(handle) }
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
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

        func isNull(_ column: Int) -> Bool {
            sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
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

    /// Binds parameters in order, from 1.
    struct Binder {
        let handle: OpaquePointer
        private var index: Int32 = 1

        init(handle: OpaquePointer) {
            self.handle = handle
        }

        /// SQLite copies the bytes before the call returns.
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        mutating func bind(_ value: SQLValue) {
            switch value {
            case .null: sqlite3_bind_null(handle, index)
            case let .integer(integer): sqlite3_bind_int64(handle, index, integer)
            case let .real(real): sqlite3_bind_double(handle, index, real)
            case var .text(text): text.withUTF8 { _ = sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case let .blob(bytes): bind(bytes: bytes)
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

        mutating func bind(blob bytes: [UInt8]) {
            bind(bytes: bytes)
            index += 1
        }

        private func bind(bytes: [UInt8]) {
            bytes.withUnsafeBytes { buffer in
                // A zero-length blob with a null pointer would bind NULL.
                _ = sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), Self.transient)
            }
        }
    }
}
