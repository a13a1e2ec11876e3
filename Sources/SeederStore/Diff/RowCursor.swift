import GRDB
import SeederCore
import SeederFiles

/// One side of a merge: a prepared `SELECT` stepped row by row (`RawStatement`), its columns
/// compared in place without boxing (`RawValue`, each column read once a row). Only the records
/// that differ become `SQLValue`s.
struct RowCursor {
    private let statement: RawStatement
    /// The current row's columns, read as it is stepped to.
    private var columns: [RawValue] = []
    private let columnCount: Int
    /// `true` once the last row was passed.
    private(set) var isAtEnd = false

    /// A cursor on `sql`, positioned on its first row (or at the end).
    init(db: Database, sql: String) throws {
        statement = RawStatement(try db.makeStatement(sql: sql))
        columnCount = statement.statement.columnCount
        try advance()
    }

    /// Moves to the next row.
    mutating func advance() throws {
        isAtEnd = try !statement.step()
        guard !isAtEnd else { return }
        let row = statement.row
        guard columns.count == columnCount else {
            columns = (0..<columnCount).map(row.rawValue)
            return
        }
        // In place: one check that the array is not shared a row, not one a column.
        columns.withUnsafeMutableBufferPointer { columns in
            for column in columns.indices { columns[column] = row.rawValue(column) }
        }
    }

    /// The value of column `column` of the current row.
    func value(_ column: Int) -> SQLValue {
        statement.row.value(column)
    }

    /// `true` when column `column` of the current row is NULL.
    func isNull(_ column: Int) -> Bool {
        columns[column].isNull
    }

    /// The values of `columns` of the current row.
    func values(_ columns: Range<Int>) -> [SQLValue] {
        columns.map(value)
    }

    /// How column `column` here orders against column `other` of `cursor`'s row
    /// (`RawValue.compare`). Negative, zero or positive.
    func compare(_ column: Int, with cursor: RowCursor, _ other: Int) -> Int {
        columns[column].compare(with: cursor.columns[other])
    }

    /// `true` when column `column` here holds exactly the value of column `other` of `cursor`'s
    /// row (`RawValue.isSame`).
    func isSame(_ column: Int, as cursor: RowCursor, _ other: Int) -> Bool {
        columns[column].isSame(as: cursor.columns[other])
    }
}
