import SeederCore
import SeederFiles

/// SQL text that seeder writes itself: identifiers are always quoted here, never by a library.
enum SQLText {
    /// `"name"`, with any `"` doubled.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// `"a", "b"`.
    /// A string literal: `'Photo'`.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    static func list(_ identifiers: [String]) -> String {
        identifiers.map(quote).joined(separator: ", ")
    }

    /// `?, ?, ?`.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `INSERT INTO table ("a", "b") VALUES (?, ?), (?, ?)`: `rows` rows of placeholders into
    /// `table` (quoted).
    static func insert(into table: String, _ columns: [String], rows: Int = 1) -> String {
        "INSERT INTO \(table) (\(list(columns))) VALUES "
            + Array(repeating: "(\(placeholders(columns.count)))", count: rows).joined(separator: ", ")
    }

    /// `x."a" = t."b" AND ...`: each of `left`, of the table aliased `leftAlias`, equal to its
    /// column of `right`, of the table aliased `rightAlias` (a key naming a row).
    static func equal(_ leftAlias: String, _ left: [String], _ rightAlias: String, _ right: [String]) -> String {
        zip(left, right).map { "\(leftAlias).\(quote($0)) = \(rightAlias).\(quote($1))" }.joined(separator: " AND ")
    }

    /// `t."a" IS NOT NULL AND ...`: no column of `columns`, of the table aliased `alias`, null.
    static func notNull(_ alias: String, _ columns: [String]) -> String {
        columns.map { "\(alias).\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
    }

    /// `"a" = ?, "b" = ?`, for an `UPDATE ... SET`.
    static func assignments(_ columns: [String]) -> String {
        columns.map { "\(quote($0)) = ?" }.joined(separator: ", ")
    }

    /// `FROM ... WHERE ...` over the foreign keys of `table` (quoted) in `columns` that name no
    /// row of `parent` (quoted) by `parentColumns`: each distinct key with no `NULL` in it,
    /// looked up once by a `LEFT JOIN` (through the index on `columns`, a graph's million tasks
    /// name 20,000 users). Its rows are the dangling keys, as `c`.
    static func danglingKeys(_ table: String, _ columns: [String], parent: String, _ parentColumns: [String]) -> String {
        let present = columns.map { "\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        return """
            FROM (SELECT DISTINCT \(list(columns)) FROM \(table) WHERE \(present)) AS c
            LEFT JOIN \(parent) AS p ON \(equal("p", parentColumns, "c", columns))
            WHERE p.\(quote(parentColumns[0])) IS NULL
            """
    }
}

extension AttributeType {
    /// The declared SQLite type of a column of this type (docs/seed.md; docs/mapping.md's type
    /// table).
    func columnType(storage: DateStorage) -> String {
        switch self {
        case .integer, .boolean: return "INTEGER"
        case .real: return "REAL"
        case .decimal, .string, .url, .uuid, .json: return "TEXT"
        case .data: return "BLOB"
        case .date:
            switch storage {
            case .iso8601: return "TEXT"
            case .unixepoch, .reference: return "REAL"
            case .unixepochMilliseconds: return "INTEGER"
            }
        }
    }
}

extension Attribute {
    /// The declared SQLite type of the attribute's column.
    var columnType: String { type.columnType(storage: dateStorage) }
}
