import GRDB

/// A statement prepared the first time it runs. The writer has a handful of statements an
/// entity, and a big mapping thousands of entities, most of which use one or two of theirs: each
/// statement prepared is a program of its table's every column in memory (bench/README.md, Big
/// mappings). Its SQL is made when it is prepared, from what `sql` captures.
final class PreparedOnUse {
    private unowned let db: Database
    private var sql: (() -> String)?
    // The writing thread's only: no run-time exclusivity checks.
    @exclusivity(unchecked) private var prepared: RawStatement?

    init(db: Database, sql: @escaping () -> String) {
        self.db = db
        self.sql = sql
    }

    /// The statement, prepared now if it has not been.
    @inline(__always)
    func statement() throws -> RawStatement {
        if let prepared { return prepared }
        return try prepare()
    }

    @inline(never)
    private func prepare() throws -> RawStatement {
        let statement = RawStatement(try db.makeStatement(sql: sql!()))
        (prepared, sql) = (statement, nil)
        return statement
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
