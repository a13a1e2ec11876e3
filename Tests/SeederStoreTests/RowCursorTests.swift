import GRDB
import Testing

@testable import SeederCore
@testable import SeederStore

/// `RowCursor` (the diff's merge) orders and compares columns in place exactly as SQLite's
/// `ORDER BY … COLLATE BINARY` does, and reads them as `SQLValue`s.
struct RowCursorTests {
    /// One row of one value per storage-class case, and each value's rank in SQLite's order.
    static let select = "SELECT NULL, -1, 1, 1.0, 1.5, 'a', 'ab', 'b', x'00', x'0001', 'é'"
    static let ranks = [0, 1, 2, 2, 3, 4, 5, 6, 8, 9, 7]

    @Test func ordersAndComparesColumnsAsSQLiteDoes() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let left = try RowCursor(db: db, sql: Self.select), right = try RowCursor(db: db, sql: Self.select)
            for i in Self.ranks.indices {
                for j in Self.ranks.indices {
                    let expected = Self.ranks[i] < Self.ranks[j] ? -1 : Self.ranks[i] > Self.ranks[j] ? 1 : 0
                    let order = left.compare(i, with: right, j)
                    #expect((order < 0 ? -1 : order > 0 ? 1 : 0) == expected, "columns \(i) and \(j)")
                    // `1` and `1.0` order together but are not the same value.
                    #expect(left.isSame(i, as: right, j) == (i == j), "columns \(i) and \(j)")
                }
            }
            // SQLite's own order agrees with the ranks.
            #expect(try Self.sqliteOrder(db) == Self.ranks.sorted())
        }
    }

    @Test func readsValuesAndStepsToTheEnd() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            var cursor = try RowCursor(db: db, sql: Self.select)
            #expect(!cursor.isAtEnd)
            #expect(
                cursor.values(0..<11) == [
                    .null, .integer(-1), .integer(1), .real(1), .real(1.5), .text("a"), .text("ab"), .text("b"), .blob([0]), .blob([0, 1]),
                    .text("é"),
                ])
            #expect(cursor.isNull(0) && !cursor.isNull(1))
            try cursor.advance()
            #expect(cursor.isAtEnd)
            #expect(try RowCursor(db: db, sql: "SELECT 1 WHERE 0").isAtEnd)
        }
    }

    @Test func aFailingStepThrowsSQLitesError() throws {
        let queue = try DatabaseQueue()
        let sql = "SELECT abs(-9223372036854775807 - 1)"
        let error = #expect(throws: DatabaseError.self) {
            try queue.read { db in _ = try RowCursor(db: db, sql: sql) }
        }
        #expect(error?.message == "integer overflow")
        #expect(error?.sql == sql)
    }

    /// The ranks of `select`'s values in the order SQLite sorts them.
    private static func sqliteOrder(_ db: Database) throws -> [Int] {
        let values = select.dropFirst("SELECT ".count).split(separator: ", ")
        let union = values.enumerated().map { "SELECT \($0.offset) AS i, \($0.element) AS v" }.joined(separator: " UNION ALL ")
        return try Int.fetchAll(db, sql: "SELECT i FROM (\(union)) ORDER BY v COLLATE BINARY, i").map { ranks[$0] }
    }
}
