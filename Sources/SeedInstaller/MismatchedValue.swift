import CSQLite

/// The value a changeset would write where its table cannot take it: a key that is not an
/// integer for a table's `INTEGER PRIMARY KEY` (the rowid), the one place a rowid table refuses a
/// type (SQLITE_MISMATCH; a `STRICT` table's refusal is a constraint conflict). SQLite stops the
/// whole changeset there without naming the row; this finds it, once the patch has failed, so
/// the error names the table, the row, the column and the types (docs/commands.md, patch).
struct MismatchedValue {
    var table: String
    /// The row's primary key, as `column = value`.
    var key: [String]
    var column: String
    /// `text`, `a real`, `a blob`, `NULL`.
    var found: String

    /// Why the changeset does not fit `table`, for `.changesetDoesNotFit`.
    var reason: String {
        "the row \(key.joined(separator: ", ")) would hold \(found) in \(column), its INTEGER PRIMARY KEY, which takes only integers"
    }

    /// The first change of `changeset` that writes a value the rowid of its table in `connection`
    /// refuses, or `nil` when there is none.
    static func first(in changeset: ChangesetFile, on connection: SQLiteConnection) throws(SeedInstallError) -> MismatchedValue? {
        let probe = try Probe()
        var rowids: [String: (index: Int, names: [String])?] = [:]
        var found: MismatchedValue?
        var failure: SeedInstallError?
        do throws(UnreadableChangeset) {
            try changeset.forEachChange { iterator in
                let change = Change(iterator)
                guard change.operation == SQLITE_INSERT || change.operation == SQLITE_UPDATE else { return true }
                if rowids[change.table] == nil {
                    do throws(SeedInstallError) {
                        rowids[change.table] = .some(try rowid(of: change.table, on: connection))
                    } catch {
                        failure = error
                        return false
                    }
                }
                guard let (index, names) = rowids[change.table] ?? nil, let value = change.new(index), !probe.accepts(value) else {
                    return true
                }
                found = MismatchedValue(
                    table: change.table, key: change.key(named: names), column: names[index], found: Self.kind(of: value))
                return false
            }
        } catch {
            throw .sqlite(operation: "read the changeset \(changeset.path) for", path: connection.path, message: error.reason)
        }
        if let failure { throw failure }
        return found
    }

    /// The column of `table` that is its rowid (a lone `INTEGER PRIMARY KEY` of a table with
    /// rowids), and every column's name; `nil` when it has none.
    private static func rowid(of table: String, on connection: SQLiteConnection) throws(SeedInstallError) -> (Int, [String])? {
        let columns = try connection.rows("PRAGMA table_info(\(quoted(table)))", doing: "read the schema of")
        let names = columns.map { $0[1] ?? "" }
        let keyed = columns.indices.filter { (columns[$0][5] ?? "0") != "0" }
        guard keyed.count == 1, (columns[keyed[0]][2] ?? "").uppercased() == "INTEGER" else { return nil }
        // A key with an index of its own is no rowid: `WITHOUT ROWID`, or `INTEGER PRIMARY KEY DESC`.
        let indexed = try connection.rows("PRAGMA index_list(\(quoted(table)))", doing: "read the schema of")
        guard !indexed.contains(where: { $0.count > 3 && $0[3] == "pk" }) else { return nil }
        return (keyed[0], names)
    }

    /// A value's storage class, in words.
    private static func kind(of value: OpaquePointer) -> String {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: return "NULL"
        case SQLITE_FLOAT: return "a real (\(Change.literal(value)))"
        case SQLITE_TEXT: return "text (\(Change.literal(value)))"
        case SQLITE_BLOB: return "a blob (\(sqlite3_value_bytes(value)) bytes)"
        default: return "an integer"
        }
    }

    /// An `INTEGER PRIMARY KEY` of an in-memory database, which tells whether SQLite's rules (its
    /// integer affinity first: `'7'` is 7) take a value as a rowid.
    private final class Probe {
        private let connection: SQLiteConnection
        private let insert: OpaquePointer

        init() throws(SeedInstallError) {
            connection = try SQLiteConnection(path: ":memory:", readOnly: false)
            try connection.execute("CREATE TABLE probe(id INTEGER PRIMARY KEY)", doing: "create a probe table in")
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(connection.handle, "INSERT INTO probe VALUES (?)", -1, &statement, nil) == SQLITE_OK,
                let statement
            else { throw .sqlite(operation: "prepare a probe in", path: connection.path, message: connection.message) }
            insert = statement
        }

        deinit { sqlite3_finalize(insert) }

        /// Whether the rowid takes `value`: NULL too, which SQLite turns into a new rowid.
        func accepts(_ value: OpaquePointer) -> Bool {
            defer {
                sqlite3_reset(insert)
                sqlite3_exec(connection.handle, "DELETE FROM probe", nil, nil, nil)
            }
            sqlite3_bind_value(insert, 1, value)
            return sqlite3_step(insert) != SQLITE_MISMATCH
        }
    }
}
