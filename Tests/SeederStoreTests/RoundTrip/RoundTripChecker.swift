import GRDB

/// Reads a built seed back and compares it with the expected tables: the same tables, each
/// with exactly the expected rows (none lost, none duplicated, every value as promised), every
/// link present, and SQLite's own checks clean.
enum RoundTripChecker {
    static func problems(seed path: String, model: RoundTripModel) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var problems: [String] = []
            let expected = RoundTripExpectation.tables(model)
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('seed_metadata', 'seed_source') ORDER BY name
                    """)
            if tables != expected.map(\.name).sorted() {
                problems.append("tables \(tables), expected \(expected.map(\.name).sorted())")
            }
            if try !Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty { problems.append("PRAGMA foreign_key_check is not empty") }

            // Which `_pk` each `identity: none` record got, found by its serial.
            var primaryKeys: [Int: [Int64: Int64]] = [:]
            for (index, entity) in model.entities.enumerated() where entity.identity == .none {
                for row in try Row.fetchAll(db, sql: "SELECT _pk, serial FROM \(quote(entity.table))") {
                    primaryKeys[index, default: [:]][row[1]] = row[0]
                }
            }
            for table in expected {
                let sql = "SELECT " + table.columns.map(quote).joined(separator: ", ") + " FROM " + quote(table.name)
                let actual = try Row.fetchAll(db, sql: sql).map { row in Array(row.databaseValues.map(Stored.init)) }
                let wanted = table.rows.map { row in
                    row.map { cell -> Stored in
                        guard case let .serial(entity, serial) = cell else { return cell }
                        return primaryKeys[entity]?[serial].map(Stored.integer) ?? cell
                    }
                }
                problems += differences(table, actual: actual, expected: wanted)
            }
            return problems
        }
    }

    /// Rows missing and rows not expected (multisets), a few of each, with the columns.
    static func differences(_ table: RoundTripExpectation.Table, actual: [[Stored]], expected: [[Stored]]) -> [String] {
        var counts: [[Stored]: Int] = [:]
        for row in expected { counts[row, default: 0] += 1 }
        for row in actual { counts[row, default: 0] -= 1 }
        let missing = counts.filter { $0.value > 0 }.keys.map { describe($0) }.sorted()
        let extra = counts.filter { $0.value < 0 }.keys.map { describe($0) }.sorted()
        guard !missing.isEmpty || !extra.isEmpty else { return [] }
        var lines = ["\(table.name)(\(table.columns.joined(separator: ", "))): \(actual.count) rows, expected \(expected.count)"]
        lines += missing.prefix(6).map { "  missing:    " + $0 }
        lines += extra.prefix(6).map { "  unexpected: " + $0 }
        return lines
    }

    static func describe(_ row: [Stored]) -> String {
        "(" + row.map(\.description).joined(separator: ", ") + ")"
    }

    static func quote(_ name: String) -> String { "\"" + name + "\"" }
}

extension Stored {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case let .int64(n): self = .integer(n)
        case let .double(d): self = .real(d)
        case let .string(text): self = .text(Array(text.utf8))
        case let .blob(data): self = .blob(Array(data))
        }
    }
}
