import GRDB
import SeederCore
import Testing

@testable import SeederStore

/// The writer's statements stay within their pool's budget: past it, one that has not run for a
/// while is let go and prepared again when it next runs, with the same effect.
struct StatementPoolTests {
    @Test func statementsPastTheBudgetAreLetGoAndPreparedAgain() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let tables = 0..<10
            for table in tables { try db.execute(sql: "CREATE TABLE t\(table) (id INTEGER PRIMARY KEY, name TEXT)") }
            let one = try measure(db, "INSERT INTO t0 (id, name) VALUES (?, ?)")
            // Room for three statements of this size, not ten.
            let pool = StatementPool(db: db, budget: 3 * one + one / 2)
            let inserts = tables.map { table in pool.statement { "INSERT INTO t\(table) (id, name) VALUES (?, ?)" } }
            for round in 0..<5 {
                for insert in inserts {
                    try insert.execute {
                        $0.bind(Int64(round))
                        $0.bind("row \(round)")
                    }
                    #expect(pool.preparedBytes <= 3 * one + one / 2)
                }
            }
            #expect(pool.prepares > inserts.count)
            for table in tables {
                #expect(try String.fetchAll(db, sql: "SELECT name FROM t\(table) ORDER BY id") == (0..<5).map { "row \($0)" })
            }
        }
    }

    @Test func aStatementLetGoWhileItsRowsAreReadFinishesItsRun() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE source (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO source VALUES (1), (2), (3), (4)")
            try db.execute(sql: "CREATE TABLE a (id INTEGER)")
            try db.execute(sql: "CREATE TABLE b (id INTEGER)")
            // A budget of one byte: preparing any statement lets every other one go.
            let pool = StatementPool(db: db, budget: 1)
            let select = pool.statement { "SELECT id FROM source WHERE id >= ? ORDER BY id" }
            let intoA = pool.statement { "INSERT INTO a VALUES (?)" }
            let intoB = pool.statement { "INSERT INTO b VALUES (?)" }
            var read: [Int64] = []
            try select.forEachRow({ $0.bind(Int64(2)) }) { row in
                let id = row.int64(0)
                read.append(id)
                try intoA.execute { $0.bind(id) }
                try intoB.execute { $0.bind(id) }
            }
            #expect(read == [2, 3, 4])
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM a") == [2, 3, 4])
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM b") == [2, 3, 4])
            #expect(pool.prepares == 1 + 2 * 3)
        }
    }

    /// What SQLite counts a prepared `sql` to take.
    private func measure(_ db: Database, _ sql: String) throws -> Int {
        let pool = StatementPool(db: db)
        _ = try pool.statement { sql }.statement()
        return pool.preparedBytes
    }
}
