import Foundation

/// A database's tables as the changeset tests see them, read from `sqlite_master` and the
/// `table_info` pragmas: the search tables (virtual, with their shadow tables), which a changeset
/// leaves out (docs/commands.md, diff --changeset), and every other table with its columns.
struct SeedTables {
    struct Column {
        var name: String
        var type: String
        /// Its place in the primary key, from 1; 0 when it is not part of it.
        var keyPosition: Int
    }

    struct Table {
        var name: String
        var columns: [Column]
        /// Columns that hold a foreign key.
        var references: Set<String>
        /// Columns of a unique index (the primary key's among them).
        var unique: Set<String>

        /// The primary key's columns, in order; empty for a plain rowid table.
        var key: [String] { columns.filter { $0.keyPosition > 0 }.sorted { $0.keyPosition < $1.keyPosition }.map(\.name) }
    }

    /// Every table but the search tables and their shadows, by name.
    var tables: [Table]
    /// The search tables: name and module (`fts5`, `fts4`, `fts3`).
    var search: [(name: String, module: String)]

    init(_ database: RawDatabase) throws {
        let master = try database.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").map {
            (name: $0[0].text, sql: $0[1].text)
        }
        search = master.compactMap { table in
            let sql = table.sql.lowercased()
            guard sql.hasPrefix("create virtual table") else { return nil }
            return ["fts5", "fts4", "fts3"].first { sql.contains("using \($0)") }.map { (table.name, $0) }
        }
        let virtual = master.filter { $0.sql.lowercased().hasPrefix("create virtual table") }.map(\.name)
        tables = try master.filter { table in
            !virtual.contains(table.name) && !virtual.contains { table.name.hasPrefix($0 + "_") }
        }
        .map { table in
            let quoted = Self.quote(table.name)
            let columns = try database.rows("SELECT name, type, pk FROM pragma_table_info(\(quoted))").map {
                Column(name: $0[0].text, type: $0[1].text, keyPosition: Int($0[2].integer))
            }
            let references = try database.rows("SELECT \"from\" FROM pragma_foreign_key_list(\(quoted))").map { $0[0].text }
            let unique = try database.rows(
                "SELECT i.name FROM pragma_index_list(\(quoted)) AS l, pragma_index_info(l.name) AS i WHERE l.\"unique\" = 1")
            return Table(name: table.name, columns: columns, references: Set(references), unique: Set(unique.map { $0[0].text }))
        }
    }

    /// `name` as an SQL identifier (or, for a pragma's argument, a string literal works alike).
    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

extension StoredValue {
    /// The text of a value read from a catalog query ("" for anything else).
    var text: String { if case let .text(text) = self { text } else { "" } }
    /// The integer of a value read from a catalog query (0 for anything else).
    var integer: Int64 { if case let .integer(integer) = self { integer } else { 0 } }
}

/// Makes a new seed from a copy of an old one with SQL, so that every kind of change a changeset
/// holds happens in every table with a primary key and rows: a value changed, rows deleted, a row
/// inserted with a fresh key, a link moved (a foreign-key column, or a join table's pair), and
/// `seed_metadata`'s `inputs_sha256` changed. Nothing keeps the seed consistent (foreign keys stay
/// off): the tests that use it are about the changeset being exact, not the seed being valid.
struct SeedMutation {
    /// The changes made to one table, each at least once.
    struct Changes: Equatable {
        var inserts = false
        var updates = false
        var deletes = false
    }

    /// What was changed, by table.
    private(set) var changes: [String: Changes] = [:]

    /// Mutates the database at `path`, with its triggers off so that the new seed holds what
    /// these statements write and nothing an app's trigger adds.
    init(seedAt path: String) throws {
        let database = try RawDatabase(path)
        try database.enableTriggers(false)
        for table in try SeedTables(database).tables where !table.key.isEmpty && !table.name.hasPrefix("sqlite_") {
            if table.name == "seed_metadata" {
                // A seed's other keys say how to read it; its inputs' digest is what a rebuild changes.
                try database.execute(
                    "UPDATE seed_metadata SET value = substr(value, 33) || substr(value, 1, 32) WHERE key = 'inputs_sha256'")
                changes[table.name] = Changes(updates: true)
            } else if let made = try Self.mutate(table, database) {
                changes[table.name] = made
            }
        }
    }

    private static func mutate(_ table: SeedTables.Table, _ database: RawDatabase) throws -> Changes? {
        let name = SeedTables.quote(table.name), key = table.key
        let keyList = key.map(SeedTables.quote).joined(separator: ", ")
        let keys = try database.rows("SELECT \(keyList) FROM \(name) ORDER BY \(keyList)")
        guard !keys.isEmpty else { return nil }
        let matching = key.map { "\(SeedTables.quote($0)) IS ?" }.joined(separator: " AND ")
        var made = Changes(inserts: true)

        // A value: a non-key column that is neither a link nor unique, if there is one.
        let others = table.columns.filter { $0.keyPosition == 0 }
        let valueColumn =
            others.first { !table.references.contains($0.name) && !table.unique.contains($0.name) }
            ?? others.first { !table.unique.contains($0.name) } ?? others.first
        if let column = valueColumn {
            for row in stride(from: 0, to: keys.count, by: 3) {
                let quoted = SeedTables.quote(column.name)
                try database.execute("UPDATE \(name) SET \(quoted) = \(changed(quoted, type: column.type)) WHERE \(matching)", keys[row])
            }
            made.updates = true
        }
        // A link: another row's target in a foreign-key column, or a join table's pair moved to
        // another target (a delete and an insert, since the pair is the key).
        let linked = keys.count > 2 ? 2 : 0
        for column in table.references.sorted() where !key.contains(column) {
            let quoted = SeedTables.quote(column)
            try database.execute(
                """
                UPDATE \(name) SET \(quoted) = coalesce(
                    (SELECT \(quoted) FROM \(name) WHERE \(quoted) IS NOT (SELECT \(quoted) FROM \(name) WHERE \(matching))
                     ORDER BY \(quoted) LIMIT 1), \(fresh(quoted, in: name)))
                WHERE \(matching)
                """, keys[linked] + keys[linked])
            made.updates = true
        }
        if key.count > 1 {
            let pair = keys[linked], last = SeedTables.quote(key[key.count - 1])
            let taken = Set(keys.filter { $0.dropLast() == pair.dropLast() }.map { $0[$0.count - 1] })
            let target = keys.map { $0[$0.count - 1] }.first { !taken.contains($0) }
            if let target {
                try database.execute("UPDATE \(name) SET \(last) = ? WHERE \(matching)", [target] + pair)
            } else {
                try database.execute("UPDATE \(name) SET \(last) = \(fresh(last, in: name)) WHERE \(matching)", pair)
            }
            made.deletes = true
        }
        // Rows deleted: every third, from the second on.
        for row in stride(from: 1, to: keys.count, by: 3) {
            try database.execute("DELETE FROM \(name) WHERE \(matching)", keys[row])
            made.deletes = true
        }
        // A row inserted: a copy of the first left, with a fresh key (the key's last column) and
        // fresh values in its unique columns.
        let copied = table.columns.map { column -> String in
            let quoted = SeedTables.quote(column.name)
            let isFresh = column.name == key[key.count - 1] || (column.keyPosition == 0 && table.unique.contains(column.name))
            return isFresh ? fresh(quoted, in: name) : quoted
        }
        try database.execute(
            "INSERT INTO \(name) (\(table.columns.map { SeedTables.quote($0.name) }.joined(separator: ", "))) "
                + "SELECT \(copied.joined(separator: ", ")) FROM \(name) ORDER BY \(keyList) LIMIT 1")
        return made
    }

    /// SQL for a value no row of the column holds: past the largest number, or the text with a suffix.
    private static func fresh(_ column: String, in table: String) -> String {
        """
        CASE typeof(\(column)) WHEN 'integer' THEN (SELECT max(\(column)) FROM \(table)) + 1000 \
        WHEN 'real' THEN (SELECT max(\(column)) FROM \(table)) + 1000.5 ELSE coalesce(\(column), 'fresh') || '-new' END
        """
    }

    /// SQL for a changed value of the same storage class (a boolean stays 0 or 1); a null
    /// becomes a value of the column's affinity.
    private static func changed(_ column: String, type: String) -> String {
        let upper = type.uppercased()
        let null = upper.contains("INT") ? "1" : ["REAL", "FLOA", "DOUB"].contains { upper.contains($0) } ? "1.5" : "'changed'"
        return """
            CASE typeof(\(column)) WHEN 'integer' THEN (CASE \(column) WHEN 0 THEN 1 WHEN 1 THEN 0 ELSE \(column) + 1 END) \
            WHEN 'real' THEN \(column) + 0.5 WHEN 'text' THEN \(column) || ' (changed)' \
            WHEN 'blob' THEN CAST(\(column) || 'x' AS BLOB) ELSE \(null) END
            """
    }
}
