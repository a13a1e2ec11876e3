import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// One to `limit` rows at once into the table of an entity whose identity is its rowid, by
    /// one `INSERT ... ON CONFLICT DO NOTHING` (prepared per row count, when first needed), and
    /// which of them had a row already: none when all went in, all when none did, else those
    /// with a side row (every row with an identity has one, and only the rows just inserted have
    /// none yet). `PendingRows` and `RowRun` go in through it.
    final class InsertIfNew {
        static var limit: Int { 32 }

        /// Whether `layout`'s identity is its table's rowid: one integer attribute.
        static func identityIsRowid(_ layout: RowLayout) -> Bool {
            guard case let .attributes(identity) = layout.entity.identity else { return false }
            return identity.count == 1 && layout.entity.attributes[identity[0]].type == .integer
        }

        private let table: String
        private let columns: [String]
        private let pool: StatementPool
        /// Per number of rows, the insert of that many, made when first needed.
        // The writing thread's only: no run-time exclusivity checks.
        @exclusivity(unchecked) private var inserts: [PreparedOnUse?] = Array(repeating: nil, count: InsertIfNew.limit + 1)
        /// Which of up to `limit` rows have a side row (the side row log goes in first).
        private let existing: SideRowLog.Statement

        init(table: String, sideRows: SideRowLog, columns: [String], pool: StatementPool) {
            (self.table, self.columns, self.pool) = (table, columns, pool)
            existing = sideRows.statement(pool: pool) { side in
                "SELECT \"_row\" FROM \(side) WHERE \"_row\" IN (\(SQLText.placeholders(Self.limit)))"
            }
        }

        /// Inserts the rows of `ids` (at most `limit`), their values bound by `bind` in order,
        /// each unless its identity has a row; returns the identities whose row was there before.
        func insert(_ ids: some Collection<Int64>, bind: (inout RawStatement.Binder) -> Void) throws -> Set<Int64> {
            let count = ids.count
            let inserted = try statement(rows: count).execute(bind)
            if inserted == count { return [] }
            if inserted == 0 { return Set(ids) }
            var found = Set<Int64>()
            try existing.forEachRow(
                { binder in
                    for id in ids { binder.bind(id) }
                    for _ in count..<Self.limit { binder.bind(SQLValue.null) }
                }, { found.insert($0.int64(0)) })
            return found
        }

        /// The insert of `rows` rows, made when first needed.
        private func statement(rows: Int) -> PreparedOnUse {
            if let made = inserts[rows] { return made }
            let made = pool.statement { [table, columns] in
                SQLText.insert(into: table, columns, rows: rows) + " ON CONFLICT DO NOTHING"
            }
            inserts[rows] = made
            return made
        }
    }
}
