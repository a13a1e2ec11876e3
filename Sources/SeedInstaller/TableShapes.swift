/// The tables of a file as a changeset sees them: each ordinary table's columns and primary key,
/// each virtual table's statement. Full-text tables' shadow tables are left out: they follow from
/// their virtual table, and a patch rebuilds them.
struct TableShapes: Equatable {
    /// table -> its columns, each with whether it is in the primary key.
    var tables: [String: [Column]] = [:]
    /// virtual table -> its `CREATE VIRTUAL TABLE` statement.
    var virtualTables: [String: String] = [:]
    /// full-text table -> its external content table, for the tables that have one.
    var searchTables: [String: String] = [:]

    struct Column: Equatable {
        var name: String
        var inPrimaryKey: Bool
    }

    /// The shadow tables FTS3, FTS4 and FTS5 keep beside a full-text table `<name>`, as
    /// `<name>_<suffix>` (docs/seed.md, Search).
    static let shadowSuffixes = ["data", "idx", "docsize", "config", "content", "segments", "segdir", "stat"]

    init(_ connection: SQLiteConnection) throws(SeedInstallError) {
        let entries = try connection.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
            doing: "read the schema of")
        var ordinary: [String] = []
        for entry in entries {
            guard let name = entry[0] else { continue }
            let sql = entry[1] ?? ""
            if sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") {
                virtualTables[name] = sql
                if let content = ExternalContent.table(of: sql) { searchTables[name] = content }
            } else {
                ordinary.append(name)
            }
        }
        for name in ordinary where !isShadow(name) {
            tables[name] = try connection.rows("PRAGMA table_info(\(quoted(name)))", doing: "read the schema of").map {
                Column(name: $0[1] ?? "", inPrimaryKey: ($0[5] ?? "0") != "0")
            }
        }
    }

    /// Whether `table` is a full-text table or one of its shadow tables.
    func isShadow(_ table: String) -> Bool {
        let lowered = table.lowercased()
        return virtualTables.keys.contains { search in
            let prefix = search.lowercased() + "_"
            return lowered == search.lowercased()
                || (lowered.hasPrefix(prefix) && Self.shadowSuffixes.contains(String(lowered.dropFirst(prefix.count))))
        }
    }

    /// The full-text tables that read their text from one of `tables`.
    func searchTables(readingFrom tables: Set<String>) -> [String] {
        let lowered = Set(tables.map { $0.lowercased() })
        return searchTables.filter { lowered.contains($0.value.lowercased()) }.map(\.key).sorted()
    }
}

extension TableShapes {
    /// The first table of `seed` that is not here as `seed` has it (same columns and key, or for
    /// a virtual table the same statement), and why: `nil` when this file can be turned into
    /// `seed` by a changeset. Tables of the app's own are allowed.
    func misfit(_ seed: TableShapes) -> (table: String, reason: String)? {
        for (table, columns) in seed.tables.sorted(by: { $0.key < $1.key }) where tables[table] != columns {
            guard let here = tables[table] else { return (table, "the working copy has no such table") }
            let names = { (columns: [Column]) in columns.map(\.name).joined(separator: ", ") }
            return (table, "the working copy's columns are (\(names(here))), the seed's (\(names(columns))), or the keys differ")
        }
        for (table, statement) in seed.virtualTables.sorted(by: { $0.key < $1.key }) where virtualTables[table] != statement {
            return (table, virtualTables[table] == nil ? "the working copy has no such table" : "the working copy's statement differs")
        }
        return nil
    }
}
