import CSQLite

/// The rows of a file that point at nothing, as `PRAGMA foreign_key_check` lists them, each with
/// the foreign key it breaks.
struct DanglingRows {
    struct Row: Hashable {
        var table: String
        var rowid: Int64?
        var parent: String
        var foreignKey: String
    }

    /// Each row, with how many times it is listed (rows of a `WITHOUT ROWID` table, without a
    /// rowid, are told apart only by their number).
    private(set) var rows: [Row: Int] = [:]

    init(_ connection: SQLiteConnection) throws(SeedInstallError) {
        for row in try connection.rows("PRAGMA foreign_key_check", doing: "check the foreign keys of") {
            rows[
                Row(table: row[0] ?? "", rowid: row[1].flatMap { Int64($0) }, parent: row[2] ?? "", foreignKey: row[3] ?? ""), default: 0] +=
                1
        }
    }

    /// The rows here that are not in `other`, sorted by table and rowid.
    func subtracting(_ other: DanglingRows) -> [SeedInstallation.DanglingReference] {
        rows.flatMap { row, count in
            Array(
                repeating: SeedInstallation.DanglingReference(table: row.table, rowid: row.rowid, parent: row.parent),
                count: max(0, count - (other.rows[row] ?? 0)))
        }
        .sorted { ($0.table, $0.rowid ?? 0, $0.parent) < ($1.table, $1.rowid ?? 0, $1.parent) }
    }
}
