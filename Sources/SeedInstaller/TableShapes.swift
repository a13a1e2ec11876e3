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
    /// Whether every table of `seed` is here with the same columns and key, and every virtual
    /// table with the same statement: what a changeset needs to turn this file into `seed`. Tables
    /// of the app's own are allowed.
    func holds(_ seed: TableShapes) -> Bool {
        seed.tables.allSatisfy { tables[$0.key] == $0.value } && seed.virtualTables.allSatisfy { virtualTables[$0.key] == $0.value }
    }
}
