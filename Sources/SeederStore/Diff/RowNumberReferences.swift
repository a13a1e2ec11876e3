import SeederCore
import SeederFiles

/// The columns of one table of the app's own schema that hold another table's row numbers
/// (Core Data's to-ones and join tables, keys to an auto-generated id): `diff` reads each as the
/// identity of the row it points at, so that two seeds whose rows are numbered differently
/// compare by their records (docs/commands.md, diff).
struct RowNumberReferences {
    /// By column, the SQL that reads the identity it points at, for a row aliased `t`.
    private var values: [String: String] = [:]

    init(mapping: MappingSummary, table: String) {
        for (column, target) in mapping.rowNumberReferences[table] ?? [:] {
            guard let rowNumber = mapping.rowNumbers[target], let entity = mapping.entity(table: target), !entity.primaryKey.isEmpty
            else { continue }
            let identity =
                entity.primaryKey.count == 1 ? SQLText.quote(entity.primaryKey[0]) : "json_array(\(SQLText.list(entity.primaryKey)))"
            values[column] =
                "(SELECT \(identity) FROM \(SQLText.quote(target)) AS p WHERE p.\(SQLText.quote(rowNumber)) = t.\(SQLText.quote(column)))"
        }
    }

    /// The SQL that reads `column`, or `nil` when it holds a value of its own.
    func value(of column: String) -> String? {
        values[column]
    }
}
