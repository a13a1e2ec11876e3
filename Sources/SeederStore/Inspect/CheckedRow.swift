import GRDB

/// A row of a file seeder did not write in this run, read column by column as the type the
/// table must hold there. A value of another type is an error that names the file, the table,
/// the row, the column, what was expected and what was found (docs/commands.md, inspect), never
/// the trap of GRDB's subscripts on a conversion that fails.
struct CheckedRow {
    let row: Row
    /// The file, the table and how messages name the row: `row 2 (key "format")`.
    let path: String
    let table: String
    let name: String

    /// The rows of `sql` on `db`, each named `row N` (from 1, in the query's order), and by the
    /// text of its column `keyColumn` when it has one: `row 2 (key "format")`.
    static func fetchAll(
        _ db: Database, _ sql: String, arguments: StatementArguments = [], path: String, table: String,
        keyColumn: (index: Int, name: String)? = nil
    ) throws -> [CheckedRow] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).enumerated().map { number, row in
            var name = "row \(number + 1)"
            if let keyColumn, case let .string(key) = (row[keyColumn.index] as DatabaseValue).storage {
                name += " (\(keyColumn.name) \(String(reflecting: key)))"
            }
            return CheckedRow(row: row, path: path, table: table, name: name)
        }
    }

    /// The text in column `index` (`column` in messages); `nil` for NULL.
    func text(_ index: Int, _ column: String) throws(SeedFileError) -> String? {
        switch value(index).storage {
        case .null: return nil
        case let .string(text): return text
        default: throw mismatch(index, column, expected: "text")
        }
    }

    /// The integer in column `index` (`column` in messages); `nil` for NULL.
    func integer(_ index: Int, _ column: String) throws(SeedFileError) -> Int? {
        switch value(index).storage {
        case .null: return nil
        case let .int64(number): return Int(number)
        default: throw mismatch(index, column, expected: "an integer")
        }
    }

    /// The text in column `index`, which must be there.
    func requiredText(_ index: Int, _ column: String) throws(SeedFileError) -> String {
        guard let text = try text(index, column) else { throw mismatch(index, column, expected: "text") }
        return text
    }

    /// The integer in column `index`, which must be there.
    func requiredInteger(_ index: Int, _ column: String) throws(SeedFileError) -> Int {
        guard let number = try integer(index, column) else { throw mismatch(index, column, expected: "an integer") }
        return number
    }

    private func value(_ index: Int) -> DatabaseValue {
        row[index] as DatabaseValue
    }

    private func mismatch(_ index: Int, _ column: String, expected: String) -> SeedFileError {
        let found: String
        switch value(index).storage {
        case .null: found = "NULL"
        case .int64: found = "an integer"
        case .double: found = "a real"
        case .string: found = "text"
        case let .blob(bytes): found = "a blob (\(bytes.count) \(bytes.count == 1 ? "byte" : "bytes"))"
        }
        return SeedFileError(path: path, reason: "\(table), \(name), column \(column): expected \(expected), found \(found)")
    }
}
