import Foundation
import GRDB
import SeederCore
import SeederFiles

/// A seed as stable text, for golden files and review: pragmas, then every table sorted by
/// name with its schema and its rows sorted by primary key (GRDB's `dump` idea), values as SQL
/// literals. The same seed always gives the same text.
package enum SeedDump {
    /// The text of the seed at `path`. `masking` replaces metadata values by key (a value that
    /// depends on the machine, such as `sqlite_version`).
    package static func text(ofSeedAt path: String, masking: Set<String> = []) throws -> String {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            var text = "PRAGMA user_version = \(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0)\n"
            text += "PRAGMA application_id = \(try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0)\n"
            text += "PRAGMA journal_mode = \(try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "")\n"
            let objects = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
            for object in objects where (object["type"] as String) == "index" {
                text += "\n" + (object["sql"] as String) + "\n"
            }
            for object in objects where (object["type"] as String) == "table" {
                let table: String = object["name"]
                text += "\n" + (object["sql"] as String) + "\n"
                let primaryKey = try db.primaryKey(table).columns
                let order = primaryKey.map(SQLText.quote).joined(separator: ", ")
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(SQLText.quote(table)) ORDER BY \(order)")
                for row in rows {
                    var cells: [String] = []
                    for (column, value) in row {
                        let shown =
                            table == "seed_metadata" && column == "value" && masking.contains(row["key"] ?? "")
                            ? "'…'" : literal(value)
                        cells.append(shown)
                    }
                    text += "  (" + cells.joined(separator: ", ") + ")\n"
                }
            }
            return text
        }
    }

    /// A value as SQL writes it: `NULL`, `42`, `1.5`, `'it''s'`, `x'00ff'`.
    static func literal(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case let .int64(integer): return String(integer)
        case let .double(double): return "\(double)"
        case let .string(string): return "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case let .blob(data): return "x'" + Hex.digits(data) + "'"
        }
    }
}
