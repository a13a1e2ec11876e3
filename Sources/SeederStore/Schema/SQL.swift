import SeederCore

/// SQL text that seeder writes itself: identifiers are always quoted here, never by a library.
enum SQLText {
    /// `"name"`, with any `"` doubled.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// `"a", "b"`.
    static func list(_ identifiers: [String]) -> String {
        identifiers.map(quote).joined(separator: ", ")
    }

    /// `?, ?, ?`.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `"a" = ?, "b" = ?`, for an `UPDATE ... SET`.
    static func assignments(_ columns: [String]) -> String {
        columns.map { "\(quote($0)) = ?" }.joined(separator: ", ")
    }
}

extension AttributeType {
    /// The declared SQLite type of a column of this type (SEED.md; MAPPING.md's type table).
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
