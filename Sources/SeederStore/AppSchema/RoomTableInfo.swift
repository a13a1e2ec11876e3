import Foundation
import GRDB
import SeederFiles

/// What Room reads of a table when it opens a database, and how it normalizes it: a port of
/// room-runtime's `TableInfo.read` (`SchemaInfoUtil.kt`: `readColumns`, `readForeignKeys`,
/// `readIndices`, `readIndex`; Room 2.7). Names are compared case-sensitively, as Room does.
struct RoomTableInfo: Sendable, Hashable {
    /// One row of `PRAGMA table_info`.
    struct Column: Sendable, Hashable {
        var name: String
        /// The declared type, as written (`VARCHAR(20)`, or `""` for none).
        var type: String
        var notNull: Bool
        /// 1-based position in the primary key; 0 outside it.
        var primaryKeyPosition: Int
        /// `dflt_value`: the `DEFAULT` as SQL text, outer parentheses removed by SQLite.
        var defaultValue: String?

        /// What Room compares instead of the declared type.
        var affinity: RoomAffinity { RoomAffinity(declaredType: type) }
    }

    /// A foreign key, gathered from the rows of `PRAGMA foreign_key_list` that share an `id`.
    struct ForeignKey: Sendable, Hashable {
        var referenceTable: String
        var onDelete: String
        var onUpdate: String
        var columnNames: [String]
        var referenceColumnNames: [String]
    }

    /// An index Room reads: one made by `CREATE INDEX` (origin `c`).
    struct Index: Sendable, Hashable {
        var name: String
        var unique: Bool
        var columns: [String]
        /// `ASC` or `DESC` per column.
        var orders: [String]
    }

    var name: String
    /// In the table's order; empty when there is no such table (`PRAGMA table_info` has no row).
    var columns: [Column]
    var foreignKeys: [ForeignKey]
    var indices: [Index]

    /// Reads `table` from `db` as `TableInfo.read` does.
    static func read(_ db: Database, table: String) throws -> RoomTableInfo {
        let quoted = SQLText.quote(table)
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted))").map { row in
            Column(
                name: row["name"],
                type: row["type"] ?? "",
                notNull: (row["notnull"] as Int? ?? 0) != 0,
                primaryKeyPosition: row["pk"] ?? 0,
                defaultValue: row["dflt_value"]
            )
        }
        // `readForeignKeys`: the rows sorted by (id, seq); one key per id, its columns in seq order.
        let keyRows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(quoted))")
            .map { row in
                (
                    id: row["id"] as Int, seq: row["seq"] as Int, table: row["table"] as String? ?? "",
                    from: row["from"] as String? ?? "", to: row["to"] as String? ?? "",
                    onDelete: row["on_delete"] as String? ?? "", onUpdate: row["on_update"] as String? ?? ""
                )
            }
            .sorted { ($0.id, $0.seq) < ($1.id, $1.seq) }
        var foreignKeys: [ForeignKey] = []
        for first in keyRows where first.seq == 0 {
            let parts = keyRows.filter { $0.id == first.id }
            foreignKeys.append(
                ForeignKey(
                    referenceTable: first.table, onDelete: first.onDelete, onUpdate: first.onUpdate,
                    columnNames: parts.map(\.from), referenceColumnNames: parts.map(\.to)))
        }
        // `readIndices`: only indices made by CREATE INDEX; those SQLite makes for UNIQUE and
        // PRIMARY KEY constraints (origin `u`, `pk`: `sqlite_autoindex_...`) are skipped.
        var indices: [Index] = []
        for row in try Row.fetchAll(db, sql: "PRAGMA index_list(\(quoted))") where (row["origin"] as String?) == "c" {
            let name: String = row["name"]
            // `readIndex`: `PRAGMA index_xinfo`, less the rowid (cid < 0), in seqno order.
            let parts = try Row.fetchAll(db, sql: "PRAGMA index_xinfo(\(SQLText.quote(name)))")
                .filter { ($0["cid"] as Int) >= 0 }
                .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
            indices.append(
                Index(
                    name: name, unique: (row["unique"] as Int? ?? 0) == 1,
                    columns: parts.map { $0["name"] as String? ?? "" },
                    orders: parts.map { ($0["desc"] as Int? ?? 0) > 0 ? "DESC" : "ASC" }))
        }
        return RoomTableInfo(name: table, columns: columns, foreignKeys: foreignKeys, indices: indices)
    }

    /// `defaultValueEqualsCommon` (`TableInfo.kt`): equal, or `expected` is wrapped in balanced
    /// parentheses that SQLite dropped when it stored the default (b/182284899).
    static func defaultValue(_ expected: String, matches found: String?) -> Bool {
        if expected == found { return true }
        guard hasSurroundingParentheses(expected) else { return false }
        let inner = expected.dropFirst().dropLast()
        return inner.trimmingCharacters(in: .whitespacesAndNewlines) == found
    }

    /// `containsSurroundingParenthesis` (`TableInfo.kt`): starts with `(` whose `)` is the last
    /// character.
    private static func hasSurroundingParentheses(_ text: String) -> Bool {
        guard text.first == "(" else { return false }
        var depth = 0
        let characters = Array(text)
        for (offset, character) in characters.enumerated() {
            if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 && offset != characters.count - 1 { return false }
            }
        }
        return depth == 0
    }
}

/// A column's type affinity as Room computes it from the declared type: `findAffinity`
/// (`SchemaInfoUtil.kt`), SQLite's rules of datatype3.html §3.1, except that a type matching no
/// rule is `UNDEFINED` where SQLite says `NUMERIC`, and a missing type is `BLOB`.
enum RoomAffinity: String, Sendable, Hashable {
    case undefined = "UNDEFINED"
    case text = "TEXT"
    case integer = "INTEGER"
    case real = "REAL"
    case blob = "BLOB"

    init(declaredType: String?) {
        guard let declaredType else {
            self = .blob
            return
        }
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .undefined
        }
    }
}

/// What Room reads of an FTS table: `FtsTableInfo.read` (`SchemaInfoUtil.kt`'s `readFtsColumns`,
/// `readFtsOptions`, `parseFtsOptions`).
struct RoomFTSTableInfo: Sendable, Hashable {
    /// The column names of `PRAGMA table_info` (hidden columns are not among them).
    var columns: Set<String>
    /// The module arguments of the table's `CREATE VIRTUAL TABLE` that are options
    /// (`content=`\`Song\``, `tokenize=porter`), as written.
    var options: Set<String>
    /// `false` when `sqlite_master` has no object of that name.
    var exists: Bool

    /// Reads `table` from `db` as `FtsTableInfo.read` does.
    static func read(_ db: Database, table: String) throws -> RoomFTSTableInfo {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(SQLText.quote(table)))").map { $0["name"] as String }
        let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])
        return RoomFTSTableInfo(columns: Set(columns), options: options(of: sql ?? ""), exists: sql != nil)
    }

    /// The options Room recognizes (`FTS_OPTIONS`).
    static let optionPrefixes = [
        "tokenize=", "compress=", "content=", "languageid=", "matchinfo=", "notindexed=", "order=", "prefix=", "uncompress=",
    ]

    /// `parseFtsOptions`: the text between the first `(` and the last `)`, split at commas that
    /// are outside quotes (`'`, `"`, `` ` ``, `[...]`), each part trimmed; the parts that start
    /// with an option name.
    static func options(of createStatement: String) -> Set<String> {
        let characters = Array(createStatement)
        guard let open = characters.firstIndex(of: "("), let close = characters.lastIndex(of: ")"), open < close else {
            return []
        }
        let arguments = characters[(open + 1)..<close]
        var parts: [String] = []
        var quote: Character?
        var start = arguments.startIndex
        for index in arguments.indices {
            let character = arguments[index]
            switch character {
            case "'", "\"", "`":
                if quote == nil {
                    quote = character
                } else if quote == character {
                    quote = nil
                }
            case "[":
                if quote == nil { quote = "[" }
            case "]":
                if quote == "[" { quote = nil }
            case ",":
                if quote == nil {
                    parts.append(trimmed(arguments[start..<index]))
                    start = index + 1
                }
            default: break
            }
        }
        parts.append(trimmed(arguments[start...]))
        return Set(parts.filter { part in optionPrefixes.contains { part.hasPrefix($0) } })
    }

    /// Kotlin's `trim { it <= ' ' }`: control characters and spaces off both ends.
    private static func trimmed(_ characters: ArraySlice<Character>) -> String {
        var text = characters[...]
        while let first = text.first, first.unicodeScalars.allSatisfy({ $0.value <= 0x20 }) { text = text.dropFirst() }
        while let last = text.last, last.unicodeScalars.allSatisfy({ $0.value <= 0x20 }) { text = text.dropLast() }
        return String(text)
    }
}

/// What Room reads of a view: `ViewInfo.read` (`SchemaInfoUtil.kt`), the `sql` of
/// `sqlite_master` for a view of that name, compared as text.
enum RoomViewInfo {
    /// The view's `CREATE VIEW` as SQLite stored it; `nil` when there is no such view.
    static func sql(_ db: Database, view: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'view' AND name = ?", arguments: [view])
    }
}
