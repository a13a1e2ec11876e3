import Foundation
import GRDB
import GRDBSQLite
import SeederCore

/// One side of a merge: a prepared `SELECT` stepped through the raw statement handle, its columns
/// compared in place without boxing. Only the records that differ become `SQLValue`s.
struct RowCursor {
    private let db: Database
    private let statement: Statement
    private let handle: OpaquePointer
    /// `true` once the last row was passed.
    private(set) var isAtEnd = false

    /// A cursor on `sql`, positioned on its first row (or at the end).
    init(db: Database, sql: String) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
        try advance()
    }

    /// Moves to the next row.
    mutating func advance() throws {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return
        case SQLITE_DONE: isAtEnd = true
        case let status:
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
    }

    /// The value of column `column` of the current row.
    func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let text = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// `true` when column `column` of the current row is NULL.
    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The values of `columns` of the current row.
    func values(_ columns: Range<Int32>) -> [SQLValue] {
        columns.map(value)
    }

    /// How column `column` here orders against column `other` of `cursor`'s row, as SQLite's
    /// `ORDER BY … COLLATE BINARY` orders them: NULL, then numbers by value, then text by bytes,
    /// then blobs by bytes. Negative, zero or positive.
    func compare(_ column: Int32, with cursor: RowCursor, _ other: Int32) -> Int {
        let left = sqlite3_column_type(handle, column), right = sqlite3_column_type(cursor.handle, other)
        let leftClass = Self.sortClass(left), rightClass = Self.sortClass(right)
        guard leftClass == rightClass else { return leftClass < rightClass ? -1 : 1 }
        switch left {
        case SQLITE_NULL: return 0
        case SQLITE_INTEGER where right == SQLITE_INTEGER:
            let a = sqlite3_column_int64(handle, column), b = sqlite3_column_int64(cursor.handle, other)
            return a < b ? -1 : a > b ? 1 : 0
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let a = sqlite3_column_double(handle, column), b = sqlite3_column_double(cursor.handle, other)
            return a < b ? -1 : a > b ? 1 : 0
        default:
            return compareBytes(column, with: cursor, other)
        }
    }

    /// `true` when column `column` here holds exactly the value of column `other` of `cursor`'s
    /// row: the same storage class and the same value (`1` and `1.0` differ).
    func isSame(_ column: Int32, as cursor: RowCursor, _ other: Int32) -> Bool {
        let type = sqlite3_column_type(handle, column)
        guard type == sqlite3_column_type(cursor.handle, other) else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, column) == sqlite3_column_int64(cursor.handle, other)
        case SQLITE_FLOAT: return sqlite3_column_double(handle, column) == sqlite3_column_double(cursor.handle, other)
        default: return compareBytes(column, with: cursor, other) == 0
        }
    }

    /// Compares two text or blob values byte by byte, then by length (memcmp order, as BINARY).
    private func compareBytes(_ column: Int32, with cursor: RowCursor, _ other: Int32) -> Int {
        let isText = sqlite3_column_type(handle, column) == SQLITE_TEXT
        let a = isText ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        let b = isText ? UnsafeRawPointer(sqlite3_column_text(cursor.handle, other)) : sqlite3_column_blob(cursor.handle, other)
        let aCount = Int(sqlite3_column_bytes(handle, column)), bCount = Int(sqlite3_column_bytes(cursor.handle, other))
        let common = min(aCount, bCount)
        if common > 0, let a, let b {
            let order = memcmp(a, b, common)
            if order != 0 { return Int(order) }
        }
        return aCount < bCount ? -1 : aCount > bCount ? 1 : 0
    }

    /// SQLite's order of storage classes: NULL < numbers < text < blobs.
    private static func sortClass(_ type: Int32) -> Int {
        switch type {
        case SQLITE_NULL: return 0
        case SQLITE_INTEGER, SQLITE_FLOAT: return 1
        case SQLITE_TEXT: return 2
        default: return 3
        }
    }
}
