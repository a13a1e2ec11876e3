import GRDB
import GRDBSQLite

/// A statement prepared the first time it runs, and again after its pool let it go. The writer
/// has a handful of statements an entity, and a big mapping thousands of entities: each statement
/// prepared is a program of its table's every column in memory (bench/README.md, Big mappings),
/// so a pool (`StatementPool`) keeps a bounded amount of them prepared. Its SQL is made when it
/// is prepared, from what `sql` captures.
final class PreparedOnUse {
    private unowned let pool: StatementPool
    private let sql: () -> String
    // The writing thread's only: no run-time exclusivity checks.
    @exclusivity(unchecked) private var prepared: RawStatement?
    /// Whether it ran since the pool last looked (`StatementPool.admit`).
    @exclusivity(unchecked) fileprivate var used = false
    /// The memory the prepared statement takes, as SQLite counts it.
    @exclusivity(unchecked) fileprivate var bytes = 0

    fileprivate init(pool: StatementPool, sql: @escaping () -> String) {
        self.pool = pool
        self.sql = sql
    }

    /// The statement, prepared now if it is not. A run under way holds its own reference, so the
    /// pool letting the statement go while it runs (a merge's `select` whose rows are merged with
    /// other statements) finalizes it only once that run is over.
    @inline(__always)
    func statement() throws -> RawStatement {
        used = true
        if let prepared { return prepared }
        return try prepare()
    }

    @inline(never)
    private func prepare() throws -> RawStatement {
        let statement = RawStatement(try pool.db.makeStatement(sql: sql()))
        prepared = statement
        bytes = Int(sqlite3_stmt_status(statement.statement.sqliteStatement, SQLITE_STMTSTATUS_MEMUSED, 0))
        pool.admit(self)
        return statement
    }

    /// Lets the prepared statement go, for `statement()` to prepare again.
    fileprivate func release() {
        prepared = nil
    }

    /// `RawStatement.execute`, once the statement is prepared.
    @discardableResult
    func execute(_ bind: (inout RawStatement.Binder) -> Void) throws -> Int {
        try statement().execute(bind)
    }

    /// `RawStatement.forEachRow`, once the statement is prepared.
    func forEachRow(_ bind: (inout RawStatement.Binder) -> Void, _ body: (RawStatement.RawRow) throws -> Void) throws {
        try statement().forEachRow(bind, body)
    }
}

/// The writer's statements on one connection (`statement(_:)`), at most `budget` bytes of them
/// prepared at once: past that, preparing one lets go of ones that have not run for a while (a
/// clock: each gets a second chance if it ran since the hand last passed it). A build whose
/// statements fit keeps every one; a mapping of thousands of entities keeps the ones in use.
final class StatementPool {
    /// As much as one of the load's page caches (`WritingConnection`): a mapping of a hundred
    /// entities keeps every statement, one of thousands re-prepares some (bench/README.md).
    static var defaultBudget: Int { 16 << 20 }

    let db: Database
    private let budget: Int
    // The writing thread's only: no run-time exclusivity checks.
    @exclusivity(unchecked) private var live: [PreparedOnUse] = []
    @exclusivity(unchecked) private var hand = 0
    /// What the statements prepared now take (`live`).
    @exclusivity(unchecked) private(set) var preparedBytes = 0
    /// How many times a statement was prepared, the first time or again.
    @exclusivity(unchecked) private(set) var prepares = 0

    init(db: Database, budget: Int = StatementPool.defaultBudget) {
        self.db = db
        self.budget = budget
    }

    /// A statement of this pool, whose SQL `sql` makes when it is first prepared.
    func statement(_ sql: @escaping () -> String) -> PreparedOnUse {
        PreparedOnUse(pool: self, sql: sql)
    }

    /// Counts `statement` as prepared, letting others go while that makes too many bytes.
    fileprivate func admit(_ statement: PreparedOnUse) {
        prepares += 1
        preparedBytes += statement.bytes
        while preparedBytes > budget, !live.isEmpty {
            if hand >= live.count { hand = 0 }
            if live[hand].used {
                live[hand].used = false
                hand += 1
            } else {
                live[hand].release()
                preparedBytes -= live[hand].bytes
                live.swapAt(hand, live.count - 1)
                live.removeLast()
            }
        }
        live.append(statement)
    }
}
