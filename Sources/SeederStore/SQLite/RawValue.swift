import CSQLite
import Foundation
import GRDBSQLite

/// One column of a stepping statement's current row, as SQLite holds it (`sqlite3_column_value`),
/// compared in place: the diff's cursors read each column once a row, then compare through
/// `sqlite3_value_*`, which cost a fraction of a `sqlite3_column_*` call (those lock and check
/// the connection on every call; a row compared field by field made them half of a diff's
/// time: bench/README.md). The value is valid until its statement steps again or resets. The
/// `sqlite3_value_*` calls on it are safe while no other thread uses the connection, as in a
/// diff, which reads each seed on one thread (SQLite's documentation of `sqlite3_column_value`).
struct RawValue {
    let handle: OpaquePointer

    /// `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB` or `SQLITE_NULL`.
    var type: Int32 { sqlite3_value_type(handle) }

    /// `true` for SQL NULL.
    var isNull: Bool { type == SQLITE_NULL }

    /// How this value orders against `other`, as SQLite's `ORDER BY … COLLATE BINARY` orders
    /// them: NULL, then numbers by value, then text by bytes, then blobs by bytes. Negative,
    /// zero or positive.
    func compare(with other: RawValue) -> Int {
        let left = type, right = other.type
        let leftClass = Self.sortClass(left), rightClass = Self.sortClass(right)
        guard leftClass == rightClass else { return leftClass < rightClass ? -1 : 1 }
        switch left {
        case SQLITE_NULL: return 0
        case SQLITE_INTEGER where right == SQLITE_INTEGER:
            let a = sqlite3_value_int64(handle), b = sqlite3_value_int64(other.handle)
            return a < b ? -1 : a > b ? 1 : 0
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let a = sqlite3_value_double(handle), b = sqlite3_value_double(other.handle)
            return a < b ? -1 : a > b ? 1 : 0
        default:
            return compareBytes(with: other, text: left == SQLITE_TEXT)
        }
    }

    /// `true` when `other` holds exactly this value: the same storage class and the same value
    /// (`1` and `1.0` differ).
    func isSame(as other: RawValue) -> Bool {
        let type = type
        guard type == other.type else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return sqlite3_value_int64(handle) == sqlite3_value_int64(other.handle)
        case SQLITE_FLOAT: return sqlite3_value_double(handle) == sqlite3_value_double(other.handle)
        default: return compareBytes(with: other, text: type == SQLITE_TEXT) == 0
        }
    }

    /// Compares two text or two blob values byte by byte, then by length (memcmp order, as
    /// BINARY).
    private func compareBytes(with other: RawValue, text: Bool) -> Int {
        // The bytes first, then their count, as SQLite's documentation advises.
        let a = text ? UnsafeRawPointer(sqlite3_value_text(handle)) : sqlite3_value_blob(handle)
        let b = text ? UnsafeRawPointer(sqlite3_value_text(other.handle)) : sqlite3_value_blob(other.handle)
        let aCount = Int(sqlite3_value_bytes(handle)), bCount = Int(sqlite3_value_bytes(other.handle))
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
