import GRDB
import SeederCore
import SeederFiles

/// One side of a merge: a prepared `SELECT` stepped row by row (`RawStatement`), its columns
/// compared in place without boxing. Only the records that differ become `SQLValue`s.
struct RowCursor {
    private let statement: RawStatement
    /// `true` once the last row was passed.
    private(set) var isAtEnd = false

    /// A cursor on `sql`, positioned on its first row (or at the end).
    init(db: Database, sql: String) throws {
        statement = RawStatement(try db.makeStatement(sql: sql))
        try advance()
    }

    /// Moves to the next row.
    mutating func advance() throws {
        isAtEnd = try !statement.step()
    }

    /// The value of column `column` of the current row.
    func value(_ column: Int) -> SQLValue {
        statement.row.value(column)
    }

    /// `true` when column `column` of the current row is NULL.
    func isNull(_ column: Int) -> Bool {
        statement.row.isNull(column)
    }

    /// The values of `columns` of the current row.
    func values(_ columns: Range<Int>) -> [SQLValue] {
        columns.map(value)
    }

    /// How column `column` here orders against column `other` of `cursor`'s row
    /// (`RawStatement.RawRow.compare`). Negative, zero or positive.
    func compare(_ column: Int, with cursor: RowCursor, _ other: Int) -> Int {
        statement.row.compare(column, with: cursor.statement.row, other)
    }

    /// `true` when column `column` here holds exactly the value of column `other` of `cursor`'s
    /// row (`RawStatement.RawRow.isSame`).
    func isSame(_ column: Int, as cursor: RowCursor, _ other: Int) -> Bool {
        statement.row.isSame(column, as: cursor.statement.row, other)
    }
}
