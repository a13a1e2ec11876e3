import Foundation
import GRDB
import SeederCore
import SeederFiles

/// Fills the app's own schema with the rows a build finished (docs/mapping.md, Fitting the app's
/// own schema): a copy of the app's empty database, the seed attached, each table filled with
/// one `INSERT ... SELECT` in the seed's row order, row numbers made once per numbered entity;
/// then Core Data's `Z_MAX`, full-text tables rebuilt from their content, seeder's metadata
/// tables, and the file checked as any seed is.
struct SeedProjector {
    let fit: SchemaFit

    /// Fills a copy of the app's database at `path` from the finished seed `built`, then makes
    /// it final and checks it (`FinishedFile.compact`, vacuumed into `spare` if it holds a free
    /// page).
    func project(built: FinishedFile, into path: String, spare: String) throws -> FinishedFile {
        guard FileManager.default.createFile(atPath: path, contents: Data(fit.bytes)) else {
            throw OutputError.cannot("write", path, error: errno)
        }
        // The copy is a temporary file until it is renamed; a failed fill is rolled back in
        // memory, and the copy removed.
        let queue = try DatabaseQueue(path: path, configuration: WritingConnection.configuration(journal: .memory))
        let finished = try queue.inDatabase { db -> FinishedFile in
            db.add(function: Self.uuidBytes)
            try db.execute(sql: "ATTACH DATABASE ? AS \"built\"", arguments: [built.path])
            // The app's triggers would fill its logs and indexes once more (docs/mapping.md).
            try RawSQLite.enableTriggers(false, in: db)
            try db.execute(sql: "BEGIN")
            do {
                try fill(db)
                for (entity, number) in fit.coreDataNumbers.sorted(by: { $0.key < $1.key }) {
                    try db.execute(
                        sql: #"UPDATE "main"."Z_PRIMARYKEY" SET "Z_MAX" = (SELECT count(*) FROM "built"."#
                            + SQLText.quote(builtTable(entity))
                            + ") WHERE \"Z_ENT\" = \(number)")
                }
                for table in fit.rebuilt {
                    try db.execute(sql: "INSERT INTO \"main\".\(SQLText.quote(table))(\(SQLText.quote(table))) VALUES ('rebuild')")
                }
                for statement in SeedSchema.metadataTables { try db.execute(sql: statement) }
                try db.execute(sql: #"INSERT INTO "main"."seed_metadata" SELECT * FROM "built"."seed_metadata" ORDER BY "key""#)
                try db.execute(sql: #"INSERT INTO "main"."seed_source" SELECT * FROM "built"."seed_source" ORDER BY "rowid""#)
                if fit.mode == .room { try db.execute(sql: "PRAGMA application_id = \(SeedFinisher.applicationID)") }
                try db.execute(sql: "COMMIT")
            } catch {
                try? db.execute(sql: "ROLLBACK")
                throw error
            }
            try RawSQLite.enableTriggers(true, in: db)
            try db.execute(sql: "DETACH DATABASE \"built\"")
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            if let room = fit.room, case let differences = try room.differences(in: db), !differences.isEmpty {
                throw AssemblyError(message: "Room would reject the seed: " + differences.map(\.description).joined(separator: "; "))
            }
            return try FinishedFile.compact(db, at: path, spare: spare, checking: true)
        }
        try queue.close()
        return finished
    }

    /// Numbers the rows and fills each table; a row the app's schema refuses is the data's fault,
    /// reported naming the table and SQLite's reason.
    private func fill(_ db: Database) throws {
        try number(db)
        for table in fit.tables {
            do {
                try db.execute(sql: insert(table))
            } catch let error as DatabaseError {
                let reason = error.message ?? "\(error)"
                let records = (try? duplicates(of: table, reason: reason, db)).map { " (\($0))" } ?? ""
                throw SchemaFitError(
                    message: "the app's schema refuses the rows of table '\(table.table)': \(reason)\(records)", location: fit.location)
            }
        }
    }

    /// For a `UNIQUE constraint failed: t.a, t.b` of an entity's table, the first records that
    /// share those values, by identity: `Author a1 and Author a2 both have name "Ann"`; `nil`
    /// when the reason names no such columns.
    private func duplicates(of table: SchemaFit.TableFill, reason: String, _ db: Database) throws -> String? {
        let prefix = "UNIQUE constraint failed: "
        let entity = fit.described.entities[table.entity]
        guard reason.hasPrefix(prefix), table.builtTable == fit.tables.first(where: { $0.entity == table.entity })?.builtTable,
            entity.identity != .none
        else { return nil }
        let appColumns = reason.dropFirst(prefix.count).split(separator: ",").map {
            String($0.trimmingCharacters(in: .whitespaces).split(separator: ".").last ?? "")
        }
        let built = appColumns.compactMap { column -> String? in
            guard case let .column(name)? = table.fills.first(where: { $0.column.caseInsensitiveCompare(column) == .orderedSame })?.value
            else { return nil }
            return name
        }
        guard built.count == appColumns.count, !built.isEmpty else { return nil }
        let keys = fit.keyColumns[table.entity]
        let source = "\"built\".\(SQLText.quote(table.builtTable))"
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT \(SQLText.list(keys + built)) FROM \(source) WHERE (\(SQLText.list(built))) IN "
                + "(SELECT \(SQLText.list(built)) FROM \(source) GROUP BY \(SQLText.list(built)) HAVING count(*) > 1) "
                + "ORDER BY \(SQLText.list(built)), \"rowid\" LIMIT 2")
        guard rows.count == 2 else { return nil }
        let names = rows.map { row in
            entity.name + " " + keys.indices.map { Self.text(row[$0]) }.joined(separator: " ")
        }
        let values = zip(appColumns, built.indices).map { "\($0) \(rows[0][keys.count + $1] as DatabaseValue)" }
        return "\(names[0]) and \(names[1]) both have \(values.joined(separator: ", "))"
    }

    /// A key as messages write it: a string as it is, any other value as SQL would.
    private static func text(_ value: DatabaseValue) -> String {
        if case let .string(string) = value.storage { return string }
        return value.description
    }

    private func builtTable(_ entity: Int) -> String {
        fit.tables.first { $0.entity == entity }?.builtTable ?? ""
    }

    /// `temp."seeder_row_<n>"`: each numbered entity's rows, from 1 in the order of the seed's
    /// rows, with the built row's rowid (`r`) and keys (`k0`...); indexed by the keys where a
    /// row is looked up by them (`lookedUpByKeys`).
    private func number(_ db: Database) throws {
        let lookedUp = lookedUpByKeys
        for entity in fit.numbered {
            let keys = fit.keyColumns[entity]
            let table = Self.numbers(entity)
            let columns = keys.indices.map { "k\($0)" }
            // Declared as the keys are: a key column without the keys' affinity would be
            // converted in each lookup, and its index never used.
            let declared = try Row.fetchAll(db, sql: "PRAGMA \"built\".table_info(\(SQLText.quote(builtTable(entity))))")
            let types = Dictionary(
                declared.map { ($0["name"] as String, $0["type"] as String? ?? "") }, uniquingKeysWith: { first, _ in first })
            let definitions = zip(columns, keys).map { "\(SQLText.quote($0)) \(types[$1] ?? "")" }.joined(separator: ", ")
            try db.execute(sql: "CREATE TEMP TABLE \(table) (\"n\" INTEGER PRIMARY KEY, \"r\" INTEGER, \(definitions))")
            try db.execute(
                sql: "INSERT INTO \(table) (\"r\", \(SQLText.list(columns))) SELECT \"rowid\", \(SQLText.list(keys)) FROM \"built\"."
                    + "\(SQLText.quote(builtTable(entity))) ORDER BY \"rowid\"")
            guard lookedUp.contains(entity) else { continue }
            try db.execute(
                sql: "CREATE UNIQUE INDEX \"temp\".\"seeder_row_\(entity)_key\" ON \"seeder_row_\(entity)\"(\(SQLText.list(columns)))")
        }
    }

    /// The numbered entities whose row numbers some fill looks up by keys: a reference's target,
    /// or the owner of rows read from another table than its own. An entity's own rows take
    /// their numbers from its numbering, row for row (`readsNumbered`).
    private var lookedUpByKeys: Set<Int> {
        var entities = Set<Int>()
        for table in fit.tables {
            for fill in table.fills {
                switch fill.value {
                case let .rowNumberOf(entity, _): entities.insert(entity)
                case .rowNumber where !readsNumbered(table): entities.insert(table.entity)
                default: continue
                }
            }
        }
        return entities
    }

    /// Whether `table` is read through its entity's numbering: the entity's own built table,
    /// numbered, whose rows are then read in their numbers' order, each taking its own.
    private func readsNumbered(_ table: SchemaFit.TableFill) -> Bool {
        fit.numbered.contains(table.entity) && table.builtTable == builtTable(table.entity)
    }

    private static func numbers(_ entity: Int) -> String {
        "\"temp\".\"seeder_row_\(entity)\""
    }

    /// `INSERT INTO "main"."app table" (...) SELECT ... FROM "built"."table" AS r ORDER BY r."rowid"`.
    func insert(_ table: SchemaFit.TableFill) -> String {
        let values = table.fills.map { fill -> String in
            switch fill.value {
            case let .column(column):
                return "r.\(SQLText.quote(column))"
            case let .coreDataDate(column, storage):
                return Self.referenceDate(of: "r.\(SQLText.quote(column))", storage: storage)
            case let .columnOrDefault(column, value):
                return "coalesce(r.\(SQLText.quote(column)), \(Self.defaultExpression(value)))"
            case let .coreDataUUID(column):
                return "\(Self.uuidBytes.name)(r.\(SQLText.quote(column)))"
            case .rowNumber:
                return readsNumbered(table) ? "o.\"n\"" : rowNumber(of: table.entity, keys: fit.keyColumns[table.entity])
            case let .rowNumberOf(entity, columns):
                return rowNumber(of: entity, keys: columns)
            case let .constant(value):
                return String(value)
            }
        }
        let into = "INSERT INTO \"main\".\(SQLText.quote(table.table)) (\(SQLText.list(table.fills.map(\.column)))) "
        let built = "\"built\".\(SQLText.quote(table.builtTable)) AS r"
        guard readsNumbered(table) else {
            return into + "SELECT \(values.joined(separator: ", ")) FROM \(built) ORDER BY r.\"rowid\""
        }
        // The numbering drives: each row found by rowid, not its number by its keys.
        return into + "SELECT \(values.joined(separator: ", ")) FROM \(Self.numbers(table.entity)) AS o "
            + "JOIN \(built) ON r.\"rowid\" = o.\"r\" ORDER BY o.\"n\""
    }

    /// A column's declared default as an expression of a query: a double-quoted default is a
    /// string in `CREATE TABLE` (SQLite's quirk for compatibility) but would name a column here.
    static func defaultExpression(_ declared: String) -> String {
        guard declared.count >= 2, declared.hasPrefix("\""), declared.hasSuffix("\"") else { return declared }
        return SQLText.literal(String(declared.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\""))
    }

    /// The row number of the row of `entity` that the built row's `keys` name.
    private func rowNumber(of entity: Int, keys: [String]) -> String {
        let match = keys.enumerated().map { "x.\"k\($0.offset)\" = r.\(SQLText.quote($0.element))" }.joined(separator: " AND ")
        return "(SELECT x.\"n\" FROM \(Self.numbers(entity)) AS x WHERE \(match))"
    }

    /// `seeder_uuid_bytes(text)`: a UUID's 16 bytes, from the text seeder stores (checked
    /// canonical by the mapper: docs/mapping.md, Types).
    static let uuidBytes = DatabaseFunction("seeder_uuid_bytes", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 where character != UInt8(ascii: "-") {
            guard let nibble = Self.nibble(character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == 16 ? Data(bytes) : nil
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Seconds since 2001-01-01 00:00:00 UTC of a date stored as `storage` (Core Data's
    /// TIMESTAMP; docs/guides/core-data.md).
    static func referenceDate(of value: String, storage: DateStorage) -> String {
        switch storage {
        case .reference: return value
        case .unixepoch: return "(\(value) - 978307200.0)"
        case .unixepochMilliseconds: return "(\(value) / 1000.0 - 978307200.0)"
        // julianday 2451910.5 is 2001-01-01 00:00 UTC; rounded to the millisecond that ISO text holds.
        case .iso8601: return "(round((julianday(\(value)) - 2451910.5) * 86400000.0) / 1000.0)"
        }
    }
}
