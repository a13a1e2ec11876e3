import GRDB
import SeederCore
import SeederFiles

/// The app's own schema as its database holds it (docs/mapping.md, Fitting the app's own schema):
/// what seeder matches entities, attributes and relationships against, read with SQLite's own
/// pragmas so that names, types and keys are what the app's SQLite will see.
struct AppSchema {
    /// A column of a table.
    struct Column {
        var name: String
        /// The declared type, as written (`VARCHAR`, `TIMESTAMP`, `INTEGER`, ``).
        var declaredType: String
        var notNull: Bool
        /// The default's SQL text, as declared.
        var defaultValue: String?
        var hasDefault: Bool { defaultValue != nil }
        /// 1-based position in the primary key; 0 when not part of it.
        var primaryKeyPosition: Int

        /// SQLite's type affinity of the declared type (the five rules of "Datatypes In SQLite").
        var affinity: Affinity { Affinity(declaredType: declaredType) }
    }

    /// A declared foreign key.
    struct ForeignKey {
        var table: String
        var from: [String]
        /// The parent's columns; empty when the key names the parent's primary key implicitly.
        var to: [String]
    }

    /// A table (or a virtual table).
    struct Table {
        var name: String
        var columns: [Column]
        var foreignKeys: [ForeignKey]
        /// `fts3`, `fts4`, `fts5`, ... for a virtual table; `nil` for an ordinary table.
        var module: String?
        /// The `content=` table of an external-content full-text table; `""` when contentless.
        var contentTable: String?
        /// The column that is the table's rowid (`INTEGER PRIMARY KEY`), if any.
        var rowidColumn: String?
        /// Rows it holds.
        var rows: Int

        func column(named name: String) -> Column? {
            columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
    }

    /// An entity of a Core Data store, from `Z_PRIMARYKEY`.
    struct CoreDataEntity {
        var number: Int
        var name: String
        /// The parent entity's number; 0 for a root entity.
        var superNumber: Int
    }

    /// Ordinary and virtual tables, in the schema's order; shadow tables of virtual tables and
    /// SQLite's own are left out.
    var tables: [Table]
    /// Every name in the schema (tables, shadow tables, indexes, views, triggers), lower-cased.
    var names: Set<String>
    /// The entities of `Z_PRIMARYKEY`, when the schema is a Core Data store's.
    var coreData: [CoreDataEntity]?
    /// `PRAGMA user_version`.
    var userVersion = 0

    /// The table named `name`, compared as SQLite compares names.
    func table(named name: String) -> Table? {
        tables.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The schema of `db`'s main database.
    static func read(_ db: Database) throws -> AppSchema {
        let listed = try Row.fetchAll(db, sql: "SELECT \"name\", \"type\" FROM pragma_table_list WHERE \"schema\" = 'main'")
        let kinds = Dictionary(listed.map { (($0["name"] as String).lowercased(), $0["type"] as String) }, uniquingKeysWith: { a, _ in a })
        let entries = try Row.fetchAll(db, sql: #"SELECT "type", "name", "sql" FROM "main"."sqlite_schema" ORDER BY "rowid""#)
        var tables: [Table] = []
        for entry in entries where entry["type"] as String == "table" {
            let name: String = entry["name"]
            let kind = kinds[name.lowercased()] ?? "table"
            guard kind == "table" || kind == "virtual", !name.lowercased().hasPrefix("sqlite_") else { continue }
            let sql: String = entry["sql"] ?? ""
            tables.append(try readTable(name, sql: sql, virtual: kind == "virtual", db))
        }
        let names = Set(entries.map { ($0["name"] as String).lowercased() })
        var coreData: [CoreDataEntity]?
        if names.contains("z_primarykey"), names.contains("z_metadata") {
            coreData = try Row.fetchAll(db, sql: #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#).map {
                CoreDataEntity(number: $0["Z_ENT"], name: $0["Z_NAME"] ?? "", superNumber: $0["Z_SUPER"] ?? 0)
            }
        }
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        return AppSchema(tables: tables, names: names, coreData: coreData, userVersion: userVersion)
    }

    private static func readTable(_ name: String, sql: String, virtual: Bool, _ db: Database) throws -> Table {
        let quoted = SQLText.literal(name)
        let columns = try Row.fetchAll(db, sql: "SELECT * FROM pragma_table_info(\(quoted))").map { row in
            Column(
                name: row["name"], declaredType: row["type"] ?? "", notNull: row["notnull"] as Bool, defaultValue: row["dflt_value"],
                primaryKeyPosition: row["pk"])
        }
        var keys: [Int: ForeignKey] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM pragma_foreign_key_list(\(quoted)) ORDER BY \"id\", \"seq\"") {
            let id: Int = row["id"]
            keys[id, default: ForeignKey(table: row["table"], from: [], to: [])].from.append(row["from"])
            if let to: String = row["to"] { keys[id]?.to.append(to) }
        }
        let primaryKey = columns.filter { $0.primaryKeyPosition > 0 }
        // A single INTEGER PRIMARY KEY of a rowid table is the rowid; WITHOUT ROWID tables index their key.
        let keyIndex = try Bool.fetchOne(db, sql: "SELECT 1 FROM pragma_index_list(\(quoted)) WHERE \"origin\" = 'pk'") ?? false
        let rowidColumn =
            !virtual && primaryKey.count == 1 && primaryKey[0].declaredType.uppercased() == "INTEGER" && !keyIndex
            ? primaryKey[0].name : nil
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"main\".\(SQLText.quote(name))") ?? 0
        return Table(
            // SQLite numbers a table's foreign keys from the last declared.
            name: name, columns: columns, foreignKeys: keys.keys.sorted(by: >).compactMap { keys[$0] },
            module: virtual ? module(of: sql) : nil, contentTable: virtual ? option("content", in: sql) : nil,
            rowidColumn: rowidColumn, rows: rows)
    }

    /// `fts4` of `CREATE VIRTUAL TABLE x USING fts4(...)`, lower-cased.
    static func module(of sql: String) -> String? {
        guard let using = sql.range(of: "USING", options: .caseInsensitive) else { return nil }
        let rest = sql[using.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        return String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }).lowercased()
    }

    /// The value of a full-text table's `name=value` option (`content='posts'`, content=`Mail`),
    /// unquoted; `nil` when the table's SQL has none.
    static func option(_ name: String, in sql: String) -> String? {
        var rest = Substring(sql)
        while let found = rest.range(of: name, options: .caseInsensitive) {
            let before = rest[..<found.lowerBound].last
            var after = rest[found.upperBound...].drop { $0 == " " }
            rest = rest[found.upperBound...]
            guard before == "(" || before == "," || before == " " || before == "\n", after.first == "=" else { continue }
            after = after.dropFirst().drop { $0 == " " }
            guard let first = after.first else { return nil }
            let closing: Character? = ["'": "'", "\"": "\"", "`": "`", "[": "]"][first]
            if let closing {
                return String(after.dropFirst().prefix { $0 != closing })
            }
            return String(after.prefix { $0 != "," && $0 != ")" && $0 != " " })
        }
        return nil
    }
}

/// SQLite's type affinity of a declared column type (SQLite's "Datatypes In SQLite", 3.1).
enum Affinity: String {
    case integer = "INTEGER", text = "TEXT", blob = "BLOB", real = "REAL", numeric = "NUMERIC"

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
