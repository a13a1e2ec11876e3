import Foundation
import GRDB
import SeederCore
import SeederFiles
import Testing

@testable import SeederStore

/// A step of a `RawStatement` that SQLite fails throws SQLite's error, with its message and the
/// statement, and leaves the statement ready to run again.
struct RawStatementFailureTests {
    @Test func aFailingExecuteThrowsSQLitesMessage() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            let insert = RawStatement(try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?)"))
            #expect(
                try insert.execute {
                    $0.bind(Int64(1)); $0.bind("one")
                } == 1)

            let duplicate = #expect(throws: DatabaseError.self) {
                try insert.execute {
                    $0.bind(Int64(1)); $0.bind("again")
                }
            }
            #expect(duplicate?.resultCode == .SQLITE_CONSTRAINT)
            #expect(duplicate?.message == "UNIQUE constraint failed: t.id")
            #expect(duplicate?.sql == "INSERT INTO t VALUES (?, ?)")
            let null = #expect(throws: DatabaseError.self) {
                try insert.execute {
                    $0.bind(Int64(2)); $0.bind(SQLValue.null)
                }
            }
            #expect(null?.message == "NOT NULL constraint failed: t.name")

            // Reset after each failure: the next run binds afresh and goes in.
            #expect(
                try insert.execute {
                    $0.bind(Int64(2)); $0.bind("two")
                } == 1)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY id") == ["one", "two"])
        }
    }

    @Test func aStepThatFailsPartWayThroughTheRowsThrowsSQLitesMessage() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t VALUES (1), (2), (3)")
            // The second row's `abs` overflows: SQLite fails the step that would return it.
            let select = RawStatement(try db.makeStatement(sql: "SELECT id, abs(CASE WHEN id = 2 THEN ? ELSE id END) FROM t ORDER BY id"))
            var seen: [Int64] = []
            let error = #expect(throws: DatabaseError.self) {
                try select.forEachRow({ $0.bind(Int64.min) }, { seen.append($0.int64(0)) })
            }
            #expect(seen == [1])
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "integer overflow")
            #expect(error?.sql == "SELECT id, abs(CASE WHEN id = 2 THEN ? ELSE id END) FROM t ORDER BY id")

            // Reset: it runs again from the first row.
            seen = []
            try select.forEachRow({ $0.bind(Int64(0)) }, { seen.append($0.int64(1)) })
            #expect(seen == [1, 0, 3])
        }
    }
}
